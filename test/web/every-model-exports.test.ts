/**
 * Every registered model with pages exports its list: the current view (`?export=table`) and all
 * data (`?export`) answer 200 with CSV (or device-type library YAML) holding the object made for
 * it from the contract table's data. A model whose declaration breaks an export is found here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listPath } from '../../src/web/navigation/menu.js';
import { createOne, defOf } from '../contract/harness.js';
import { CONTRACT } from '../contract/models.js';
import { inDialect44 } from '../factories/netbox4.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { parseCsv } from '../helpers/csv.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const get = (b: WebSession, url: string) => b.request('GET', url);

describe('every model with pages exports', () => {
  for (const c of CONTRACT) {
    // where the model's pages are (the change log's moved to /core/changelog/)
    const uiPath = listPath(defOf(c));
    if (['/extras/content-types/', '/core/data-files/', '/dcim/cable-terminations/'].includes(uiPath)) continue;
    it(`${c.model}: ${uiPath}?export=table and ?export`, async () => {
      const api = c.dialect ? inDialect44(t) : t;
      if (c.readOnly || !c.create) await c.seed?.({ t: api });
      else await createOne(api, c);
      for (const kind of ['export=table', 'export']) {
        const res = await get(admin, `${uiPath}?${kind}`);
        expect(res.statusCode, `${uiPath}?${kind}: ${res.body.slice(0, 300)}`).toBe(200);
        expect(res.headers['content-type']).toMatch(/^(text\/csv|application\/yaml); charset=utf-8$/);
        if (String(res.headers['content-type']).startsWith('text/csv'))
          expect(parseCsv(res.body).length).toBeGreaterThan(1);
      }
    });
  }
});
