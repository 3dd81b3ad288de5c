/**
 * The bulk pages in a real browser (Debian's chromium through playwright-core), with JavaScript and
 * without: tick 30 of 120 interfaces and edit exactly those; "select all 120 matching" and disable
 * them all; rename GigabitEthernet to Gi after a preview; a bulk delete refused by one protected
 * site, then done without it. Outcomes are read back through the REST API; axe-core checks each
 * bulk page kind and any CSP violation fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, makeDevice, makeSite, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => t?.close());

async function deviceWithInterfaces(n: number): Promise<Json> {
  const device = await makeDevice(t);
  const res = await t.post(
    '/api/dcim/interfaces/',
    Array.from({ length: n }, (_, i) => ({ device: device.id, name: `GigabitEthernet0/${i + 1}`, type: '1000base-t' })),
  );
  expect(res.statusCode, res.body).toBe(201);
  return device;
}

const interfacesOf = async (device: Json): Promise<Json[]> =>
  (await t.get(`/api/dcim/interfaces/?device_id=${device.id}&limit=1000&ordering=id`)).json().results;

for (const js of [true, false]) {
  describe(`the bulk pages, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      await signInPage(page, origin, t.username, t.password);
    });
    afterAll(async () => b?.close());

    it('edits exactly the 30 ticked interfaces of 120', async () => {
      const device = await deviceWithInterfaces(120);
      await page.goto(`${origin}/dcim/interfaces/?device_id=${device.id}&sort=id&per_page=50`);
      const boxes = page.locator('form.bulk input[name="pk"]');
      expect(await boxes.count()).toBe(50);
      for (let i = 0; i < 30; i++) await boxes.nth(i).check();
      await page.getByRole('button', { name: 'Edit selected' }).click();
      await page.waitForSelector('h1:has-text("Editing 30 interfaces")');
      await expectAccessible(b, 'bulk edit');
      await page.getByLabel('Description').fill('uplinks');
      await page.getByRole('button', { name: 'Apply to 30' }).click();
      await page.waitForURL(/done=updated%3A30/);
      expect(await page.locator('.flash').innerText()).toContain('Updated 30 interfaces.');
      const all = await interfacesOf(device);
      expect(all.filter((i) => i.description === 'uplinks').map((i) => i.id)).toEqual(
        all.slice(0, 30).map((i) => i.id),
      );
      expect(b.violations).toEqual([]);
    });

    it('"select all 120 matching" disables every interface the filter matches, on every page', async () => {
      const device = await deviceWithInterfaces(120);
      await page.goto(`${origin}/dcim/interfaces/?device_id=${device.id}`);
      await page.getByLabel('Select all 120 matching').check();
      if (js) expect(await page.locator('form.bulk input[name="pk"]:checked').count()).toBe(50);
      await page.getByRole('button', { name: 'Edit selected' }).click();
      await page.waitForSelector('h1:has-text("Editing 120 interfaces")');
      await page.getByLabel('Enabled').selectOption('false');
      await page.getByRole('button', { name: 'Apply to 120' }).click();
      await page.waitForURL(/done=updated%3A120/);
      expect((await interfacesOf(device)).every((i) => i.enabled === false)).toBe(true);
      expect(b.violations).toEqual([]);
    });

    it('renames GigabitEthernet to Gi after a preview', async () => {
      const device = await deviceWithInterfaces(4);
      await page.goto(`${origin}/dcim/interfaces/?device_id=${device.id}`);
      await page.getByLabel('Select all 4 matching').check();
      await page.getByRole('button', { name: 'Rename selected' }).click();
      await page.waitForSelector('h1:has-text("Renaming 4 interfaces")');
      await page.getByLabel('Find').fill('GigabitEthernet');
      await page.getByLabel('Replace with').fill('Gi');
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.waitForSelector('caption:has-text("4 of 4 names change")');
      expect(await page.locator('table.rename-preview tbody tr').first().innerText()).toMatch(
        /GigabitEthernet0\/1\s+Gi0\/1/,
      );
      await expectAccessible(b, 'bulk rename preview');
      expect((await interfacesOf(device))[0]!.name).toBe('GigabitEthernet0/1');
      await page.getByRole('button', { name: 'Rename 4' }).click();
      await page.waitForURL(/done=renamed%3A4/);
      expect((await interfacesOf(device)).map((i) => i.name)).toEqual(['Gi0/1', 'Gi0/2', 'Gi0/3', 'Gi0/4']);
      expect(b.violations).toEqual([]);
    });

    it('adds Gi0/[1-4] to two devices after a preview, and clones a device with its components', async () => {
      const tag = uniq(js ? 'addjs' : 'addnojs');
      const d1 = await makeDevice(t, { name: `${tag}-a` });
      const d2 = await makeDevice(t, { name: `${tag}-b`, device_type: d1.device_type.id });
      await page.goto(`${origin}/dcim/devices/?q=${tag}&sort=name`);
      for (const box of await page.locator('form.bulk input[name="pk"]').all()) await box.check();
      await page.locator('details.add-components summary').click();
      await page.getByRole('button', { name: 'Interfaces', exact: true }).click();
      await page.waitForSelector('h1:has-text("Add interfaces to 2 devices")');
      await page.locator('#id_name').fill('Gi0/[1-4]');
      await page.locator('#id_type').selectOption('1000base-t');
      await page.getByRole('button', { name: 'Preview' }).click();
      await page.waitForSelector('caption:has-text("8 new interfaces")');
      await expectAccessible(b, 'add components preview');
      await page.getByRole('button', { name: 'Create 8' }).click();
      await page.waitForURL(/done=created%3A8/);
      for (const d of [d1, d2])
        expect((await interfacesOf(d)).map((i) => i.name)).toEqual(['Gi0/1', 'Gi0/2', 'Gi0/3', 'Gi0/4']);
      await page.goto(`${origin}/dcim/devices/${d1.id}/`);
      await page.getByRole('link', { name: 'Clone' }).click();
      await page.locator('[name="name"]').fill(`${tag}-c`);
      await page.getByLabel(/Also copy the components/).check();
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/dcim\/devices\/\d+\/\?saved=created$/);
      const copy = (await t.get(`/api/dcim/devices/?name=${tag}-c`)).json().results[0];
      expect((await interfacesOf(copy)).map((i) => i.name)).toEqual(['Gi0/1', 'Gi0/2', 'Gi0/3', 'Gi0/4']);
      expect(b.violations).toEqual([]);
    });

    it('refuses a bulk delete for one protected site, then deletes the others once it is left out', async () => {
      const tag = uniq(js ? 'bulkjs' : 'bulknojs');
      const sites = [];
      for (let i = 0; i < 3; i++) sites.push(await makeSite(t, { description: tag }));
      await makeDevice(t, { site: sites[1]!.id });
      await page.goto(`${origin}/dcim/sites/?description=${tag}&sort=id`);
      for (const box of await page.locator('form.bulk input[name="pk"]').all()) await box.check();
      await page.getByRole('button', { name: 'Delete selected' }).click();
      await page.waitForSelector('h1:has-text("Delete 3 sites?")');
      expect(await page.locator('.alert.warning').innerText()).toContain(sites[1]!.name);
      await expectAccessible(b, 'bulk delete');
      await page.getByLabel('Yes, delete 3 sites').check();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.waitForSelector('text=Nothing was deleted.');
      expect((await t.get(`/api/dcim/sites/?description=${tag}`)).json().count).toBe(3);
      await page.getByLabel(sites[1]!.name).uncheck();
      await page.getByLabel('Yes, delete 3 sites').check();
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      await page.waitForURL(/done=deleted%3A2/);
      const left = (await t.get(`/api/dcim/sites/?description=${tag}`)).json().results;
      expect(left.map((s: Json) => s.id)).toEqual([sites[1]!.id]);
      expect(b.violations).toEqual([]);
    });
  });
}
