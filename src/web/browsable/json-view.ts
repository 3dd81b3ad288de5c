/**
 * The response body as Django REST framework's browsable API shows it: pretty-printed JSON (two
 * spaces), escaped, with every URL string a link. Links to this service become local paths
 * (web/page-context.ts localPath), so they work under whatever name the browser used; other
 * http(s) URLs link out; nothing else is ever an href (a `javascript:` string stays text).
 *
 * Made from `JSON.stringify(value, null, 2)` with one pass of a token pattern over its text, not by
 * walking the value: a list page of 1,000 objects has ~30,000 values, and the native printer plus
 * one regular expression is several times faster than building the text piece by piece.
 */
import { escapeHtml, trusted, type Html } from '../html.js';
import { localPath } from '../page-context.js';

const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };
const NEEDS_ESCAPE = /[&<>]/;
const URL_RE = /^https?:\/\/[^\s"<>\\]+$/;
// in printed JSON a token is a string (a key when a colon follows), a literal or a number, and what
// lies between is punctuation and white space; strings are matched first, so nothing inside one
// is taken for another token (plain alternatives without groups: the fastest pattern measured)
const TOKEN_RE = /"(?:[^"\\]|\\.)*"|true|false|null|-?\d[\d.eE+-]*/g;
const QUOTE = 34;
const COLON = 58;

/** Escapes element content (quotes need no escape there, and JSON has many). */
function escapeText(text: string): string {
  return NEEDS_ESCAPE.test(text) ? text.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!) : text;
}

function stringToken(quoted: string, baseUrl: string): string {
  const inner = quoted.slice(1, -1);
  // a URL has no escapes in its JSON form, so its text is the string itself
  if (!URL_RE.test(inner)) return `<span class="s">${escapeText(quoted)}</span>`;
  const local = baseUrl !== '' && inner.startsWith(`${baseUrl}/`);
  const href = escapeHtml(local ? localPath(inner, baseUrl) : inner);
  return `<span class="s">"<a href="${href}"${local ? '' : ' rel="noopener noreferrer nofollow"'}>${escapeText(inner)}</a>"</span>`;
}

/** `<pre class="json">` of a value; `baseUrl` is the scheme://host the API's links start with. */
export function jsonView(value: unknown, baseUrl: string): Html {
  const text = JSON.stringify(value, null, 2) ?? 'null';
  const body = text.replace(TOKEN_RE, (token: string, offset: number) => {
    if (token.charCodeAt(0) === QUOTE) {
      return text.charCodeAt(offset + token.length) === COLON
        ? `<span class="k">${escapeText(token)}</span>`
        : stringToken(token, baseUrl);
    }
    return token.charCodeAt(0) === 45 || (token.charCodeAt(0) >= 48 && token.charCodeAt(0) <= 57)
      ? `<span class="n">${token}</span>`
      : `<span class="l">${token}</span>`;
  });
  // focusable, so a keyboard can scroll a long line into view (it scrolls sideways on a narrow screen)
  return trusted(`<pre class="json" tabindex="0">${body}</pre>`);
}
