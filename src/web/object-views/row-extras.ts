/**
 * What a related tab's rows offer beyond their fields, derived from the listed model, not named per
 * model: Edit where the user may change it; a port with a `cable` field gets Connect (one link per
 * kind of port it may face, NetBox's connect menu), or Disconnect and Trace when cabled; an
 * interface gets its IP addresses as a column (one statement for the page's rows) and "Add IP".
 * Only what the user may do is offered; the pages behind the links check again.
 */
import { listObjects } from '../../core/crud/read.js';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef } from '../../core/model/types.js';
import { compatibleTypes } from '../../apps/dcim/cable-compatibility.js';
import { cell, type Represented } from '../components/cells.js';
import type { TableOptions } from '../components/object-table.js';
import { html, type HtmlValue } from '../html.js';
import { capitalize } from '../labels.js';
import { listPath } from '../navigation/menu.js';
import { can, objectPath } from '../model-pages/page-shell.js';
import { TRACE_SLUG, traceable } from './trace.view.js';

/** the IP address filter naming each kind of interface (NetBox 3.4 IPAddressFilterSet) */
const ADDRESS_FILTER: Record<string, string> = {
  'dcim.interface': 'interface_id',
  'virtualization.vminterface': 'vminterface_id',
};

type Extras = Pick<TableOptions, 'extraColumns' | 'actions'> & { columns: string[] };

/** the tab's columns with the extras' appended, and how to draw them, for this page's rows */
export async function rowExtras(
  rc: RequestContext,
  listed: ModelDef,
  rows: Represented[],
  columns: string[],
  back: string,
): Promise<Extras> {
  const out: Extras = { columns: [...columns] };
  const registry = rc.app.registry;
  const actions: Array<(row: Represented) => HtmlValue> = [];

  const byFilter = ADDRESS_FILTER[listed.name];
  const addresses = registry.find('ipam.ipaddress');
  if (byFilter && addresses && (await can(rc, addresses)).view) {
    const assigned = new Map<number, Represented[]>();
    if (rows.length) {
      // only what a cell shows and the assignment (NetBox 4's `fields=`): the full form renders each address's interface and more
      const found = await listObjects(
        { ...rc, dialect: '4.4' },
        addresses,
        new Map([
          [byFilter, rows.map((r) => String(r.id))],
          ['fields', ['id,url,display,address,assigned_object_id']],
          ['limit', ['1000']],
        ]),
      );
      for (const a of found.results as Represented[]) {
        const owner = Number((a.assigned_object_id as number | undefined) ?? 0);
        assigned.set(owner, [...(assigned.get(owner) ?? []), a]);
      }
    }
    out.columns.push('ip_addresses');
    out.extraColumns = {
      ip_addresses: { label: 'IP addresses', cell: (row) => cell('ip_addresses', assigned.get(Number(row.id)) ?? []) },
    };
    if ((await can(rc, addresses)).add)
      actions.push(
        (row) =>
          html`<a class="button small" href="${listPath(addresses)}add/?${new URLSearchParams({ assigned_object_type: listed.name, assigned_object_id: String(row.id), return_url: back }).toString()}">Add IP</a>`,
      );
  }

  const cables = registry.find('dcim.cable');
  if (listed.fields.cable && cables) {
    const allowed = await can(rc, cables);
    const faces = compatibleTypes(listed.name).flatMap((t) => registry.find(t) ?? []);
    actions.push((row) => {
      const cable = row.cable as Represented | null;
      if (cable) {
        return html`${traceable(listed) ? html`<a class="button small" href="${objectPath(listed, row.id)}${TRACE_SLUG}/">Trace</a>` : ''}${
          allowed.delete
            ? html` <a class="button small danger" href="${objectPath(cables, cable.id)}delete/?${new URLSearchParams({ return_url: back }).toString()}">Disconnect</a>`
            : ''
        }`;
      }
      if (!allowed.add || row.mark_connected === true || !faces.length) return '';
      return html`<details class="menu-drop connect"><summary>Connect</summary><div class="drop">${faces.map(
        (f) =>
          html`<a href="${listPath(cables)}add/?${new URLSearchParams({ a_terminations_type: listed.name, a_terminations: String(row.id), b_terminations_type: f.name, return_url: back }).toString()}">${capitalize(f.verboseName)}</a>`,
      )}</div></details>`;
    });
  }
  // NetBox's row Edit (object constraints are checked again by the form)
  if ((await can(rc, listed)).change)
    actions.push(
      (row) =>
        html` <a class="button small" href="${objectPath(listed, row.id)}edit/?${new URLSearchParams({ return_url: back }).toString()}">Edit</a>`,
    );
  if (actions.length) out.actions = (row) => actions.map((a) => a(row));
  return out;
}
