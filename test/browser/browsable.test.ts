/**
 * The browsable API in a real browser (test/helpers/browser.ts), once with JavaScript and once
 * without: the in-process test app listens on 127.0.0.1 on a free port, on the suite's engine. The
 * flow a person follows: sign in, browse from / through /api/ to the sites, create a site with
 * the form, see a bad one refused, patch, delete, see a script-like name as text, sign out and be
 * refused. The forms post with `?_method=` (web/browsable/method-override.ts), so all of it works
 * without JavaScript; with it, the delete asks for confirmation first. axe-core checks the API
 * root, a list, an object and an error (WCAG 2.1 AA, light and dark, wide and narrow), and any CSP
 * violation fails. The tests are the steps of one session, in order (vitest runs a file's tests in
 * sequence): each starts where the one before left the browser.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser } from '../helpers/browser.js';
import { uniq } from '../factories/index.js';

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => t?.close());

for (const js of [true, false]) {
  describe(`the browsable API in chromium, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    /** dialogs the page opened other than our own delete confirmation: an injected alert() lands here */
    const strayDialogs: string[] = [];
    /** delete confirmations asked by web/assets/inventory.js (proof the page script runs under the CSP) */
    let confirmations = 0;
    // site names are unique: each run makes its own
    const XSS = `<script>alert(${js ? 1 : 2})</script>`;

    beforeAll(async () => {
      b = await openBrowser(js, async (dialog) => {
        if (dialog.type() === 'confirm' && dialog.message() === 'Delete this object?') {
          confirmations += 1;
          return dialog.accept();
        }
        strayDialogs.push(`${dialog.type()}: ${dialog.message()}`);
        return dialog.dismiss();
      });
      page = b.page;
    });
    afterAll(async () => b?.close());

    const fillContent = (json: unknown) =>
      page.locator('textarea[name="_content"]').fill(typeof json === 'string' ? json : JSON.stringify(json));

    it('signs in through the form and lands on the home page', async () => {
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: 'Sign in', exact: true }).click();
      await page.getByLabel('Username').fill(t.username);
      await page.getByLabel('Password').fill(t.password);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(`${origin}/`);
      expect(await page.locator('.user-menu').innerText()).toContain(t.username);
    });

    it('browses from / through /api/ to the sites by following links', async () => {
      await page.getByRole('link', { name: 'the REST API' }).click();
      await page.waitForURL(`${origin}/api/`);
      expect(await page.locator('h1').innerText()).toBe('API root');
      await page.getByRole('link', { name: `${origin}/api/dcim/` }).click();
      await page.waitForURL(`${origin}/api/dcim/`);
      await page.getByRole('link', { name: `${origin}/api/dcim/sites/` }).click();
      await page.waitForURL(`${origin}/api/dcim/sites/`);
      expect(await page.locator('h1').innerText()).toBe('Sites');
      expect(await page.locator('.response-head').innerText()).toContain('HTTP 200 OK');
      await expectAccessible(b, 'list');
      await page.goto(`${origin}/api/`);
      await expectAccessible(b, 'API root');
      await page.goto(`${origin}/api/dcim/sites/`);
    });

    let siteUrl = '';
    const name = uniq('browser-site');

    it('creates a site with the form and shows it', async () => {
      await fillContent({ name, slug: uniq('b') });
      await page.getByRole('button', { name: 'POST' }).click();
      await page.waitForURL(/\/api\/dcim\/sites\/\d+\/$/);
      siteUrl = page.url();
      expect(await page.locator('h1').innerText()).toBe(name);
      expect((await t.get(new URL(siteUrl).pathname)).json().name).toBe(name);
      await expectAccessible(b, 'object');
    });

    it('shows the validation error of a bad site and keeps the text', async () => {
      await page.goto(`${origin}/api/dcim/sites/`);
      const bad = JSON.stringify({ name: uniq('bad'), slug: 'no spaces allowed' });
      await fillContent(bad);
      const response = page.waitForResponse((r) => r.request().method() === 'POST');
      await page.getByRole('button', { name: 'POST' }).click();
      expect((await response).status()).toBe(400);
      const alert = page.getByRole('alert');
      expect(await alert.innerText()).toMatch(/slug:/);
      expect(await page.locator('textarea[name="_content"]').inputValue()).toBe(bad);
      await expectAccessible(b, 'error');
    });

    it('patches the site through the PATCH button', async () => {
      await page.goto(siteUrl);
      await fillContent({ description: 'patched in chromium' });
      await page.getByRole('button', { name: 'PATCH' }).click();
      await page.waitForURL(siteUrl);
      expect(await page.locator('pre.json').innerText()).toContain('"description": "patched in chromium"');
      expect((await t.get(new URL(siteUrl).pathname)).json().description).toBe('patched in chromium');
    });

    it('shows a site named like a script as text, and runs nothing', async () => {
      await page.goto(`${origin}/api/dcim/sites/`);
      await fillContent({ name: XSS, slug: uniq('xss') });
      await page.getByRole('button', { name: 'POST' }).click();
      await page.waitForURL(/\/api\/dcim\/sites\/\d+\/$/);
      expect(await page.locator('h1').innerText()).toBe(XSS);
      await page.goto(`${origin}/api/dcim/sites/?q=script`);
      expect(await page.locator('pre.json').innerText()).toContain(`"name": "${XSS}"`);
      expect(await page.locator('main script').count()).toBe(0);
      expect(strayDialogs).toEqual([]);
    });

    it('deletes the site (after the confirmation) and returns to the list', async () => {
      await page.goto(siteUrl);
      await page.getByRole('button', { name: 'DELETE' }).click();
      await page.waitForURL(`${origin}/api/dcim/sites/`);
      // the confirmation is the page script's: without JavaScript the form posts at once
      expect(confirmations).toBe(js ? 1 : 0);
      expect((await t.get(new URL(siteUrl).pathname)).statusCode).toBe(404);
    });

    it('signs out, and is refused the API afterwards', async () => {
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.waitForURL(/\/login\/$/);
      const res = await page.goto(`${origin}/api/dcim/sites/`);
      expect(res?.status()).toBe(403);
      expect(await page.getByRole('link', { name: 'Sign in', exact: true }).count()).toBeGreaterThan(0);
      expect(await page.locator('textarea[name="_content"]').count()).toBe(0);
      expect(strayDialogs).toEqual([]);
    });
  });
}
