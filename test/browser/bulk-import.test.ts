/**
 * The import page in a real browser (Debian's chromium through playwright-core), with JavaScript
 * on and off: from the list's Import button, paste a CSV of devices with a bad site, run a dry run
 * and see the failing row named with nothing written; fix it, dry run again, import, and land on
 * the list of what was imported with its notice; also a file chosen in the file input, updates by
 * id from JSON, and a device-type library YAML whose type's devices get its components. axe-core
 * checks the import page and the preview (WCAG 2.1 AA); any CSP violation fails the test.
 * Outcomes are read through the REST API.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { makeDevice, makeDeviceType, makeManufacturer, makeRole, makeSite, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';
import { switchDoc } from '../helpers/type-library.js';

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => t?.close());

const devicesNamed = async (prefix: string) =>
  ((await t.get(`/api/dcim/devices/?name__isw=${prefix}`)).json().results as Array<{ name: string }>)
    .map((d) => d.name)
    .sort();

for (const js of [true, false]) {
  describe(`the import page, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    const prefix = uniq(js ? 'bjs' : 'bnojs');
    let csv = (_bad: boolean) => '';
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      const site = await makeSite(t);
      const type = await makeDeviceType(t);
      const role = await makeRole(t);
      csv = (bad) =>
        [
          'name,site,device_type,role',
          ...[1, 2, 3].map(
            (i) => `${prefix}-${i},${bad && i === 2 ? 'nowhere' : site.name},${type.model},${role.name}`,
          ),
        ].join('\n');
      await signInPage(page, origin, t.username, t.password);
    });
    afterAll(async () => b?.close());

    it('dry run of bad data names the row and writes nothing', async () => {
      await page.goto(`${origin}/dcim/devices/`);
      await page.getByRole('link', { name: 'Import', exact: true }).click();
      await page.waitForURL(`${origin}/dcim/devices/import/`);
      await expectAccessible(b, 'import page');
      await page.getByLabel('Data', { exact: true }).fill(csv(true));
      await page.getByRole('button', { name: 'Dry run' }).click();
      await page.waitForSelector('#import-preview');
      const rows = page.locator('section[aria-labelledby="import-preview"] tbody tr');
      expect(await rows.count()).toBe(3);
      expect(await rows.nth(1).innerText()).toMatch(/^2\s+fail\s+site: No site with name "nowhere"/);
      expect(await page.getByRole('status').first().innerText()).toContain('1 of 3 rows fail; nothing was written.');
      // the pasted data is kept in the form
      expect(await page.getByLabel('Data', { exact: true }).inputValue()).toBe(csv(true));
      await expectAccessible(b, 'import preview');
      expect(await devicesNamed(prefix)).toEqual([]);
    });

    it('fixed: a dry run, then the import lands on the list of what was imported', async () => {
      await page.getByLabel('Data', { exact: true }).fill(csv(false));
      await page.getByRole('button', { name: 'Dry run' }).click();
      await page.waitForSelector('#import-preview');
      expect(await page.getByRole('status').first().innerText()).toContain(
        'Dry run: 3 would be created and 0 updated; nothing was written.',
      );
      expect(await devicesNamed(prefix)).toEqual([]);
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.waitForURL(/\/dcim\/devices\/\?id=\d+&id=\d+&id=\d+&imported=3%2C0$/);
      expect(await page.locator('.flash').innerText()).toContain('Imported: 3 created, 0 updated.');
      expect(await devicesNamed(prefix)).toEqual([1, 2, 3].map((i) => `${prefix}-${i}`));
      expect(b.violations).toEqual([]);
    });

    it('imports a chosen file', async () => {
      const name = uniq(js ? 'fjs' : 'fnojs');
      await page.goto(`${origin}/dcim/sites/import/`);
      await page.getByLabel('Or a file').setInputFiles({
        name: 'sites.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from(`name,slug,status\n${name},${name},planned\n`),
      });
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.waitForURL(/\/dcim\/sites\/\?id=\d+&imported=1%2C0$/);
      const site = (await t.get(`/api/dcim/sites/?name=${name}`)).json().results[0];
      expect(site.status.value).toBe('planned');
      expect(b.violations).toEqual([]);
    });

    it('updates devices by id from JSON', async () => {
      const device = await makeDevice(t);
      await page.goto(`${origin}/dcim/devices/import/`);
      const serial = uniq('SN');
      await page.getByLabel('Data', { exact: true }).fill(JSON.stringify([{ id: device.id, serial }]));
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.waitForURL(new RegExp(`/dcim/devices/\\?id=${device.id}&imported=0%2C1$`));
      expect((await t.get(`/api/dcim/devices/${device.id}/`)).json().serial).toBe(serial);
    });

    it('imports a device-type library YAML with 48 interfaces, and a device of that type gets them', async () => {
      const doc = switchDoc((await makeManufacturer(t)).name);
      await page.goto(`${origin}/dcim/device-types/import/`);
      await page.getByLabel('Data', { exact: true }).fill(YAML.stringify(doc));
      await page.getByRole('button', { name: 'Dry run' }).click();
      await page.waitForSelector('#import-preview');
      const types = async () => (await t.get(`/api/dcim/device-types/?model=${encodeURIComponent(doc.model)}`)).json();
      expect((await types()).count).toBe(0);
      await page.getByRole('button', { name: 'Import', exact: true }).click();
      await page.waitForURL(/\/dcim\/device-types\/\?id=\d+&imported=1%2C0$/);
      const type = (await types()).results[0];
      const device = await makeDevice(t, { device_type: type.id });
      const count = async (path: string) => (await t.get(`/api/dcim/${path}/?device_id=${device.id}`)).json().count;
      expect([await count('interfaces'), await count('power-ports'), await count('console-ports')]).toEqual([48, 2, 1]);
      expect(b.violations).toEqual([]);
    });
  });
}
