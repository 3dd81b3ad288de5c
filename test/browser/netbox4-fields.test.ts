/**
 * A field NetBox 4 added, edited in a real browser (Debian's chromium through playwright-core),
 * with JavaScript and without: a prefix's scope, a generic reference (web/components/
 * generic-field.ts). With JavaScript the scope picker follows the type select over the REST API;
 * without, "Show choices" posts the form back for the new type's objects. The saved scope is checked
 * through the REST API in NetBox 4.4's dialect; axe-core (WCAG 2.1 AA, light and dark, wide and
 * narrow) on the edit form and the object page; any CSP violation fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeLocation, makeSite } from '../factories/index.js';
import { api44, make44 } from '../factories/netbox4.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => t?.close());

for (const js of [true, false]) {
  describe(`a prefix's scope, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      await signInPage(page, origin, t.username, t.password);
    });
    afterAll(async () => {
      expect(b.violations).toEqual([]);
      await b?.close();
    });

    it('moves the scope from a location to a site through the edit form', async () => {
      const loc = await makeLocation(t);
      const site = await makeSite(t);
      const prefix = await make44(t, '/api/ipam/prefixes/', {
        prefix: js ? '10.150.0.0/24' : '10.151.0.0/24',
        scope_type: 'dcim.location',
        scope_id: loc.id,
      });
      await page.goto(`${origin}/ipam/prefixes/${prefix.id}/edit/`);
      const scope = page.getByLabel('Scope', { exact: true });
      expect(await scope.inputValue()).toBe(String(loc.id));
      await expectAccessible(b, 'prefix edit form');
      await page.getByLabel('Scope type').selectOption('dcim.site');
      const showChoices = page.getByRole('button', { name: 'Show choices' });
      if (js) {
        // the picker asks the sites' REST list as the type changes; the button is not needed
        expect(await showChoices.isVisible()).toBe(false);
      } else {
        await showChoices.click();
        await page.waitForLoadState();
        expect(await page.getByLabel('Scope type').inputValue()).toBe('dcim.site');
      }
      await expect.poll(() => scope.locator(`option[value="${site.id}"]`).count()).toBe(1);
      await scope.selectOption(String(site.id));
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(new RegExp(`/ipam/prefixes/${prefix.id}/\\?saved=updated`));
      const after = (await api44(t).get(`/api/ipam/prefixes/${prefix.id}/`)).json();
      expect(after).toMatchObject({ scope_type: 'dcim.site', scope_id: site.id });
      expect(await page.getByRole('link', { name: String(site.name) }).count()).toBeGreaterThan(0);
      await expectAccessible(b, 'prefix page with a scope');
    });
  });
}
