/**
 * What every page needs from its request: the signed-in user, a fresh masked CSRF token for its
 * forms (setting the csrftoken cookie when the browser has none), and where it is (for `next`).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../core/context.js';
import { csrfFormToken } from '../http/csrf.js';
import { html, type Html } from './html.js';
import { type Menu, menuFor } from './navigation/menu.js';
import { unreadCount } from './own/unread-count.js';
import { type Theme, themeOf, timeZoneOf } from './user-prefs.js';

export interface PageContext {
  user: AuthUser | null;
  csrfToken: string;
  here: string;
}

export function pageContext(request: FastifyRequest, reply: FastifyReply): PageContext {
  // rc is null when the request failed before its context was made (an error page of the browsable API)
  return { user: request.rc?.user ?? null, csrfToken: csrfFormToken(request, reply), here: request.url };
}

/** A page's context with the navigation menu this user sees (pages for people; the browsable API has none). */
export async function pageWithMenu(
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<PageContext & { menu?: Menu[]; theme?: Theme; timeZone?: string; unread?: number }> {
  const page = pageContext(request, reply);
  if (!request.rc) return page;
  const rc = request.rc;
  return {
    ...page,
    menu: await menuFor(rc),
    theme: await themeOf(rc),
    timeZone: await timeZoneOf(rc),
    unread: await unreadCount(rc),
  };
}

/** The hidden field every POST form carries (Django's name, so NetBox scripts find it). */
export function csrfField(page: PageContext): Html {
  return html`<input type="hidden" name="csrfmiddlewaretoken" value="${page.csrfToken}">`;
}

/**
 * A `next` target that stays on this site: a path starting with one slash (`//evil.example` and
 * `/\evil.example` are other hosts to a browser), else the home page.
 */
export function safeNext(next: unknown): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f]/.test(next)) return '/';
  return next;
}

/** An absolute API URL as a path on this site, so a link works under whatever name the browser used. */
export function localPath(url: unknown, baseUrl: string): string {
  const s = String(url);
  return s.startsWith(baseUrl) ? s.slice(baseUrl.length) || '/' : s;
}
