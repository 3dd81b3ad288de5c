/**
 * The response body as Django REST framework's browsable API shows it: pretty-printed JSON (two
 * spaces, as `JSON.stringify(v, null, 2)` would print it), escaped, with every URL string a link.
 * Links to this service become local paths (web/page-context.ts localPath), so they work under
 * whatever name the browser used; other http(s) URLs link out; nothing else is ever an href (a
 * `javascript:` string stays text). Element content escapes `& < >`, the href attribute quotes too.
 *
 * Built as one string, escaping every piece of data, not with the html`` template per
 * value: a list page of 1,000 objects has ~100,000 values.
 */
import { escapeHtml, trusted, type Html } from '../html.js';
import { localPath } from '../page-context.js';

const URL_RE = /^https?:\/\/[^\s"<>]+$/;
const TEXT_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/** Escapes element content (quotes need no escape there, and JSON has many). */
function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (c) => TEXT_ESCAPES[c]!);
}

function stringToken(s: string, baseUrl: string): string {
  const text = escapeText(JSON.stringify(s));
  if (!URL_RE.test(s)) return `<span class="s">${text}</span>`;
  const local = s.startsWith(`${baseUrl}/`);
  const href = escapeHtml(local ? localPath(s, baseUrl) : s);
  return `<span class="s">"<a href="${href}"${local ? '' : ' rel="noopener noreferrer nofollow"'}>${escapeText(JSON.stringify(s).slice(1, -1))}</a>"</span>`;
}

function write(value: unknown, indent: string, baseUrl: string, out: string[]): void {
  if (value === null || value === undefined) {
    out.push('<span class="l">null</span>');
  } else if (typeof value === 'string') {
    out.push(stringToken(value, baseUrl));
  } else if (typeof value === 'number' || typeof value === 'bigint') {
    out.push(`<span class="n">${escapeText(String(value))}</span>`);
  } else if (typeof value === 'boolean') {
    out.push(`<span class="l">${value}</span>`);
  } else if (Array.isArray(value)) {
    if (!value.length) return void out.push('[]');
    const inner = `${indent}  `;
    out.push('[\n');
    value.forEach((v, i) => {
      out.push(inner);
      write(v, inner, baseUrl, out);
      out.push(i < value.length - 1 ? ',\n' : '\n');
    });
    out.push(`${indent}]`);
  } else if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (!entries.length) return void out.push('{}');
    const inner = `${indent}  `;
    out.push('{\n');
    entries.forEach(([k, v], i) => {
      out.push(`${inner}<span class="k">${escapeText(JSON.stringify(k))}</span>: `);
      write(v, inner, baseUrl, out);
      out.push(i < entries.length - 1 ? ',\n' : '\n');
    });
    out.push(`${indent}}`);
  } else {
    out.push(escapeText(String(value)));
  }
}

/** `<pre class="json">` of a value; `baseUrl` is the scheme://host the API's links start with. */
export function jsonView(value: unknown, baseUrl: string): Html {
  const out: string[] = ['<pre class="json">'];
  write(value, '', baseUrl, out);
  out.push('</pre>');
  return trusted(out.join(''));
}
