/**
 * A device's interfaces and their cables in a real browser (Debian's chromium through
 * playwright-core), once with JavaScript and once without: on a device with 48 interfaces, page
 * through its Interfaces tab, connect interface 1 to a port of another device through the
 * connect form's pickers, see the link peer on both devices, follow the trace across a patch panel
 * (drawn and listed), then disconnect. axe-core checks the tab, the connect form and the trace page
 * (WCAG 2.1 AA) in light and dark, at 1280 and 375 px; any CSP violation fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cableBetween, end, make, makeDevice, makeInterface, uniq } from '../factories/index.js';
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
  describe(`a device's interfaces and cables, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    const tag = uniq(js ? 'js' : 'nojs');
    let sw: Record<string, unknown>;
    let peer: Record<string, unknown>;
    let first: Record<string, unknown>;
    let far: Record<string, unknown>;
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      sw = await makeDevice(t, { name: `${tag}-sw` });
      peer = await makeDevice(t, { name: `${tag}-peer` });
      await make(
        t,
        '/api/dcim/interfaces/',
        Array.from({ length: 48 }, (_, i) => ({
          device: sw.id,
          name: `ge-0/0/${String(i + 1).padStart(2, '0')}`,
          type: '1000base-t',
        })),
      );
      first = (await t.get(`/api/dcim/interfaces/?device_id=${sw.id}&name=ge-0/0/01`)).json().results[0];
      far = await makeInterface(t, peer, { name: 'uplink0' });
      await signInPage(page, origin, t.username, t.password);
    });
    afterAll(async () => b?.close());

    it('pages through the Interfaces tab', async () => {
      await page.goto(`${origin}/dcim/devices/${sw.id}/`);
      await page.getByRole('link', { name: /^Interfaces 48$/ }).click();
      await page.waitForURL(`${origin}/dcim/devices/${sw.id}/interfaces/`);
      expect(await page.locator('table.objects tbody tr').count()).toBe(48);
      await page.getByRole('link', { name: '25', exact: true }).click();
      await page.waitForURL(/per_page=25/);
      expect(await page.locator('table.objects tbody tr').count()).toBe(25);
      await page.getByRole('link', { name: 'Next' }).click();
      await page.waitForURL(/page=2/);
      expect(await page.locator('table.objects tbody tr').count()).toBe(23);
      await expectAccessible(b, 'interfaces tab');
    });

    it('connects interface 1 to the other device through the pickers, and both show the peer', async () => {
      await page.goto(`${origin}/dcim/devices/${sw.id}/interfaces/?per_page=25`);
      const row = page.locator('table.objects tbody tr', { hasText: 'ge-0/0/01' });
      await row.locator('summary', { hasText: 'Connect' }).click();
      await row.getByRole('link', { name: 'Interface', exact: true }).click();
      await page.waitForURL(/\/dcim\/cables\/add\/\?/);
      await expectAccessible(b, 'connect form');
      await page.locator('select[name="b_parent"]').selectOption(String(peer.id));
      await page.getByRole('button', { name: 'Show ports' }).nth(1).click();
      await page.locator('select[name="b_terminations"]').waitFor();
      expect(await page.locator('select[name="b_terminations"] option').allInnerTexts()).toContain('uplink0');
      await page.locator('select[name="b_terminations"]').selectOption(String(far.id));
      await page.locator('[name="label"]').fill(`${tag}-cable`);
      await page.getByRole('button', { name: 'Connect', exact: true }).click();
      await page.waitForURL(`${origin}/dcim/devices/${sw.id}/interfaces/?per_page=25`);
      const cable = (await t.get(`/api/dcim/interfaces/${first.id}/`)).json().cable;
      expect(cable.label).toBe(`${tag}-cable`);
      expect(await page.locator('table.objects tbody tr', { hasText: 'ge-0/0/01' }).innerText()).toContain(
        `${tag}-peer › uplink0`,
      );
      await page.goto(`${origin}/dcim/devices/${peer.id}/interfaces/`);
      expect(await page.locator('table.objects tbody tr', { hasText: 'uplink0' }).innerText()).toContain(
        `${tag}-sw › ge-0/0/01`,
      );
    });

    it('traces across a patch panel, then disconnects', async () => {
      const panel = await makeDevice(t, { name: `${tag}-panel` });
      const rear = await make(t, '/api/dcim/rear-ports/', { device: panel.id, name: 'r1', type: '8p8c', positions: 1 });
      const front = await make(t, '/api/dcim/front-ports/', {
        device: panel.id,
        name: 'f1',
        type: '8p8c',
        rear_port: rear.id,
      });
      const x = await makeInterface(t, sw, { name: 'xe-0/1/0' });
      const y = await makeInterface(t, peer, { name: 'xe-9/9/9' });
      await cableBetween(t, end('dcim.interface', x), end('dcim.frontport', front));
      await cableBetween(t, end('dcim.rearport', rear), end('dcim.interface', y));
      await page.goto(`${origin}/dcim/devices/${sw.id}/interfaces/?q=xe-0/1/0`);
      await page.getByRole('link', { name: 'Trace', exact: true }).click();
      await page.waitForURL(`${origin}/dcim/interfaces/${x.id}/trace/`);
      const drawing = page.locator('svg.trace-svg');
      expect(await drawing.getAttribute('aria-label')).toContain('xe-0/1/0');
      expect(await drawing.locator('text').allTextContents()).toEqual(
        expect.arrayContaining([`${tag}-sw`, 'xe-0/1/0', `${tag}-panel`, 'f1', 'r1', `${tag}-peer`, 'xe-9/9/9']),
      );
      expect(await page.locator('.trace table tbody tr').count()).toBe(2);
      await expectAccessible(b, 'trace');
      // disconnect the first cable from its row
      await page.goto(`${origin}/dcim/devices/${sw.id}/interfaces/?q=xe-0/1/0`);
      await page.getByRole('link', { name: 'Disconnect' }).click();
      await page.getByRole('button', { name: /delete/i }).click();
      // back to the tab as it was (its query kept, as the form encodes it)
      await page.waitForURL(new RegExp(`/dcim/devices/${sw.id}/interfaces/\\?q=xe-0(/|%2F)1(/|%2F)0$`));
      expect((await t.get(`/api/dcim/interfaces/${x.id}/`)).json().cable).toBeNull();
      expect(await page.locator('table.objects tbody tr').innerText()).toContain('Connect');
    });
  });
}
