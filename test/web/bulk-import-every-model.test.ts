/**
 * Every writable model's import page, generated from its declaration with no page code: the page
 * answers 200 with its columns, the contract table's create data (test/contract/) imported as JSON
 * is a dry run of one "create" that writes nothing, then an import that writes it; an unknown
 * column is a 400 naming it, never a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countOf, dataFor } from '../contract/harness.js';
import { CONTRACT } from '../contract/models.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
let token = '';
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
  token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(
    (await admin.request('GET', '/dcim/sites/import/')).body,
  )![1]!;
});
afterAll(async () => t.close());

async function postImport(url: string, fields: Record<string, string>) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { accept: 'text/html', 'content-type': 'application/x-www-form-urlencoded', cookie: admin.cookieHeader() },
    payload: new URLSearchParams({ csrfmiddlewaretoken: token, ...fields }).toString(),
  });
}

/** the preview's outcome cells */
const outcomes = (page: string) =>
  [...page.matchAll(/<tr><td>\d+<\/td><td>(.*?)<\/td><td>(.*?)<\/td><\/tr>/gs)].map((m) =>
    `${m[1]!.replace(/<[^>]+>/g, '')} ${m[2]!.replace(/<[^>]+>/g, '')}`.trim(),
  );

describe('the import page of every writable model', () => {
  for (const c of CONTRACT) {
    const uiPath = c.path.replace(/^\/api/, '');
    if (c.readOnly || !c.create || c.dialect) continue;
    if (['/extras/content-types/', '/core/data-files/', '/dcim/cable-terminations/'].includes(uiPath)) continue;
    it(`${c.model}: ${uiPath}import/`, async () => {
      const page = await admin.request('GET', `${uiPath}import/`);
      expect(page.statusCode, page.body.slice(0, 300)).toBe(200);
      expect(page.body).toContain('<code>id</code>');
      const [body] = await dataFor(t, c);
      const before = await countOf(t, c);
      const dry = await postImport(`${uiPath}import/`, { data: JSON.stringify([body]), _preview: '1' });
      expect(
        dry.statusCode,
        `${JSON.stringify(body)}: ${outcomes(dry.body).join(' | ') || dry.body.slice(0, 2000)}`,
      ).toBe(200);
      expect(outcomes(dry.body)).toEqual(['create']);
      expect(await countOf(t, c)).toBe(before);
      const done = await postImport(`${uiPath}import/`, { data: JSON.stringify([body]), _apply: '1' });
      expect(done.statusCode, outcomes(done.body).join(' | ') || done.body.slice(0, 2000)).toBe(303);
      expect(await countOf(t, c)).toBe(before + 1);
      const junk = await postImport(`${uiPath}import/`, { data: 'no_such_column\nx', _apply: '1' });
      expect(junk.statusCode).toBe(400);
      expect(junk.body).toContain('Unknown column: no_such_column.');
    });
  }
});
