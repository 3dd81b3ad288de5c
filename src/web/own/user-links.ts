/**
 * The header's pieces for a signed-in user: the notification bell with its unread count, and the
 * menu of their own pages (NetBox 4.1's user menu: profile, bookmarks, subscriptions,
 * notifications, API tokens). The menu is a <details>, like the main menu, so it opens without
 * JavaScript.
 */
import { html, type Html } from '../html.js';

const OWN_PAGES = [
  { label: 'Profile', href: '/user/profile/' },
  { label: 'Preferences', href: '/user/preferences/' },
  { label: 'Bookmarks', href: '/user/bookmarks/' },
  { label: 'Subscriptions', href: '/user/subscriptions/' },
  { label: 'Notifications', href: '/user/notifications/' },
  { label: 'API tokens', href: '/user/api-tokens/' },
  { label: 'Change password', href: '/user/password/' },
];

/**
 * a bell linking to the notifications; its label says how many are unread (the badge is
 * decoration). A page made without the count (the browsable API's) claims none.
 */
export function bell(unread: number | undefined): Html {
  const n = unread ?? 0;
  const label =
    unread === undefined ? 'Notifications' : n ? `Notifications, ${n} unread` : 'Notifications, none unread';
  return html`<a class="nav-link bell" href="/user/notifications/" aria-label="${label}" title="${label}"><svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" width="16" height="16"><path fill="currentColor" d="M8 16a2 2 0 0 0 2-2H6a2 2 0 0 0 2 2zm5-5V7a5 5 0 0 0-4-4.9V1a1 1 0 0 0-2 0v1.1A5 5 0 0 0 3 7v4l-2 2v1h14v-1z"/></svg>${n ? html`<span class="bell-count" aria-hidden="true">${n > 99 ? '99+' : String(n)}</span>` : ''}</a>`;
}

export function ownPagesMenu(username: string): Html {
  return html`<details class="menu-drop user-drop"><summary>${username}</summary><div class="drop"><ul>${OWN_PAGES.map(
    (p) => html`<li><a href="${p.href}">${p.label}</a></li>`,
  )}</ul></div></details>`;
}
