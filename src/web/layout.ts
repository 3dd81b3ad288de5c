/**
 * The page shell every web page shares: header with navigation and the user menu, breadcrumbs,
 * the content, and the local stylesheet. Pages send a Content-Security-Policy that allows only
 * our own files (no inline script or style), so injected markup could not run even if escaping
 * (web/html.ts) ever failed.
 */
import type { FastifyReply } from 'fastify';
import type { AuthUser } from '../core/context.js';
import { attrs, html, type Html, type HtmlValue } from './html.js';
import type { Menu } from './navigation/menu.js';
import { bell, ownPagesMenu } from './own/user-links.js';
import { assetUrl } from './static-assets.js';
import { localizeTimes } from './time-zone.js';

export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'self'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

export interface Crumb {
  label: string;
  href?: string;
}

export interface PageOptions {
  title: string;
  user: AuthUser | null;
  /** the masked CSRF token for the sign-out form (http/csrf.ts csrfFormToken) */
  csrfToken: string;
  /** the path and query of this page, for the sign-in link's `next` */
  here: string;
  crumbs?: Crumb[];
  body: HtmlValue;
  /** extra class on <main> (the browsable API uses a wider layout) */
  mainClass?: string;
  /** the navigation menu as this user sees it (navigation/menu.ts); absent: the API links only */
  menu?: Menu[];
  /** the user's colour mode; absent: the system's (prefers-color-scheme) */
  theme?: 'light' | 'dark';
  /** the reader's time zone (time-zone.ts); absent: times stay in UTC */
  timeZone?: string;
  /** a message shown once above the content (after a save: "Created site x") */
  flash?: HtmlValue;
  /** the user's unread notifications, for the header's bell (own/unread-count.ts) */
  unread?: number;
}

/**
 * One <details> per menu: opens with a click, Enter or Space and works without JavaScript
 * (inventory.js closes the others and answers Escape).
 */
function mainMenu(menus: Menu[]): Html {
  return html`<ul class="menu">${menus.map(
    (m) =>
      html`<li><details class="menu-drop"><summary>${m.label}</summary><div class="drop">${m.groups.map(
        (g) =>
          html`<div class="drop-group"><h2>${g.label}</h2><ul>${g.items.map(
            (i) => html`<li><a href="${i.href}">${i.label}</a></li>`,
          )}</ul></div>`,
      )}</div></details></li>`,
  )}</ul>`;
}

function userMenu(user: AuthUser | null, csrfToken: string, here: string, unread?: number): Html {
  if (!user) {
    const next = here.startsWith('/login/') ? '/' : here;
    return html`<a class="nav-link" href="/login/?next=${encodeURIComponent(next)}">Sign in</a>`;
  }
  return html`${bell(unread)}${ownPagesMenu(user.username)}
    <form class="inline" method="post" action="/logout/">
      <input type="hidden" name="csrfmiddlewaretoken" value="${csrfToken}">
      <button class="link-button" type="submit">Sign out</button>
    </form>`;
}

function breadcrumbs(crumbs: Crumb[]): Html {
  if (!crumbs.length) return html``;
  return html`<nav class="crumbs" aria-label="Breadcrumbs"><ol>${crumbs.map(
    (c) =>
      html`<li>${c.href ? html`<a href="${c.href}">${c.label}</a>` : html`<span aria-current="page">${c.label}</span>`}</li>`,
  )}</ol></nav>`;
}

export function renderPage(opts: PageOptions): string {
  const page = html`<!doctype html>
<html lang="en"${attrs({ 'data-theme': opts.theme })}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${opts.title} · netinventory</title>
<link rel="stylesheet" href="${assetUrl('inventory.css')}">
<script src="${assetUrl('inventory.js')}" defer></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/">netinventory</a>
  <nav class="main-nav" aria-label="Main">
    ${opts.menu ? mainMenu(opts.menu) : ''}
    <a class="nav-link" href="/api/">API</a>
    <a class="nav-link" href="/api/docs/">API docs</a>
  </nav>
  <form class="search" method="get" action="/search/" role="search">
    <input type="search" name="q" placeholder="Search (press /)" aria-label="Search" data-hotkey="/">
  </form>
  <div class="user-menu">${userMenu(opts.user, opts.csrfToken, opts.here, opts.unread)}</div>
</header>
${breadcrumbs(opts.crumbs ?? [])}
<main${attrs({ class: opts.mainClass })} id="main">
${opts.flash ? html`<p class="flash" role="status">${opts.flash}</p>` : ''}
${opts.body}
</main>
</body>
</html>
`;
  return localizeTimes(page.text, opts.timeZone);
}

/** Sends a page with the headers every page carries. */
export function sendPage(reply: FastifyReply, page: string, status = 200): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Content-Security-Policy', PAGE_CSP)
    .header('Cache-Control', 'no-store')
    .send(page);
}
