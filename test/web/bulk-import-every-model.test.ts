/**
 * Every writable model's import page, generated from its declaration with no page code: the page
 * answers 200 with its columns, the contract table's create data (test/contract/) imported as JSON
 * is a dry run of one "create" that writes nothing, then an import that writes it; an unknown
 * column is a 400 naming it. Junk in every column of every writable model (CSV and JSON) is a page
 * with its rows failed, never a 500.
 */

const registry = new Registry();
registerAllModels(registry);
registry.freeze();
const WRITABLE = registry.all().filter((m) => hasPages(m) && !m.readOnly);
const JUNK: unknown[] = ['x', '-1', '99999999999999999999', '1.5', '<b>', "' or 1=1 --", '{}', '[]', '%00'];
const JSON_JUNK: unknown[] = [{}, [], [{}], null, true, -1, 1.5, 'x', [null], { id: 'x' }];
const csvCell = (v: string) => `"${v.replace(/"/g, '""')}"`;
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllModels } from '../../src/apps/index.js';
import { Registry } from '../../src/core/model/registry.js';
import { importColumns } from '../../src/web/import/import-columns.js';
import { hasPages } from '../../src/web/model-pages/index.js';
import { listPath } from '../../src/web/navigation/menu.js';
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

describe('junk in every column of every writable model: never a 500', () => {
  for (const model of WRITABLE) {
    const url = `${listPath(model)}import/`;
    it(`${model.name}: ${url}`, async () => {
      const names = [...importColumns(registry, model, []).keys()].filter((n) => n !== 'id');
      const csv = [names.join(','), ...JUNK.map((j) => names.map(() => csvCell(String(j))).join(','))].join('\n');
      const res = await postImport(url, { data: csv, format: 'csv', _preview: '1' });
      // the import page with its preview: not an error answer of the API's (a database error is a 400 too)
      const isPage = (r: { headers: Record<string, unknown>; body: string }) =>
        String(r.headers['content-type']).startsWith('text/html') && r.body.includes('<h1>Import ');
      expect([200, 400], `${url} CSV: ${res.body.slice(0, 500)}`).toContain(res.statusCode);
      expect(isPage(res), `${url} CSV: ${res.body.slice(0, 500)}`).toBe(true);
      const json = JSON.stringify(JSON_JUNK.map((j) => Object.fromEntries(names.map((n) => [n, j]))));
      const res2 = await postImport(url, { data: json, format: 'json', _apply: '1' });
      expect([200, 400], `${url} JSON: ${res2.body.slice(0, 500)}`).toContain(res2.statusCode);
      expect(isPage(res2), `${url} JSON: ${res2.body.slice(0, 500)}`).toBe(true);
      const ids = await postImport(url, { data: 'id\n-1\nx\n99999999999999999999\n1.5', _apply: '1' });
      expect(ids.statusCode, `${url} ids`).toBe(400);
      expect(isPage(ids), `${url} ids: ${ids.body.slice(0, 500)}`).toBe(true);
    });
  }
});
