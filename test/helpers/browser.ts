/**
 * Debian's chromium for the browser tests, through playwright-core (never a downloaded browser:
 * .ci/run installs the apt package when it is missing): a browser with JavaScript on or off that
 * records CSP violations, and axe-core's WCAG 2.1 A and AA check of the page as it stands.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Dialog, type Page } from 'playwright-core';
import { expect } from 'vitest';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  page: Page;
  violations: string[];
  js: boolean;
  close(): Promise<void>;
}

/** `onDialog` answers the page's dialogs (default: accept every one) */
export async function openBrowser(
  javaScriptEnabled: boolean,
  onDialog: (dialog: Dialog) => Promise<void> = (d) => d.accept(),
): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'inv-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: ARGS,
    javaScriptEnabled,
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.setDefaultTimeout(10_000);
  const violations: string[] = [];
  // CSP violations are reported to the page; DevTools' init script is not bound by the CSP (with
  // JavaScript off nothing could run to violate it, nor to report)
  if (javaScriptEnabled) await page.exposeFunction('__cspViolation', (what: string) => violations.push(what));
  if (javaScriptEnabled)
    await page.addInitScript(() =>
      document.addEventListener('securitypolicyviolation', (e) =>
        (window as unknown as { __cspViolation: (s: string) => void }).__cspViolation(
          `${e.violatedDirective} ${e.blockedURI}`,
        ),
      ),
    );
  page.on('dialog', onDialog);
  return {
    context,
    page,
    violations,
    js: javaScriptEnabled,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** axe-core's WCAG 2.1 A and AA violations on the page as it stands (run through DevTools, outside the CSP) */
async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const result = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            o: unknown,
          ) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: unknown }> }> }>;
        };
      }
    ).axe;
    return axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
  });
  return result.violations.map((v) => `${v.id}: ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`);
}

/** axe on the page in light and dark, wide and narrow */
export async function expectAccessible(b: Browser, label: string) {
  // axe runs as a script: the JavaScript-on run checks every page kind, the same markup as without
  if (!b.js) return;
  for (const colorScheme of ['light', 'dark'] as const) {
    for (const width of [1280, 375]) {
      await b.page.emulateMedia({ colorScheme });
      await b.page.setViewportSize({ width, height: 900 });
      expect(await axeViolations(b.page), `${label} ${colorScheme} ${width}px`).toEqual([]);
    }
  }
  await b.page.emulateMedia({ colorScheme: 'light' });
  await b.page.setViewportSize({ width: 1280, height: 900 });
}

/** signs in through the /login/ form as a person does, and waits for the home page */
export async function signInPage(page: Page, origin: string, username: string, password: string) {
  await page.goto(`${origin}/login/`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${origin}/`);
}
