/**
 * The list page's Export menu in a real browser (Debian's chromium), JavaScript on and off: the
 * `<details>` menu opens, "Current view" downloads the filtered, sorted table as CSV and "All
 * data" the import's columns; axe-core checks the page with the menu open; any CSP violation fails.
 */
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRegion, makeSite, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => t?.close());

/** clicks a link of the open Export menu; the downloaded file's name and text */
async function download(page: Page, label: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.locator('.export-menu a', { hasText: label }).click(),
  ]);
  return { name: file.suggestedFilename(), text: readFileSync((await file.path())!, 'utf8') };
}

for (const js of [true, false]) {
  describe(`the Export menu, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    beforeAll(async () => {
      b = await openBrowser(js);
      await signInPage(b.page, origin, t.username, t.password);
    });
    afterAll(async () => b?.close());

    it('downloads the current view and all data of the filtered, sorted list', async () => {
      const region = await makeRegion(t);
      const base = uniq('exp');
      for (const x of ['a', 'b', 'c']) await makeSite(t, { name: `${base}-${x}`, region: region.id });
      const page = b.page;
      await page.goto(`${origin}/dcim/sites/?region_id=${region.id}&sort=-name`);
      await page.locator('.export-menu summary').click();
      await expect.poll(() => page.locator('.export-menu a', { hasText: 'Current view' }).isVisible()).toBe(true);
      await expectAccessible(b, 'list with the export menu open');
      const view = await download(page, 'Current view');
      expect(view.name).toBe('netbox_sites.csv');
      expect(view.text.split('\r\n').map((l) => l.split(',')[0])).toEqual([
        'Name',
        `${base}-c`,
        `${base}-b`,
        `${base}-a`,
        '',
      ]);
      const all = await download(page, 'All data');
      expect(all.text.split('\r\n')[0]!.split(',').slice(0, 3)).toEqual(['id', 'name', 'slug']);
      expect(all.text.split('\r\n')).toHaveLength(5);
      expect(b.violations).toEqual([]);
    });
  });
}
