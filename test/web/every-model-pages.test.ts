/**
 * Every registered model with pages, walked as a superuser: its list, one object's page (made from
 * the contract table's data for the model), its edit, delete and add pages, its changelog and
 * journal tabs answer 200, and a value
 * written with markup (a description, or a name) shows as text everywhere. A model added to the
 * registry gets these pages with no page code; this test finds the one whose declaration breaks them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOne, defOf } from '../contract/harness.js';
import { CONTRACT } from '../contract/models.js';
import { inDialect44 } from '../factories/netbox4.js';
import { listPath } from '../../src/web/navigation/menu.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

const PROBE = '<i data-probe>x</i>';
/** the layout's only script element */
const OWN_SCRIPT = /<script src="\/static\/inventory\.js\?v=[0-9a-f]+" defer><\/script>/g;

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

/** 200, HTML, and no markup of ours but the layout's own script */
async function expectPage(url: string) {
  const res = await admin.request('GET', url);
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
  expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  expect(res.body.replace(OWN_SCRIPT, ''), url).not.toMatch(/<script|\sstyle=|<i data-probe>/);
  return res.body;
}

describe('the pages of every model', () => {
  for (const c of CONTRACT) {
    // the REST path without /api, unless the model's hints moved its pages (the change log's /core/changelog/)
    const uiPath = listPath(defOf(c));
    if (['/extras/content-types/', '/core/data-files/', '/dcim/cable-terminations/'].includes(uiPath)) continue;
    it(`${c.model}: ${uiPath}`, async () => {
      // a model only NetBox 4.4 serves is made and read through the API in that dialect
      const api = c.dialect ? inDialect44(t) : t;
      if (c.readOnly || !c.create) {
        await c.seed?.({ t: api });
        await expectPage(uiPath);
        const first = (await api.get(`${c.path}?limit=1`)).json().results[0];
        if (first) await expectPage(`${uiPath}${first.id}/`);
        return;
      }
      const obj = await createOne(api, c);
      // markup in a free-text field must come back as text
      const text = await api.patch(`${c.path}${obj.id}/`, { description: PROBE });
      const probed = text.statusCode === 200 && text.json().description === PROBE;
      const list = await expectPage(uiPath);
      const one = await expectPage(`${uiPath}${obj.id}/`);
      if (probed) {
        expect(one).toContain('&lt;i data-probe&gt;x&lt;/i&gt;');
        expect(list.includes(String(obj.display ?? '')) || list.includes('<table class="objects">')).toBe(true);
      }
      const edit = await expectPage(`${uiPath}${obj.id}/edit/`);
      if (probed) expect(edit).toContain('&lt;i data-probe&gt;x&lt;/i&gt;');
      await expectPage(`${uiPath}${obj.id}/delete/`);
      await expectPage(`${uiPath}add/`);
      if (defOf(c).changelog) {
        await expectPage(`${uiPath}${obj.id}/changelog/`);
        await expectPage(`${uiPath}${obj.id}/journal/`);
      }
    });
  }
});
