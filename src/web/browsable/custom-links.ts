/**
 * The custom links of one object (NetBox 3.7 `custom_links` template tag and CustomLink.render),
 * shown on its browsable API detail page: every enabled link for the object's type, in the links'
 * order (group name, weight, name), text and URL rendered as Jinja2 with `object` (the object's
 * API representation, as the page shows it) and `user`. As in NetBox:
 * - a link whose text renders empty (after trimming) is not shown;
 * - links sharing a group name form one menu, in the place of the group's first link;
 * - a URL is percent-encoded (NetBox's safe characters kept), and one whose scheme is not allowed
 *   becomes empty;
 * - a link whose template fails shows as an error with that link's name, and the page still renders.
 * The text is shown escaped (NetBox lets some HTML through its cleaner; here none).
 * One sandbox job per link (text and URL together), the links in parallel over the template pool.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef } from '../../core/model/types.js';
import { TemplateRenderError } from '../../core/templates/template-pool.js';
import { html, type Html } from '../html.js';

/** a page waits at most this long for one link */
const LINK_TIMEOUT_MS = 2_000;
/** NetBox 3.7 ALLOWED_URL_SCHEMES, its default */
const ALLOWED_SCHEMES = new Set([
  'file',
  'ftp',
  'ftps',
  'http',
  'https',
  'irc',
  'mailto',
  'sftp',
  'ssh',
  'tel',
  'telnet',
  'tftp',
  'vnc',
  'xmpp',
]);

interface LinkRow {
  name: string;
  link_text: string;
  link_url: string;
  group_name: string;
  button_class: string;
  new_window: boolean;
}

type Rendered = { link: LinkRow; text: string; url: string } | { link: LinkRow; error: string } | null;

/** Python's urllib.parse.quote(link, safe='/:?&=%+[]@#,;!'): everything else percent-encoded, as UTF-8 */
function quoteUrl(url: string): string {
  return Array.from(new TextEncoder().encode(url), (b) => {
    const c = String.fromCharCode(b);
    return /[A-Za-z0-9_.~\-/:?&=%+[\]@#,;!]/.test(c) && b < 128
      ? c
      : `%${b.toString(16).toUpperCase().padStart(2, '0')}`;
  }).join('');
}

/** NetBox: the scheme of the quoted link must be allowed, else the link is empty */
function safeUrl(raw: string): string {
  const url = quoteUrl(raw);
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  return scheme && !ALLOWED_SCHEMES.has(scheme) ? '' : url;
}

async function renderLink(rc: RequestContext, link: LinkRow, context: unknown): Promise<Rendered> {
  try {
    const out = await rc.app.templates.renderAll({ text: link.link_text, url: link.link_url }, context, {
      timeoutMs: LINK_TIMEOUT_MS,
    });
    const text = (out.text ?? '').trim();
    if (!text) return null;
    return { link, text, url: safeUrl((out.url ?? '').trim()) };
  } catch (err) {
    if (err instanceof TemplateRenderError) return { link, error: err.message };
    throw err;
  }
}

const target = (link: LinkRow) => (link.new_window ? html` target="_blank" rel="noopener noreferrer"` : '');

function linkHtml(r: Exclude<Rendered, null>, inGroup: boolean): Html {
  if ('error' in r) {
    return html`<span class="custom-link custom-link-error" title="${r.error}">⚠ ${r.link.name}: ${r.error}</span>`;
  }
  const cls = inGroup ? 'custom-link' : `custom-link button secondary btn-${r.link.button_class}`;
  return html`<a class="${cls}" href="${r.url}"${target(r.link)}>${r.text}</a>`;
}

/** The custom links of `object` (a `model` object's representation), or nothing when none shows. */
export async function customLinksHtml(
  rc: RequestContext,
  model: ModelDef,
  object: Record<string, unknown>,
): Promise<Html | ''> {
  const res =
    await sql<LinkRow>`select name, link_text, link_url, group_name, button_class, new_window from extras_customlink
    where enabled and ${model.name} = any(content_types) order by group_name, weight, name, id`.execute(rc.q);
  if (!res.rows.length) return '';
  const user = rc.user
    ? { username: rc.user.username, is_superuser: rc.user.is_superuser, is_staff: rc.user.is_staff }
    : null;
  const context = { object, user, debug: false };
  const rendered = await Promise.all(res.rows.map((link) => renderLink(rc, link, context)));
  const parts: Html[] = [];
  const groups = new Map<string, Array<Exclude<Rendered, null>>>();
  // ungrouped links first, then each group as a menu (NetBox's tag renders them in that order)
  for (const r of rendered) {
    if (!r) continue;
    if (!r.link.group_name) parts.push(linkHtml(r, false));
    else groups.set(r.link.group_name, [...(groups.get(r.link.group_name) ?? []), r]);
  }
  // NetBox: a group's menu takes the button class of the group's first link, shown or not
  const firstOf = new Map<string, LinkRow>();
  for (const link of res.rows) if (link.group_name && !firstOf.has(link.group_name)) firstOf.set(link.group_name, link);
  for (const [group, links] of groups) {
    parts.push(
      html`<details class="custom-link-group btn-${firstOf.get(group)!.button_class}"><summary>${group}</summary><ul>${links.map((r) => html`<li>${linkHtml(r, true)}</li>`)}</ul></details>`,
    );
  }
  if (!parts.length) return '';
  return html`<nav class="custom-links panel" aria-label="Custom links">${parts}</nav>`;
}
