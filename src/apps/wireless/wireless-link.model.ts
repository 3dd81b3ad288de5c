/**
 * Wireless links (NetBox 3.4 WirelessLink): a point-to-point radio link between two wireless
 * interfaces, the radio counterpart of a cable. Each interface names its link (`wireless_link`),
 * written here in the link's transaction; deleting the link frees them (foreign key SET NULL).
 * Like a cable, the link is a hop on its interfaces' stored paths.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { RequestContext } from '../../core/context.js';
import { comments, description, fk } from '../fields.js';
import { InterfaceType, LinkStatus, WIRELESS_INTERFACE_TYPES } from '../dcim/choices.js';
import { authFields } from './auth-fields.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { INTEGER_LOOKUPS } from '../../core/query/lookups.js';
import { parseBooleanLookup } from '../../core/query/parse-value.js';
import { retraceWirelessLink } from '../dcim/paths/upkeep.js';
import { parseIds, tenancyFilters } from '../../core/query/filter-blocks.js';

const end = () => fk('dcim.interface', { required: true, nullable: false, onDelete: 'protect' });

/** NetBox 3.4 `interface_a_id` / `interface_b_id`: number filters on the column (all numeric lookups) */
function interfaceIdFilter(column: string): CustomFilter {
  return {
    type: 'integer',
    lookups: ['n', 'lt', 'lte', 'gt', 'gte', 'empty'],
    async build(values, lookup, { alias, param }) {
      const col = sql.ref(`${alias}.${column}`);
      const fn = INTEGER_LOOKUPS[lookup]!;
      if (lookup === 'empty') return fn(col, [parseBooleanLookup(param, values[0]!)], false);
      return fn(col, parseIds(param, values), false);
    },
  };
}

/** the interfaces a link joins, and joined before this write */
const endsOf = (row: Row, before?: Row | null): number[] => [
  ...new Set(
    [row.interface_a_id, row.interface_b_id, before?.interface_a_id, before?.interface_b_id]
      .filter((x) => x != null)
      .map(Number),
  ),
];

async function interfaceRow(rc: RequestContext, id: unknown): Promise<Row | undefined> {
  if (id == null) return undefined;
  return (await sql<Row>`select id, type, wireless_link_id from dcim_interface where id = ${Number(id)}`.execute(rc.q))
    .rows[0];
}

export const wirelessLink = defineModel({
  name: 'wireless.wirelesslink',
  path: 'wireless-links',
  verboseName: 'wireless link',
  fields: {
    interface_a: end(),
    interface_b: end(),
    ssid: { kind: 'string', maxLength: 32, label: 'SSID' },
    status: { kind: 'choice', choices: LinkStatus, default: 'connected' },
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    ...authFields(),
    description: description(),
    comments: comments(),
  },
  uniqueTogether: [
    {
      fields: ['interface_a', 'interface_b'],
      message: 'Wireless link with this Interface a and Interface b already exists.',
    },
  ],
  filters: {
    ...tenancyFilters(),
    interface_a_id: interfaceIdFilter('interface_a_id'),
    interface_b_id: interfaceIdFilter('interface_b_id'),
  },
  hooks: {
    async validate({ rc, data, before, earlier }) {
      const errors: Record<string, string[]> = {};
      for (const side of ['interface_a', 'interface_b'] as const) {
        const iface = await interfaceRow(rc, data[`${side}_id`]);
        if (!iface) continue;
        // NetBox 3.4 WirelessLink.clean() (which names interface_a for either end; the right one is named here)
        if (!WIRELESS_INTERFACE_TYPES.has(String(iface.type))) {
          errors[side] = [
            `${InterfaceType.labels.get(String(iface.type)) ?? String(iface.type)} is not a wireless interface.`,
          ];
        } else if (iface.wireless_link_id != null && Number(iface.wireless_link_id) !== Number(before?.id)) {
          errors[side] = [
            `Interface ${String(iface.id)} is already on wireless link ${String(iface.wireless_link_id)}.`,
          ];
        } else if (earlier.some((e) => [e.interface_a_id, e.interface_b_id].map(Number).includes(Number(iface.id)))) {
          errors[side] = [`Interface ${String(iface.id)} is on another wireless link of this request.`];
        }
      }
      if (!Object.keys(errors).length && Number(data.interface_a_id) === Number(data.interface_b_id))
        errors.interface_b = ['A link needs two different interfaces.'];
      return errors;
    },
    async afterWrite({ rc, row, before }) {
      // each end names this link; an end it left names none
      await sql`update dcim_interface set wireless_link_id = null
        where wireless_link_id = ${Number(row.id)} and id not in (${Number(row.interface_a_id)}, ${Number(row.interface_b_id)})`.execute(
        rc.q,
      );
      await sql`update dcim_interface set wireless_link_id = ${Number(row.id)} where id in (${Number(row.interface_a_id)}, ${Number(row.interface_b_id)})`.execute(
        rc.q,
      );
      // the link is on its ends' paths as a cable is on its ends' (dcim/paths/README.md)
      await retraceWirelessLink(rc, Number(row.id), endsOf(row, before));
    },
    async afterDelete({ rc, rows }) {
      for (const row of rows) await retraceWirelessLink(rc, Number(row.id), endsOf(row));
    },
  },
  // NetBox: the SSID, else "#<id>"
  display: (row) => (row.ssid ? String(row.ssid) : `#${String(row.id)}`),
  ui: {
    columns: ['id', 'status', 'interface_a', 'interface_b', 'ssid', 'auth_type', 'description'],
    clone: ['ssid', 'status'],
    groups: [
      { title: 'Side A', fields: ['interface_a'] },
      { title: 'Side B', fields: ['interface_b'] },
      { title: 'Link', fields: ['status', 'ssid', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
      { title: 'Authentication', fields: ['auth_type', 'auth_cipher', 'auth_psk'] },
    ],
  },
  brief: ['ssid'],
  ordering: ['id'],
  search: ['ssid', 'description'],
});
