/**
 * The rack pages in a real browser (Debian's chromium through playwright-core), with JavaScript on
 * and off: on a rack's page, follow an empty unit of the drawing to the add-device form, find it
 * pre-filled with the rack, unit and face, create the device and see it drawn where the unit was;
 * reach the elevations of many racks from the menu and filter them by site. axe-core checks both
 * pages (WCAG 2.1 AA, light and dark, wide and narrow); any CSP violation fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, makeDevice, makeDeviceType, makeRack, makeRole, makeSite, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';

let t: TestApp;
let origin: string;
let site: Json;
let rack: Json;
let otherRack: Json;
let type: Json;
let role: Json;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  site = await makeSite(t);
  rack = await makeRack(t, site, { u_height: 24 });
  otherRack = await makeRack(t, await makeSite(t), { u_height: 12 });
  type = await makeDeviceType(t, { u_height: 1 });
  role = await makeRole(t, { color: '2f6a31' });
  await makeDevice(t, {
    site: site.id,
    rack: rack.id,
    device_type: type.id,
    role: role.id,
    position: 1,
    face: 'front',
    name: uniq('core'),
  });
});
afterAll(async () => t?.close());

for (const js of [true, false]) {
  describe(`the rack pages, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    const unit = js ? 10 : 12;
    const name = uniq(js ? 'js-dev' : 'nojs-dev');
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      await signInPage(page, origin, t.username, t.password);
    });
    afterAll(async () => b?.close());

    it('shows both faces of a rack, accessible', async () => {
      await page.goto(`${origin}/dcim/racks/${rack.id}/`);
      await expect.poll(() => page.locator('svg.elevation').count()).toBe(2);
      expect(await page.locator('figure.elevation figcaption').allInnerTexts()).toEqual(['Front', 'Rear']);
      await expectAccessible(b, 'rack page');
      expect(b.violations).toEqual([]);
    });

    it('follows an empty unit to the add form pre-filled, creates the device there and sees it drawn', async () => {
      await page.goto(`${origin}/dcim/racks/${rack.id}/`);
      const front = page.locator(`svg[aria-label="Front of rack ${rack.name}"]`);
      await front.locator(`a[data-add-unit="${unit}"]`).click();
      await page.waitForURL(/\/dcim\/devices\/add\/\?/);
      expect(await page.locator('select[name="rack"]').inputValue()).toBe(String(rack.id));
      expect(await page.locator('select[name="site"]').inputValue()).toBe(String(site.id));
      expect(await page.locator('[name="position"]').inputValue()).toBe(String(unit));
      expect(await page.locator('select[name="face"]').inputValue()).toBe('front');
      await page.locator('[name="name"]').fill(name);
      await page.locator('select[name="device_type"]').selectOption(String(type.id));
      await page.locator('select[name="role"]').selectOption(String(role.id));
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(`${origin}/dcim/racks/${rack.id}/`);
      const made = (await t.get(`/api/dcim/devices/?name=${name}`)).json().results[0];
      expect(made).toMatchObject({ position: unit, face: { value: 'front' }, rack: { id: rack.id } });
      const drawn = front.locator(`a[data-device="${made.id}"]`);
      expect(await drawn.getAttribute('aria-label')).toBe(name);
      expect(await front.locator(`a[data-add-unit="${unit}"]`).count()).toBe(0);
      await drawn.click();
      await page.waitForURL(`${origin}/dcim/devices/${made.id}/`);
      expect(b.violations).toEqual([]);
    });

    it('reaches the elevations from the menu and filters them by site, accessible', async () => {
      await page.goto(`${origin}/`);
      await page.locator('summary', { hasText: 'Racks' }).click();
      await page.locator('.menu-drop .drop a', { hasText: /^Elevations$/ }).click();
      await page.waitForURL(`${origin}/dcim/rack-elevations/`);
      const labels = () =>
        page.locator('svg.elevation').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')));
      expect(await labels()).toEqual(
        expect.arrayContaining([`Front of rack ${rack.name}`, `Front of rack ${otherRack.name}`]),
      );
      await page.goto(`${origin}/dcim/rack-elevations/?site_id=${site.id}`);
      expect(await labels()).toEqual([`Front of rack ${rack.name}`]);
      await page.getByRole('link', { name: 'Rear', exact: true }).click();
      await page.waitForURL(/face=rear/);
      expect(await labels()).toEqual([`Rear of rack ${rack.name}`]);
      await expectAccessible(b, 'rack elevations');
      expect(b.violations).toEqual([]);
    });
  });
}
