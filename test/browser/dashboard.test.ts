/**
 * The dashboard at / in a real browser (Debian's chromium through playwright-core), with
 * JavaScript on and off: add a note and a count widget through the forms (the widget type chosen
 * by a GET form), move one earlier, remove it through its confirmation page; each step checked
 * through /api/extras/dashboard/. axe-core checks / and the forms (WCAG 2.1 AA) in light and dark,
 * at 1280 and 375 px; any CSP violation fails the test.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, makeSite, makeUser, type TestUser, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { type Browser, expectAccessible, openBrowser, signInPage } from '../helpers/browser.js';

let t: TestApp;
let origin: string;

beforeAll(async () => {
  t = await makeTestApp();
  origin = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => t?.close());

type Dashboard = {
  layout: Array<{ id: string; w: number }>;
  config: Record<string, { class: string; title: string | null; config: Record<string, unknown> }>;
};

for (const js of [true, false]) {
  describe(`the dashboard, JavaScript ${js ? 'on' : 'off'}`, () => {
    let b: Browser;
    let page: Page;
    let user: TestUser;
    const note = uniq(js ? 'js-note' : 'nojs-note');
    const dashboard = async () => (await t.get('/api/extras/dashboard/', user.token)).json() as Dashboard;
    const titles = async () => {
      const d = await dashboard();
      return d.layout.map((l) => d.config[l.id]?.title);
    };
    beforeAll(async () => {
      b = await openBrowser(js);
      page = b.page;
      user = await makeUser(t);
      await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [user.id] });
      await makeSite(t);
      await signInPage(page, origin, user.username, user.password);
    });
    afterAll(async () => {
      expect(b.violations).toEqual([]);
      await b?.close();
    });

    it('shows the default dashboard, accessible', async () => {
      await page.goto(`${origin}/`);
      expect(await page.locator('section.widget h2').allInnerTexts()).toContain('Change Log');
      await expectAccessible(b, 'dashboard');
    });

    it('adds a note through the form', async () => {
      await page.getByRole('link', { name: 'Add widget' }).click();
      await page.waitForURL(`${origin}/dashboard/widgets/add/`);
      await expectAccessible(b, 'add form');
      await page.getByLabel('Title').fill(note);
      await page.getByLabel('Colour').selectOption('green');
      await page.getByLabel('Width (columns of 12)').fill('6');
      await page.getByLabel('Content').fill('Remember the **spare** optics');
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(`${origin}/`);
      const panel = page.locator('section.widget', { has: page.getByRole('heading', { name: note }) });
      expect(await panel.locator('strong').innerText()).toBe('spare');
      expect(await panel.getAttribute('class')).toContain('span-6');
      const d = await dashboard();
      const last = d.layout.at(-1)!;
      expect(d.config[last.id]).toMatchObject({ class: 'extras.NoteWidget', title: note });
      expect(last.w).toBe(6);
    });

    it('adds a count widget after choosing its type', async () => {
      await page.goto(`${origin}/dashboard/widgets/add/`);
      await page.getByLabel('Widget type').selectOption('extras.ObjectCountsWidget');
      await page.getByRole('button', { name: 'Choose' }).click();
      await page.waitForURL(/widget_class=extras\.ObjectCountsWidget/);
      await page.getByLabel('Title').fill(`${note}-counts`);
      await page.getByLabel('Models').selectOption(['dcim.site']);
      await page.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(`${origin}/`);
      const panel = page.locator('section.widget', { has: page.getByRole('heading', { name: `${note}-counts` }) });
      expect(await panel.getByRole('link', { name: 'Sites' }).getAttribute('href')).toBe('/dcim/sites/');
      expect((await titles()).slice(-2)).toEqual([note, `${note}-counts`]);
    });

    it('moves the count widget earlier', async () => {
      await page.getByRole('button', { name: `Move earlier: ${note}-counts` }).click();
      await page.waitForURL(/\/#w-/);
      expect((await titles()).slice(-2)).toEqual([`${note}-counts`, note]);
      const shown = await page.locator('section.widget h2').allInnerTexts();
      expect(shown.slice(-2)).toEqual([`${note}-counts`, note]);
    });

    it('removes the note through its confirmation page', async () => {
      await page.goto(`${origin}/`);
      await page.getByRole('link', { name: `Remove ${note}`, exact: true }).click();
      await page.waitForURL(/\/dashboard\/widgets\/[^/]+\/delete\/$/);
      await expectAccessible(b, 'remove confirmation');
      await page.getByRole('button', { name: 'Remove' }).click();
      await page.waitForURL(`${origin}/`);
      expect(await titles()).not.toContain(note);
      expect(await page.locator('section.widget h2').allInnerTexts()).not.toContain(note);
    });
  });
}
