/**
 * Hostile input on every model's pages: list URLs with junk in every place a person could type
 * (filters of the wrong kind, a huge page, an unknown sort, control characters), object URLs that
 * name nothing, add forms given junk initial values, form posts of junk in every field, and the bulk
 * pages given junk ids or "all matching" junk filters. Each
 * answer is a page with a clear status (200, 400, 403 or 404), never a 500, and a refused post
 * writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllModels } from '../../src/apps/index.js';
import { Registry } from '../../src/core/model/registry.js';
import { hasPages } from '../../src/web/model-pages/index.js';
import { listPath } from '../../src/web/navigation/menu.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();
const MODELS = registry.all().filter(hasPages);

const JUNK = ['', 'x', '-1', '99999999999999999999', '1.5', '%00', '<b>', "' or 1=1 --", '[]', '{}'];

let t: TestApp;
let admin: WebSession;
let csrf = '';
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
  csrf = (await admin.request('GET', '/dcim/sites/add/')).body.match(
    /name="csrfmiddlewaretoken" value="(\w{64})"/,
  )![1]!;
});
afterAll(async () => t.close());

function expectNoServerError(url: string, res: { statusCode: number; body: string }) {
  expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
  expect([200, 303, 400, 403, 404, 409], url).toContain(res.statusCode);
}

describe('junk on every model page', () => {
  for (const m of MODELS) {
    const base = listPath(m);
    it(`${m.name}: lists, objects, add forms and posts`, async () => {
      const keys = Object.keys(m.fields);
      const urls = [
        `${base}?page=99999999999&per_page=1000&sort=-nonsense`,
        `${base}?page=-3&per_page=abc&sort=`,
        `${base}?${keys.map((k, i) => `${k}=${encodeURIComponent(JUNK[i % JUNK.length]!)}`).join('&')}`,
        `${base}?${keys.map((k, i) => `${k}_id=${encodeURIComponent(JUNK[(i + 3) % JUNK.length]!)}`).join('&')}&q=%01%02`,
        `${base}0/`,
        `${base}99999999999999999999/`,
        `${base}2147483648/changelog/`,
      ];
      if (!m.readOnly)
        urls.push(`${base}add/?${keys.map((k, i) => `${k}=${encodeURIComponent(JUNK[i % JUNK.length]!)}`).join('&')}`);
      for (const url of urls) expectNoServerError(url, await admin.request('GET', url));
      if (m.readOnly) return;
      const before = (await t.get(`/api/${m.app}/${m.path}/?limit=1`)).json().count;
      const statuses = new Set<number>();
      for (let round = 0; round < 3; round++) {
        const form: Record<string, string> = { csrfmiddlewaretoken: csrf, _create: '1' };
        keys.forEach((k, i) => {
          form[k] = JUNK[(i + round * 4) % JUNK.length]!;
        });
        form.tags = 'x';
        form.cf_nothing = '1';
        const res = await admin.request('POST', `${base}add/`, { form });
        expectNoServerError(`POST ${base}add/ round ${round}`, res);
        statuses.add(res.statusCode);
        if (res.statusCode === 303) {
          // junk that is valid input after all (a free-text model): written once, through the write path
          const id = /\/(\d+)\/\?saved=created$/.exec(String(res.headers.location))?.[1];
          expect(id, String(res.headers.location)).toBeDefined();
          await t.del(`/api/${m.app}/${m.path}/${id}/`);
        }
      }
      // the posts reached the write path (a forged post would be a 403 for all of them)
      expect(
        [...statuses].some((s) => s === 400 || s === 303),
        [...statuses].join(),
      ).toBe(true);
      // the bulk pages: junk ids, and "all matching" under junk filters, applied
      const filters = keys.map((k, i) => `${k}=${encodeURIComponent(JUNK[(i + 5) % JUNK.length]!)}`).join('&');
      for (const kind of ['edit', 'delete', 'rename']) {
        for (const pk of JUNK) {
          const res = await admin.request('POST', `${base}${kind}/`, { form: { csrfmiddlewaretoken: csrf, pk } });
          expectNoServerError(`POST ${base}${kind}/ pk=${pk}`, res);
        }
        const form: Record<string, string> = {
          csrfmiddlewaretoken: csrf,
          _all: 'true',
          _count: 'abc',
          _apply: '1',
          _preview: '1',
          _confirm: '1',
          confirm: 'true',
          find: '(',
        };
        for (const [i, k] of keys.entries()) form[k] = JUNK[i % JUNK.length]!;
        for (const url of [`${base}${kind}/?${filters}`, `${base}${kind}/?id=0`]) {
          expectNoServerError(`POST ${url}`, await admin.request('POST', url, { form }));
          expectNoServerError(
            `POST ${url} (no count)`,
            await admin.request('POST', url, { form: { ...form, _count: '' } }),
          );
        }
      }
      expect((await t.get(`/api/${m.app}/${m.path}/?limit=1`)).json().count).toBe(before);
    });
  }
});
