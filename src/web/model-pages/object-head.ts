/**
 * The head every page of one object shares: its name, the buttons this user may use on this very
 * object (object permissions with constraints decide: the change and delete scopes are checked
 * against the object), and the tabs (the object, Changelog, Journal).
 */
import type { RequestContext } from '../../core/context.js';
import { requirePermission } from '../../core/auth/permissions.js';
import { fetchOne } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Represented } from '../components/cells.js';
import { tabs } from '../components/panels.js';
import { html, type Html } from '../html.js';
import { capitalize } from '../labels.js';
import { uiOf } from '../model-ui.js';
import { objectTabsOf } from '../object-views/index.js';
import { markButtons } from '../own/mark-buttons.js';
import { can, objectPath } from './page-shell.js';

/** the page of the object shown: its own, Changelog, Journal, or a tab's slug (object-views/) */
export type Tab = 'object' | 'changelog' | 'journal' | (string & {});

/** whether this user may take `action` on this object (within the action's constraints) */
export async function mayOnObject(rc: RequestContext, model: ModelDef, id: number, action: 'change' | 'delete') {
  if (model.readOnly) return false;
  try {
    const scope = await requirePermission(rc, model, action);
    if (scope) await fetchOne(rc, model, id, scope);
    return true;
  } catch {
    return false;
  }
}

/** the add form's query string that clones this object (NetBox clone_fields, tags too) */
/** the add form's input naming the object whose components a clone copies */
export const CLONE_COMPONENTS = '_clone_components';

export function cloneQuery(rc: RequestContext, model: ModelDef, obj: Represented): string | null {
  const fields = uiOf(rc.app.registry, model).clone;
  if (!fields.length) return null;
  const q = new URLSearchParams();
  for (const key of [...fields, ...(model.tags ? ['tags'] : [])]) {
    for (const v of flat(obj[key])) q.append(key, v);
  }
  // the add form then offers to copy the original's components (clone-components.ts)
  if (uiOf(rc.app.registry, model).components.length) q.append(CLONE_COMPONENTS, String(obj.id));
  return q.toString();
}

/** a represented value as the form inputs that write it back: ids of objects, values of choices */
export function flat(v: unknown): string[] {
  if (v === null || v === undefined || v === '') return [];
  if (Array.isArray(v)) return v.flatMap(flat);
  if (typeof v === 'object') {
    const o = v as Represented;
    if ('value' in o && 'label' in o) return o.value === null ? [] : [String(o.value)];
    if ('id' in o) return [String(o.id)];
    return [JSON.stringify(v)];
  }
  return [String(v)];
}

/** `csrfToken`: the page's, for the Bookmark and Subscribe forms (own/mark-buttons.ts) */
export async function objectHead(
  rc: RequestContext,
  model: ModelDef,
  obj: Represented,
  current: Tab,
  csrfToken?: string,
): Promise<Html> {
  const id = Number(obj.id);
  const path = objectPath(model, id);
  const allowed = await can(rc, model);
  const [change, del] = await Promise.all([
    allowed.change ? mayOnObject(rc, model, id, 'change') : false,
    allowed.delete ? mayOnObject(rc, model, id, 'delete') : false,
  ]);
  const clone = allowed.add ? cloneQuery(rc, model, obj) : null;
  const marks = await markButtons(rc, model, id, csrfToken, current === 'object' ? path : `${path}${current}/`);
  const journal = rc.app.registry.find('extras.journalentry');
  // a view's tab is shown when it has something to list (its count), or when it is the page shown
  const extra = [];
  for (const t of objectTabsOf(rc, model)) {
    const n = await t.count(rc, obj);
    if (n !== null || current === t.slug)
      extra.push({ label: t.label, href: `${path}${t.slug}/`, current: current === t.slug, badge: n ?? undefined });
  }
  return html`<div class="page-head">
  <h1>${String(obj.display ?? obj.id)}</h1>
  <div class="actions">
    ${marks}
    ${clone !== null ? html`<a class="button" href="${path.replace(/\d+\/$/, '')}add/?${clone}">Clone</a>` : ''}
    ${change ? html`<a class="button primary" href="${path}edit/" data-hotkey="e">Edit</a>` : ''}
    ${del ? html`<a class="button danger" href="${path}delete/">Delete</a>` : ''}
  </div>
</div>
${tabs([
  { label: capitalize(model.verboseName), href: path, current: current === 'object' },
  ...extra,
  ...(model.changelog ? [{ label: 'Changelog', href: `${path}changelog/`, current: current === 'changelog' }] : []),
  ...(journal && model.changelog
    ? [{ label: 'Journal', href: `${path}journal/`, current: current === 'journal' }]
    : []),
])}`;
}
