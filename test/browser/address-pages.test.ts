/**
 * The address-space pages in a real browser (Debian's chromium through playwright-core), with
 * JavaScript and without: on a prefix, follow an available row of its IP addresses tab to the add
 * form, create the address and come back to the tab, now with the address where the free run
 * began; ask for the next free /28 through the child prefixes tab's form; axe-core (WCAG 2.1 AA,
 * light and dark, wide and narrow) on the prefix's page with its meter, its three tabs and a VLAN
 * group's VLANs tab; any CSP violation fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { make, makeIpAddress, makePrefix, makeVlan, makeVlanGroup, makeVrf } from '../factories/index.js';
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
  describe(`the address-space pages, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    // each run its own network and VRF
    const net = js ? '10.20' : '10.21';
    let vrf: Record<string, unknown>;
    let prefixId = 0;
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      vrf = await makeVrf(t);
      prefixId = Number((await makePrefix(t, `${net}.0.0/24`, { vrf: vrf.id })).id);
      await makePrefix(t, `${net}.0.64/26`, { vrf: vrf.id });
      await makeIpAddress(t, `${net}.0.1/24`, { vrf: vrf.id });
      await make(t, '/api/ipam/ip-ranges/', {
        start_address: `${net}.0.10/24`,
        end_address: `${net}.0.20/24`,
        vrf: vrf.id,
      });
      await signInPage(page, origin, t.username, t.password);
    });
    afterAll(async () => {
      expect(b.violations).toEqual([]);
      await b?.close();
    });

    it("shows the prefix's page with its utilisation meter", async () => {
      await page.goto(`${origin}/ipam/prefixes/${prefixId}/`);
      const meter = page.getByRole('meter', { name: `Utilisation of ${net}.0.0/24` });
      // 1 address and an 11-address range of 254
      expect(await meter.getAttribute('aria-valuetext')).toBe('4.7%');
      await expectAccessible(b, 'prefix page');
    });

    it('follows an available row to the add form and creates the address', async () => {
      await page.goto(`${origin}/ipam/prefixes/${prefixId}/ip-addresses/`);
      await expectAccessible(b, 'IP addresses tab');
      const free = page.locator('tr.available').first();
      expect(await free.innerText()).toContain('8 IPs available');
      await free.getByRole('link', { name: `${net}.0.2/24` }).click();
      await page.waitForURL(/\/ipam\/ip-addresses\/add\/\?/);
      expect(await page.locator('[name="address"]').inputValue()).toBe(`${net}.0.2/24`);
      await page.locator('[name="dns_name"]').fill('from-available.example.com');
      await page.getByRole('button', { name: 'Create', exact: true }).click();
      await page.waitForURL(new RegExp(`/ipam/prefixes/${prefixId}/ip-addresses/`));
      const made = (await t.get(`/api/ipam/ip-addresses/?address=${net}.0.2/24&vrf_id=${vrf.id}`)).json();
      expect(made.count).toBe(1);
      expect(made.results[0].dns_name).toBe('from-available.example.com');
      expect(await page.locator('tr.available').first().innerText()).toContain('7 IPs available');
    });

    it('asks for the next free /28 and gets the add form pre-filled', async () => {
      await page.goto(`${origin}/ipam/prefixes/${prefixId}/prefixes/`);
      await expectAccessible(b, 'child prefixes tab');
      expect(await page.locator('tr.available').allInnerTexts()).toEqual([
        expect.stringContaining(`${net}.0.0/26`),
        expect.stringContaining(`${net}.0.128/25`),
      ]);
      await page.getByLabel('Next available prefix of length').selectOption('28');
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.waitForURL(/\/ipam\/prefixes\/add\/\?/);
      expect(await page.locator('[name="prefix"]').inputValue()).toBe(`${net}.0.0/28`);
    });

    it("shows the child ranges tab and a VLAN group's free VIDs", async () => {
      await page.goto(`${origin}/ipam/prefixes/${prefixId}/ip-ranges/`);
      await expectAccessible(b, 'child ranges tab');
      const g = await makeVlanGroup(t, { min_vid: 10, max_vid: 20 });
      await makeVlan(t, { vid: 12, group: g.id });
      await page.goto(`${origin}/ipam/vlan-groups/${g.id}/vlans/`);
      expect(await page.locator('tr.available').allInnerTexts()).toEqual([
        expect.stringContaining('2 VLANs available'),
        expect.stringContaining('8 VLANs available'),
      ]);
      await expectAccessible(b, 'VLAN group VLANs tab');
      await page.locator('tr.available').first().getByRole('link').click();
      await page.waitForURL(/\/ipam\/vlans\/add\/\?/);
      expect(await page.locator('[name="vid"]').inputValue()).toBe('10');
    });
  });
}
