/**
 * Accounts in a real browser (Debian's chromium through playwright-core), with JavaScript on and
 * off: an administrator makes a group, a user in it and a permission "view the devices of site
 * DC1" through the forms; that user signs in and sees only those devices; chooses the dark theme
 * and finds it again from a new browser; changes their password, which signs out their other
 * browser. axe-core checks the user and permission forms, the preferences and the password pages.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { make, makeDevice, makeSite, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => t?.close());

const PASSWORD = 'Correct-Horse-42';
const NEW_PASSWORD = 'Battery-Staple-77';

for (const js of [true, false]) {
  describe(`accounts, JavaScript ${js ? 'on' : 'off'}`, () => {
    const tag = uniq(js ? 'js' : 'nojs');
    const username = `${tag}-b`;
    let admin: Browser;
    let page: Page;
    let b: Browser;
    beforeAll(async () => {
      const dc1 = await makeSite(t, { name: `${tag}-dc1`, slug: `${tag}-dc1` });
      await makeDevice(t, { name: `${tag}-in`, site: dc1.id });
      await makeDevice(t, { name: `${tag}-out` });
      admin = await openBrowser(js);
      page = admin.page;
      await signInPage(page, origin, t.username, t.password);
    });
    afterAll(async () => {
      await admin?.close();
      await b?.close();
    });

    it('an administrator makes a group, a user in it and a permission for one site', async () => {
      await page.goto(`${origin}/users/groups/add/`);
      await page.getByLabel('Name').fill(`${tag}-ops`);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/users\/groups\/\d+\/\?saved=created$/);
      const groupId = /\/users\/groups\/(\d+)\//.exec(page.url())![1]!;

      await page.goto(`${origin}/users/users/add/`);
      await expectAccessible(admin, 'user form');
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.locator('select[name="groups"]').selectOption(groupId);
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/users\/users\/\d+\/\?saved=created$/);

      await page.goto(`${origin}/users/permissions/add/`);
      await expectAccessible(admin, 'permission form');
      await page.getByLabel('Name').fill(`${tag}-view-dc1`);
      await page.locator('select[name="object_types"]').selectOption('dcim.device');
      await page.locator('select[name="actions"]').selectOption('view');
      await page.locator('select[name="groups"]').selectOption(groupId);
      // first a constraint no device has a field for: the form says so
      await page.getByLabel('Constraints').fill('{"slug": "x"}');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      expect(await page.locator('.field-error').allInnerTexts()).toEqual([
        expect.stringContaining('cannot filter devices'),
      ]);
      await page.getByLabel('Constraints').fill(JSON.stringify({ site__slug: `${tag}-dc1` }));
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(/\/users\/permissions\/\d+\/\?saved=created$/);
    });

    it('the user sees only the devices of that site', async () => {
      b = await openBrowser(js);
      await signInPage(b.page, origin, username, PASSWORD);
      await b.page.goto(`${origin}/dcim/devices/?q=${tag}`);
      const names = await b.page.locator('table.objects tbody tr').allInnerTexts();
      expect(names.join('\n')).toContain(`${tag}-in`);
      expect(names.join('\n')).not.toContain(`${tag}-out`);
    });

    it('chooses the dark theme, and finds it again from a new browser', async () => {
      await b.page.goto(`${origin}/user/profile/`);
      await expectAccessible(b, 'profile');
      // a list's chosen columns (as the list's Configure table keeps them), which the preferences reset
      const user = (await t.get(`/api/users/users/?username=${username}`)).json().results[0];
      const token = await make(t, '/api/users/tokens/', { user: user.id });
      await t.app.inject({
        method: 'PATCH',
        url: '/api/users/config/',
        headers: { authorization: `Token ${token.key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ tables: { DeviceTable: { columns: ['name', 'status'] } } }),
      });
      await b.page.goto(`${origin}/user/preferences/`);
      expect(await b.page.getByLabel('Reset devices').count()).toBe(1);
      await expectAccessible(b, 'preferences');
      await b.page.getByLabel('Colour mode').selectOption('dark');
      await b.page.getByLabel('Time zone for the times shown').selectOption('Europe/Paris');
      await b.page.getByRole('button', { name: 'Save' }).click();
      await b.page.waitForURL(`${origin}/user/preferences/?saved=1`);
      expect(await b.page.locator('html').getAttribute('data-theme')).toBe('dark');
      const fresh = await openBrowser(js);
      try {
        await signInPage(fresh.page, origin, username, PASSWORD);
        expect(await fresh.page.locator('html').getAttribute('data-theme')).toBe('dark');
        await fresh.page.goto(`${origin}/user/preferences/`);
        expect(await fresh.page.getByLabel('Time zone for the times shown').inputValue()).toBe('Europe/Paris');
      } finally {
        await fresh.close();
      }
    });

    it('changes the password, and the other browser is signed out', async () => {
      const other = await openBrowser(js);
      try {
        await signInPage(other.page, origin, username, PASSWORD);
        await b.page.goto(`${origin}/user/password/`);
        await expectAccessible(b, 'password page');
        await b.page.getByLabel('Current password').fill(PASSWORD);
        await b.page.locator('#id_new_password1').fill('too-short');
        await b.page.locator('#id_new_password2').fill('too-short');
        await b.page.getByRole('button', { name: 'Change password' }).click();
        expect(await b.page.locator('.field-error').first().innerText()).toContain('at least 12 characters');
        await b.page.getByLabel('Current password').fill(PASSWORD);
        await b.page.locator('#id_new_password1').fill(NEW_PASSWORD);
        await b.page.locator('#id_new_password2').fill(NEW_PASSWORD);
        await b.page.getByRole('button', { name: 'Change password' }).click();
        await b.page.waitForURL(`${origin}/user/password/?done=1`);
        expect(await b.page.getByRole('status').innerText()).toContain('Your password is changed');
        // this browser stays signed in; the other one is sent to sign in
        await b.page.goto(`${origin}/user/profile/`);
        expect(b.page.url()).toBe(`${origin}/user/profile/`);
        await other.page.goto(`${origin}/user/profile/`);
        expect(other.page.url()).toContain('/login/');
      } finally {
        await other.close();
      }
      expect(admin.violations).toEqual([]);
      expect(b.violations).toEqual([]);
    });
  });
}
