/**
 * A table of represented objects: the chosen columns, sortable headers that link to `?sort=`
 * (keeping every other parameter, so the URL stays the whole state), the first column linking to
 * each object's page, and a checkbox per row named `pk` for the bulk pages (model-pages/bulk/), with
 * one in the header that inventory.js shows to tick a whole page.
 */
import type { ModelDef } from '../../core/model/types.js';
import { attrs, html, type Html, type HtmlValue } from '../html.js';
import { capitalize } from '../labels.js';
import { cell, objectHref, type Represented } from './cells.js';

/** the models counts name (`device_count` counts dcim.device): set when the pages are registered */
const countedModels = new Map<string, ModelDef>();
export function knowModels(models: ModelDef[]): void {
  for (const m of models) countedModels.set(m.name, m);
}

export function columnLabel(model: ModelDef, key: string): string {
  if (key === 'id') return 'ID';
  if (key === 'display') return capitalize(model.verboseName);
  if (key === 'last_updated') return 'Last updated';
  const f = model.fields[key];
  if (f?.label) return acronyms(capitalize(f.label));
  if (key.startsWith('cf_')) return key.slice(3).replace(/_/g, ' ');
  // NetBox's labels are the verbose names: `device_count` -> Devices
  const count = model.counts[key];
  if (count) {
    const counted = count.model ? countedModels.get(count.model) : undefined;
    return capitalize(counted?.verboseNamePlural ?? `${key.replace(/_count$/, '').replace(/_/g, ' ')}s`);
  }
  return acronyms(capitalize(key.replace(/_/g, ' ')));
}

/** NetBox's labels write these words in capitals: "Primary IP", "VLAN group", "MAC address" */
const ACRONYMS =
  /\b(id|ip|ips|ipv4|ipv6|vlan|vlans|vrf|vrfs|mac|asn|asns|mtu|wwn|url|rd|dns|nat|vc|poe|rf|vid|fhrp)\b/gi;
const PLURALS = new Set(['ips', 'vlans', 'vrfs', 'asns']);
function acronyms(label: string): string {
  return label.replace(ACRONYMS, (w) =>
    PLURALS.has(w.toLowerCase()) ? `${w.slice(0, -1).toUpperCase()}s` : w.toUpperCase(),
  );
}

export interface TableOptions {
  model: ModelDef;
  rows: Represented[];
  columns: string[];
  /** columns the list can sort by */
  sortable: ReadonlySet<string>;
  /** the current `sort` value (`name`, `-name`) */
  sort: string;
  /** `?...` for a given sort (the list's other parameters kept) */
  sortHref: (sort: string) => string;
  /** the page of each object */
  href: (row: Represented) => string;
  /** columns beyond the representation's (a page's interfaces' IP addresses), by key: label and cell per row */
  extraColumns?: Record<string, { label: string; cell: (row: Represented) => HtmlValue }>;
  /** a last cell of buttons per row (connect, trace...) */
  actions?: (row: Represented) => HtmlValue;
}

function columnValue(row: Represented, key: string): unknown {
  if (key.startsWith('cf_')) return (row.custom_fields as Represented | undefined)?.[key.slice(3)];
  return row[key];
}

function header(o: TableOptions, key: string): Html {
  const label = o.extraColumns?.[key]?.label ?? columnLabel(o.model, key);
  if (!o.sortable.has(key)) return html`<th scope="col">${label}</th>`;
  const current = o.sort === key ? 'ascending' : o.sort === `-${key}` ? 'descending' : null;
  const next = current === 'ascending' ? `-${key}` : key;
  return html`<th scope="col"${attrs({ 'aria-sort': current })}><a href="${o.sortHref(next)}">${label}${current ? html`<span aria-hidden="true">${current === 'ascending' ? ' ▲' : ' ▼'}</span>` : ''}</a></th>`;
}

export function objectTable(o: TableOptions): Html {
  if (!o.rows.length) return html`<p class="empty">No ${o.model.verboseNamePlural} found.</p>`;
  return html`<div class="table-wrap"><table class="objects">
<thead><tr><th scope="col" class="pk"><span class="sr-only">Select</span><input type="checkbox" class="select-page" aria-label="Select every row on this page" hidden></th>${o.columns.map((k) => header(o, k))}${o.actions ? html`<th scope="col"><span class="sr-only">Actions</span></th>` : ''}</tr></thead>
<tbody>${o.rows.map(
    (row) =>
      html`<tr><td class="pk"><input type="checkbox" name="pk" value="${String(row.id)}" aria-label="Select ${String(row.display ?? row.id)}"></td>${o.columns.map(
        (k, i) =>
          i === 0
            ? html`<td><a href="${o.href(row)}">${k === 'display' || columnValue(row, k) === null || columnValue(row, k) === '' ? String(row.display ?? row.id) : plain(columnValue(row, k))}</a></td>`
            : html`<td>${o.extraColumns?.[k] ? o.extraColumns[k].cell(row) : linkedCell(o.model, row, k)}</td>`,
      )}${o.actions ? html`<td class="row-actions">${o.actions(row)}</td>` : ''}</tr>`,
  )}</tbody>
</table></div>`;
}

/** a cell, as a link to the object the model's `linkColumns` hint names for it while that object exists */
function linkedCell(model: ModelDef, row: Represented, key: string): HtmlValue {
  const via = model.ui?.linkColumns?.[key];
  const href = via ? objectHref((row[via] as Represented | null)?.url) : null;
  return href ? html`<a href="${href}">${String(columnValue(row, key))}</a>` : cell(key, columnValue(row, key));
}

/** the first column's text (it is the link to the object, so its own links are dropped) */
function plain(v: unknown): string {
  if (typeof v === 'object' && v !== null) {
    const o = v as Represented;
    return String(o.display ?? o.label ?? o.name ?? JSON.stringify(v));
  }
  return String(v);
}
