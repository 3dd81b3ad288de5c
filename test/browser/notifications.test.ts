/**
 * Subscriptions and notifications in a real browser (Debian's chromium), with JavaScript on and
 * off: user B subscribes to a device with its page's button, the admin edits the device through
 * the REST API, the outbox worker writes B's notification, B's bell says so, B opens it (read, on
 * the device's page) and dismisses it; bookmarks likewise by the button. axe-core checks the
 * object page, the notifications and the bookmarks (WCAG 2.1 AA); a CSP violation fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../src/core/events/index.js';
import type { EventWorker } from '../../src/core/events/worker.js';
import { grant, type Json, makeDevice, makeUser, type TestUser, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';

let t: TestApp;
let origin: string;
let worker: EventWorker;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

for (const js of [true, false]) {
  describe(`subscribing and being notified, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    let user: TestUser;
    let device: Json;
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      user = await makeUser(t);
      await grant(t, { object_types: ['dcim.device'], actions: ['view'], users: [user.id] });
      device = await makeDevice(t, { name: uniq(js ? 'js' : 'nojs') });
      await signInPage(page, origin, user.username, user.password);
    });
    afterAll(async () => b?.close());

    const bell = () => page.getByRole('link', { name: /^Notifications, / });

    it('subscribes with the button and comes back to the device', async () => {
      await page.goto(`${origin}/dcim/devices/${device.id}/`);
      expect(await bell().getAttribute('aria-label')).toBe('Notifications, none unread');
      await page.getByRole('button', { name: 'Subscribe', exact: true }).click();
      await page.waitForURL(`${origin}/dcim/devices/${device.id}/`);
      await page.getByRole('button', { name: 'Unsubscribe' }).waitFor();
      await expectAccessible(b, 'object page with its buttons');
    });

    it("hears of the admin's API edit through the bell, opens it and dismisses it", async () => {
      const patched = await t.patch(`/api/dcim/devices/${device.id}/`, { serial: uniq('sn') });
      expect(patched.statusCode, patched.body).toBe(200);
      await worker.idle();
      await page.goto(`${origin}/`);
      expect(await bell().getAttribute('aria-label')).toBe('Notifications, 1 unread');
      await bell().click();
      await page.waitForURL(`${origin}/user/notifications/`);
      const row = page.locator('tbody tr', { hasText: String(device.name) });
      expect(await row.innerText()).toContain('Unread');
      expect(await row.innerText()).toContain('Object updated');
      await expectAccessible(b, 'notifications');
      await row.getByRole('link', { name: String(device.name) }).click();
      await page.waitForURL(`${origin}/dcim/devices/${device.id}/`);
      expect(await bell().getAttribute('aria-label')).toBe('Notifications, none unread');
      await page.goto(`${origin}/user/notifications/`);
      expect(await row.innerText()).not.toContain('Unread');
      await row.getByRole('button', { name: 'Dismiss' }).click();
      await page.waitForURL(`${origin}/user/notifications/`);
      await page.getByText('No notifications.').waitFor();
    });

    it('bookmarks with the button, and finds it in the user menu', async () => {
      await page.goto(`${origin}/dcim/devices/${device.id}/`);
      await page.getByRole('button', { name: 'Bookmark', exact: true }).click();
      await page.getByRole('button', { name: 'Remove bookmark' }).waitFor();
      await page.locator('.user-drop summary').click();
      await page.getByRole('link', { name: 'Bookmarks' }).click();
      await page.waitForURL(`${origin}/user/bookmarks/`);
      const row = page.locator('tbody tr', { hasText: String(device.name) });
      await expectAccessible(b, 'bookmarks');
      await row.getByRole('button', { name: 'Delete' }).click();
      await page.waitForURL(`${origin}/user/bookmarks/`);
      await page.getByText('No bookmarks yet.').waitFor();
      expect(b.violations).toEqual([]);
    });
  });
}
