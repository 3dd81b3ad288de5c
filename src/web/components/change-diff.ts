/**
 * What a change record changed, field by field (NetBox 4's ObjectChange.diff(): a create lists
 * every new value, a delete every old one, an update the keys whose values differ; `last_updated`
 * is left out as it always moves). Nested objects (custom fields, a config context's data) are
 * compared key by key and named by their path (`custom_fields.circuit_ref`), where NetBox compares
 * them whole; lists are compared whole and shown as JSON.
 */
import { html, type Html, type HtmlValue } from '../html.js';
import { dash, type Represented } from './cells.js';

export interface FieldChange {
  /** the field's key, dotted for a key inside an object (`custom_fields.owner`) */
  key: string;
  before: unknown;
  after: unknown;
}

/** keys NetBox leaves out of a change's difference */
const IGNORED = new Set(['last_updated']);

function isObject(v: unknown): v is Represented {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** the snapshot's leaves by path: an object's keys are flattened, anything else is a leaf */
function leaves(data: Represented | null, prefix = '', out = new Map<string, unknown>()): Map<string, unknown> {
  for (const [k, v] of Object.entries(data ?? {})) {
    if (!prefix && IGNORED.has(k)) continue;
    // an object's keys are its leaves, so an empty one adds none (`custom_fields: {}` before a first value)
    if (isObject(v)) leaves(v, `${prefix}${k}.`, out);
    else out.set(`${prefix}${k}`, v);
  }
  return out;
}

/** the fields a change record changed, sorted by key */
export function fieldChanges(pre: Represented | null, post: Represented | null, action: string): FieldChange[] {
  const before = leaves(pre);
  const after = leaves(post);
  const keys =
    action === 'create'
      ? [...after.keys()]
      : action === 'delete'
        ? [...before.keys()]
        : [...new Set([...before.keys(), ...after.keys()])];
  return keys
    .filter(
      (k) => action !== 'update' || JSON.stringify(before.get(k) ?? null) !== JSON.stringify(after.get(k) ?? null),
    )
    .sort()
    .map((key) => ({ key, before: before.get(key), after: after.get(key) }));
}

/** one value of a snapshot: nothing as a dash, text as itself, lists and objects as JSON */
function snapshotValue(v: unknown): HtmlValue {
  if (v === null || v === undefined || v === '') return dash();
  if (typeof v === 'object') return html`<code class="json">${JSON.stringify(v)}</code>`;
  return String(v);
}

/** the difference as a table: Field, Before, After (a create has no Before, a delete no After) */
export function diffTable(changes: FieldChange[], action: string): Html {
  if (!changes.length) return html`<p class="muted">No field changed.</p>`;
  const showBefore = action !== 'create';
  const showAfter = action !== 'delete';
  return html`<table class="diff"><thead><tr><th scope="col">Field</th>${showBefore ? html`<th scope="col">Before</th>` : ''}${showAfter ? html`<th scope="col">After</th>` : ''}</tr></thead><tbody>${changes.map(
    (c) =>
      html`<tr><th scope="row">${c.key}</th>${showBefore ? html`<td class="before">${snapshotValue(c.before)}</td>` : ''}${showAfter ? html`<td class="after">${snapshotValue(c.after)}</td>` : ''}</tr>`,
  )}</tbody></table>`;
}
