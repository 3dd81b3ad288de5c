/**
 * `/user/preferences/` (NetBox's path): the signed-in user's colour mode, list page size and time
 * zone, their saved table columns (each can be reset) and their dashboard (reset to the default).
 * Everything is kept server-side (user-prefs.ts; the dashboard in extras_dashboard), so it follows
 * the user to another browser, and `/api/users/config/` shows the same document.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { deleteDashboard } from '../../apps/extras/dashboard-store.js';
import type { RequestContext } from '../../core/context.js';
import { inTransaction } from '../../core/crud/routes.js';
import { PAGE_SIZES } from '../components/pager.js';
import { attrs, html, type Html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { uiOf } from '../model-ui.js';
import { listPath } from '../navigation/menu.js';
import { csrfField, pageWithMenu } from '../page-context.js';
import {
  DEFAULT_PER_PAGE,
  getPref,
  isTimeZone,
  PREF,
  perPagePref,
  setPref,
  themeOf,
  timeZoneOf,
  timeZones,
} from '../user-prefs.js';
import { requireSignIn } from './signed-in.js';

const PATH = '/user/preferences/';
const MODES: Array<[string, string]> = [
  ['', 'As the system is set'],
  ['light', 'Light'],
  ['dark', 'Dark'],
];

/** the tables whose columns the user chose: the preference's key, and the list it belongs to */
async function savedTables(rc: RequestContext): Promise<Array<{ key: string; label: string; href: string | null }>> {
  const tables = await getPref(rc, PREF.tables);
  if (!tables || typeof tables !== 'object') return [];
  const byKey = new Map<string, { label: string; href: string }>();
  for (const m of rc.app.registry.all()) {
    const key = uiOf(rc.app.registry, m).tableKey.split('.')[1]!;
    byKey.set(key, { label: m.verboseNamePlural, href: listPath(m) });
  }
  return Object.keys(tables)
    .sort()
    .map((key) => ({ key, label: byKey.get(key)?.label ?? key, href: byKey.get(key)?.href ?? null }));
}

function option(value: string, label: string, selected: boolean): Html {
  return html`<option${attrs({ value, selected })}>${label}</option>`;
}

async function sendPreferences(request: FastifyRequest, reply: FastifyReply, errors: string[] = [], status = 200) {
  const rc = request.rc;
  const page = await pageWithMenu(request, reply);
  const [theme, perPage, tz, tables] = [
    (await themeOf(rc)) ?? '',
    await perPagePref(rc),
    (await timeZoneOf(rc)) ?? 'UTC',
    await savedTables(rc),
  ];
  const saved = request.query && (request.query as Record<string, string>).saved === '1';
  const body = html`<h1>Preferences</h1>
${saved && !errors.length ? html`<p class="flash" role="status">Your preferences are saved.</p>` : ''}
${errors.length ? html`<div class="errors" role="alert">${errors.map((e) => html`<div>${e}</div>`)}</div>` : ''}
<form class="object-form" method="post" action="${PATH}">
  ${csrfField(page)}
  <fieldset class="panel"><legend>User interface</legend>
    <div class="field"><label for="colormode">Colour mode</label>
    <select id="colormode" name="colormode">${MODES.map(([v, l]) => option(v, l, theme === v))}</select></div>
    <div class="field"><label for="per_page">Rows per page in lists</label>
    <select id="per_page" name="per_page">${PAGE_SIZES.map((n) => option(String(n), String(n), perPage === n))}</select></div>
    <div class="field"><label for="timezone">Time zone for the times shown</label>
    <select id="timezone" name="timezone">${timeZones().map((z) => option(z, z, tz === z))}</select></div>
  </fieldset>
  <fieldset class="panel"><legend>Tables</legend>
    ${
      tables.length
        ? html`<p class="muted">The columns you chose for these lists. Reset a table to show its default columns again.</p>
    ${tables.map(
      (t) =>
        html`<p><label><input type="checkbox" name="reset_table" value="${t.key}"> Reset ${t.label}</label>${t.href ? html` (<a href="${t.href}">the list</a>)` : ''}</p>`,
    )}`
        : html`<p class="muted">Every list shows its default columns. Choose columns with a list's "Configure table".</p>`
    }
  </fieldset>
  <fieldset class="panel"><legend>Dashboard</legend>
    <label><input type="checkbox" name="reset_dashboard" value="on"> Reset my dashboard (the home page) to the default widgets</label>
  </fieldset>
  <div class="form-buttons"><button type="submit" class="primary">Save</button></div>
</form>`;
  return sendPage(
    reply,
    renderPage({
      title: 'Preferences',
      ...page,
      crumbs: [{ label: 'Home', href: '/' }, { label: 'Profile', href: '/user/profile/' }, { label: 'Preferences' }],
      body,
    }),
    status,
  );
}

export function registerPreferencesPage(app: FastifyInstance): void {
  const signedIn = { preHandler: requireSignIn };
  app.get(PATH, signedIn, async (request, reply) => sendPreferences(request, reply));

  app.post(PATH, signedIn, async (request, reply) => {
    const rc = request.rc;
    const form = request.formFields ?? {};
    const all = request.formValues ?? new Map<string, string[]>();
    const mode = form.colormode ?? '';
    const perPage = Number(form.per_page ?? DEFAULT_PER_PAGE);
    const tz = form.timezone ?? 'UTC';
    const errors: string[] = [];
    if (mode !== '' && mode !== 'light' && mode !== 'dark') errors.push(`"${mode}" is not a colour mode.`);
    if (!PAGE_SIZES.includes(perPage)) errors.push(`Rows per page must be one of ${PAGE_SIZES.join(', ')}.`);
    if (!isTimeZone(tz)) errors.push(`"${tz}" is not a time zone.`);
    if (errors.length) return sendPreferences(request, reply, errors, 400);
    const tables = new Set((await savedTables(rc)).map((t) => t.key));
    await inTransaction(rc, async (trx) => {
      await setPref(trx, PREF.colorMode, mode || undefined);
      // the defaults are not stored: a later change of the default reaches the user
      await setPref(trx, PREF.perPage, perPage === DEFAULT_PER_PAGE ? undefined : perPage);
      await setPref(trx, PREF.timeZone, tz === 'UTC' ? undefined : tz);
      for (const key of all.get('reset_table') ?? [])
        if (tables.has(key)) await setPref(trx, `tables.${key}`, undefined);
      // the API's DELETE /api/extras/dashboard/: the default dashboard applies again
      if (form.reset_dashboard === 'on') await deleteDashboard(trx, rc.user!.id);
    });
    return reply.redirect(`${PATH}?saved=1`, 303);
  });
}
