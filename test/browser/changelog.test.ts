/**
 * The change log in a real browser (Debian's chromium through playwright-core), once with
 * JavaScript and once without: filter /core/changelog/ by user and by request id through its filter
 * form, open a change, and read its difference; open the system page and the background tasks.
 * axe-core checks the list, the change, the system page and the tasks (WCAG 2.1 AA) in light and dark, at 1280 and 375 px; any CSP violation
 * fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, type Json, makeUser, type TestUser, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';

let t: TestApp;
let origin: string;
let writer: TestUser;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
  writer = await makeUser(t);
  await grant(t, { object_types: ['dcim.site'], actions: ['view', 'add', 'change'], users: [writer.id] });
});
afterAll(async () => t?.close());

/** the change ids the list shows, in order */
async function listedChanges(page: Page): Promise<number[]> {
  const hrefs = await page
    .locator('table.objects tbody tr td:nth-child(2) a')
    .evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.map((h) => Number(/\/core\/changelog\/(\d+)\//.exec(h)?.[1]));
}

for (const js of [true, false]) {
  describe(`the change log, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    let site: Json;
    let update: Json;
    let create: Json;
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      const slug = uniq(js ? 'cl-js' : 'cl-nojs');
      site = (await t.post('/api/dcim/sites/', { name: slug, slug, facility: 'Hall 1' }, writer.token)).json();
      await t.patch(`/api/dcim/sites/${site.id}/`, { facility: 'Hall 2' }, writer.token);
      const changes = (
        await t.get(`/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id=${site.id}`)
      ).json().results as Json[];
      update = changes.find((c) => c.action.value === 'update')!;
      create = changes.find((c) => c.action.value === 'create')!;
      await signInPage(page, origin, t.username, t.password);
    });
    afterAll(async () => b?.close());

    it('filters by user and by request id through the filter form', async () => {
      await page.goto(`${origin}/`);
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.locator('summary', { hasText: 'Operations' }).click();
      await menu.getByRole('link', { name: 'Object changes' }).click();
      await page.waitForURL(`${origin}/core/changelog/`);
      await page.locator('details.more > summary').click();
      await page.locator('select[name="user_id"]').selectOption(String(writer.id));
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/user_id=/);
      // the writer made changes in both runs: this run's two come first
      expect((await listedChanges(page)).slice(0, 2)).toEqual([update.id, create.id]);
      await expectAccessible(b, 'change log');
      await page.goto(`${origin}/core/changelog/`);
      await page.locator('details.more > summary').click();
      await page
        .getByLabel('Request ID', { exact: true })
        .and(page.locator('#filter-request_id'))
        .fill(update.request_id);
      await page.getByRole('button', { name: 'Apply' }).click();
      await page.waitForURL(/request_id=/);
      expect(await listedChanges(page)).toEqual([update.id]);
    });

    it('opens a change and shows what changed, before and after', async () => {
      await page.locator(`a[href="/core/changelog/${update.id}/"]`).click();
      await page.waitForURL(`${origin}/core/changelog/${update.id}/`);
      const diff = page.locator('table.diff');
      expect(await diff.locator('tbody tr').allInnerTexts()).toEqual([
        expect.stringMatching(/^facility\s+Hall 1\s+Hall 2$/),
      ]);
      expect(await page.getByRole('link', { name: site.name }).getAttribute('href')).toBe(`/dcim/sites/${site.id}/`);
      await expectAccessible(b, 'change');
      await page.getByRole('link', { name: update.request_id }).click();
      await page.waitForURL(/request_id=/);
      expect(await listedChanges(page)).toEqual([update.id]);
    });

    it('shows a superuser the system page and the background tasks', async () => {
      await page.goto(`${origin}/`);
      const menu = page.getByRole('navigation', { name: 'Main' });
      await menu.locator('summary', { hasText: 'Admin' }).click();
      await menu.getByRole('link', { name: 'System', exact: true }).click();
      await page.waitForURL(`${origin}/core/system/`);
      expect(await page.locator('h1').innerText()).toBe('System');
      await expectAccessible(b, 'system page');
      await menu.locator('summary', { hasText: 'Admin' }).click();
      await menu.getByRole('link', { name: 'Background tasks' }).click();
      await page.waitForURL(`${origin}/core/background-tasks/`);
      expect(await page.locator('h2', { hasText: 'Workers' }).count()).toBe(1);
      await expectAccessible(b, 'background tasks');
    });
  });
}
