/**
 * The generated pages in a real browser (Debian's chromium through playwright-core), once with
 * JavaScript and once without: sign in, walk the menu to devices, filter, sort, choose columns and
 * page size (kept after a reload), create a site, a rack in it and a device in that rack (the rack
 * picker offers only the site's racks), see a duplicate name refused beside its field with nothing
 * written, edit, clone, read the changes on the Changelog tab, add a journal entry, delete with
 * confirmation; a user restricted to one site sees only it and no Edit button. axe-core checks each
 * page kind (WCAG 2.1 AA) in light and dark, at 1280 and 375 px; any CSP violation fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, makeDeviceType, makeRole, makeSite, makeUser, uniq } from '../factories/index.js';
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
  describe(`the model pages, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    const tag = uniq(js ? 'js' : 'nojs');
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
    });
    afterAll(async () => b?.close());

    it('signs in and walks the menu to the devices', async () => {
      await signInPage(page, origin, t.username, t.password);
      await page.locator('summary', { hasText: 'Devices' }).click();
      await page.locator('.menu-drop .drop a', { hasText: /^Devices$/ }).click();
      await page.waitForURL(`${origin}/dcim/devices/`);
      expect(await page.locator('h1').innerText()).toContain('Devices');
      await expectAccessible(b, 'list');
    });

    let siteId = 0;
    let otherSiteId = 0;
    it('creates a site and a rack in it through the forms', async () => {
      await page.goto(`${origin}/dcim/sites/add/`);
      await expectAccessible(b, 'add form');
      await page.locator('[name="name"]').fill(`${tag}-site`);
      await page.locator('[name="slug"]').fill(`${tag}-site`);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/dcim\/sites\/\d+\/\?saved=created$/);
      siteId = Number(/sites\/(\d+)\//.exec(page.url())![1]);
      expect(await page.locator('.flash').innerText()).toContain('Created');
      await expectAccessible(b, 'object');
      otherSiteId = Number((await makeSite(t, { name: `${tag}-other` })).id);
      await t.post('/api/dcim/racks/', { name: `${tag}-elsewhere`, site: otherSiteId });
      await page.goto(`${origin}/dcim/racks/add/?site=${siteId}`);
      await page.locator('[name="name"]').fill(`${tag}-rack`);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/dcim\/racks\/\d+\/\?saved=created$/);
      const racks = (await t.get(`/api/dcim/racks/?site_id=${siteId}`)).json();
      expect(racks.results.map((r: { name: string }) => r.name)).toEqual([`${tag}-rack`]);
    });

    it("adds a device in that rack, the rack picker offering only the chosen site's racks", async () => {
      const type = await makeDeviceType(t);
      const role = await makeRole(t);
      // with JavaScript the rack picker follows the site chosen; without, the form opens with the site
      await page.goto(js ? `${origin}/dcim/devices/add/` : `${origin}/dcim/devices/add/?site=${siteId}`);
      if (js) {
        await page.locator('select[name="site"]').selectOption(String(siteId));
        await expect
          .poll(() => page.locator('select[name="rack"] option').allInnerTexts())
          .toEqual(['---------', `${tag}-rack`]);
      } else {
        expect(await page.locator('select[name="rack"] option').allInnerTexts()).toEqual(['---------', `${tag}-rack`]);
      }
      await page.locator('[name="name"]').fill(`${tag}-dev`);
      await page.locator('select[name="device_type"]').selectOption(String(type.id));
      await page.locator('select[name="role"]').selectOption(String(role.id));
      await page.locator('select[name="rack"]').selectOption({ label: `${tag}-rack` });
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/dcim\/devices\/\d+\/\?saved=created$/);
      const dev = (await t.get(`/api/dcim/devices/?name=${tag}-dev`)).json().results[0];
      expect(dev.rack.name).toBe(`${tag}-rack`);
      expect(dev.site.id).toBe(siteId);
    });

    it('refuses a duplicate name beside its field, keeps the typed values and writes nothing', async () => {
      await page.goto(`${origin}/dcim/sites/add/`);
      await page.locator('[name="name"]').fill(`${tag}-site`);
      await page.locator('[name="slug"]').fill(`${tag}-copy`);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      const name = page.locator('[name="name"]');
      expect(await name.getAttribute('aria-invalid')).toBe('true');
      expect(await page.locator(`#${await name.getAttribute('aria-describedby')}`).innerText()).toMatch(
        /already exists/,
      );
      expect(await page.locator('[name="slug"]').inputValue()).toBe(`${tag}-copy`);
      expect((await t.get(`/api/dcim/sites/?slug=${tag}-copy`)).json().count).toBe(0);
      await expectAccessible(b, 'form with errors');
    });

    it('filters, sorts, chooses columns and page size, all kept after a reload', async () => {
      await page.goto(`${origin}/dcim/sites/?q=${tag}`);
      await page.getByRole('link', { name: 'Name', exact: true }).click();
      await page.waitForURL(/sort=name/);
      await page.getByRole('link', { name: '100', exact: true }).click();
      await page.waitForURL(/per_page=100/);
      await page.locator('summary', { hasText: 'Configure table' }).click();
      await page.getByRole('checkbox', { name: 'Facility' }).check();
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(/per_page=100/);
      await page.reload();
      const heads = await page.locator('table.objects thead th').allInnerTexts();
      expect(heads.map((h) => h.replace(/[▲▼]/g, '').trim())).toContain('Facility');
      expect(await page.locator('table.objects tbody tr td:nth-child(2)').allInnerTexts()).toEqual([
        `${tag}-other`,
        `${tag}-site`,
      ]);
      expect(page.url()).toContain(`q=${tag}`);
    });

    it('edits and clones the site, then reads the three changes on its Changelog tab', async () => {
      await page.goto(`${origin}/dcim/sites/${siteId}/`);
      await page.getByRole('link', { name: 'Edit', exact: true }).click();
      await page.locator('[name="facility"]').fill('Hall 9');
      await page.getByRole('button', { name: 'Save', exact: true }).click();
      await page.waitForURL(/saved=updated/);
      expect((await t.get(`/api/dcim/sites/${siteId}/`)).json().facility).toBe('Hall 9');
      await page.getByRole('link', { name: 'Clone', exact: true }).click();
      expect(await page.locator('[name="facility"]').inputValue()).toBe('Hall 9');
      await page
        .getByRole('link', { name: 'Cancel' })
        .click()
        .catch(() => undefined);
      await page.goto(`${origin}/dcim/sites/${siteId}/`);
      await page.getByRole('link', { name: 'Journal', exact: true }).click();
      await page.locator('[name="comments"]').fill(`checked by **${tag}**`);
      await page.getByRole('button', { name: 'Add entry' }).click();
      await page.waitForURL(/journal\/$/);
      expect(await page.locator('ol.journal').innerText()).toContain(`checked by ${tag}`);
      await expectAccessible(b, 'journal');
      await page.getByRole('link', { name: 'Changelog', exact: true }).click();
      expect(await page.locator('li.change').count()).toBe(2);
      expect(await page.locator('table.diff').first().innerText()).toContain('Hall 9');
      await expectAccessible(b, 'changelog');
    });

    it('deletes the device after confirming', async () => {
      const dev = (await t.get(`/api/dcim/devices/?name=${tag}-dev`)).json().results[0];
      await page.goto(`${origin}/dcim/devices/${dev.id}/`);
      await page.getByRole('link', { name: 'Delete', exact: true }).click();
      await expectAccessible(b, 'delete');
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.waitForURL(`${origin}/dcim/devices/`);
      expect((await t.get(`/api/dcim/devices/${dev.id}/`)).statusCode).toBe(404);
    });

    it('shows a user restricted to one site only that site, and no Edit button', async () => {
      const u = await makeUser(t);
      await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [u.id], constraints: { id: siteId } });
      await page.getByRole('button', { name: 'Sign out' }).click();
      await signInPage(page, origin, u.username, u.password);
      await page.goto(`${origin}/dcim/sites/?q=${tag}`);
      expect(await page.locator('table.objects tbody tr').count()).toBe(1);
      await page.goto(`${origin}/dcim/sites/${siteId}/`);
      expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
      const other = await page.goto(`${origin}/dcim/sites/${otherSiteId}/`);
      expect(other?.status()).toBe(404);
      expect(b.violations).toEqual([]);
    });
  });
}
