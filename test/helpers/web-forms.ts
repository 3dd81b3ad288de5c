/**
 * Posting a page's form as a browser does, through app.inject(): the page's CSRF token, repeated
 * names, and the values a browser would send from a form on a page.
 */
import type { TestApp } from './app.js';
import type { WebSession } from './web-session.js';

/** the masked token of the page's hidden CSRF input */
export function tokenOf(page: string): string {
  const m = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page);
  if (!m) throw new Error('no CSRF field on the page');
  return m[1]!;
}

/** posts a form as a browser does (repeated names allowed), with the token of `formUrl`'s page */
export async function postForm(
  t: TestApp,
  b: WebSession,
  url: string,
  pairs: Array<[string, string]>,
  opts: { formUrl?: string; token?: string | null } = {},
) {
  let token = opts.token;
  if (token === undefined) token = tokenOf((await b.request('GET', opts.formUrl ?? url)).body);
  const body = new URLSearchParams(token === null ? pairs : [['csrfmiddlewaretoken', token], ...pairs]);
  const res = await t.app.inject({
    method: 'POST',
    url,
    headers: {
      accept: 'text/html',
      'content-type': 'application/x-www-form-urlencoded',
      cookie: b.cookieHeader(),
    },
    payload: body.toString(),
  });
  return res;
}

/** the values a browser would post from the page's form (`action` given): inputs, checked boxes, selected options */
export function formValues(page: string, action: string): Array<[string, string]> {
  const start = page.indexOf(`action="${action}"`);
  const form = page.slice(start, page.indexOf('</form>', start));
  const out: Array<[string, string]> = [];
  const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
  const unentity = (v: string) =>
    v
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  for (const m of form.matchAll(/<input[^>]*>/g)) {
    const tag = m[0];
    const name = attr(tag, 'name');
    const type = attr(tag, 'type');
    if (!name || name === 'csrfmiddlewaretoken' || type === 'search') continue;
    if (type === 'checkbox' && !/\schecked/.test(tag)) continue;
    out.push([name, unentity(attr(tag, 'value') ?? '')]);
  }
  for (const m of form.matchAll(/<textarea[^>]*name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g))
    out.push([m[1]!, unentity(m[2]!)]);
  for (const m of form.matchAll(/<select[^>]*name="([^"]+)"[^>]*>(.*?)<\/select>/gs)) {
    const chosen = [...m[2]!.matchAll(/<option value="([^"]*)" selected>/g)].map((o) => unentity(o[1]!));
    if (!/\smultiple/.test(m[0].slice(0, m[0].indexOf('>'))) && !chosen.length) chosen.push('');
    for (const v of chosen) out.push([m[1]!, v]);
  }
  return out;
}
