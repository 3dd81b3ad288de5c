/**
 * FHRP groups (NetBox 3.4 FHRPGroup): a VRRP, HSRP, CARP... group whose virtual addresses are IP
 * addresses assigned to the group itself (`assigned_object_type: ipam.fhrpgroup`), and whose
 * members are interfaces assigned through fhrp-group-assignments.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { comments, description } from '../fields.js';
import { FHRPGroupAuthType, FHRPGroupProtocol } from './choices.js';
import { parseIds } from '../../core/query/filter-blocks.js';

/**
 * NetBox 3.4 `related_ip`: groups holding an address inside the network of one of the given
 * addresses, in the same VRF (a group serving that subnet)
 */
const relatedIp: CustomFilter = {
  type: 'integer',
  async build(values, _lookup, { alias, param }) {
    return sql`${sql.ref(`${alias}.id`)} in (select g.assigned_object_id from ipam_ipaddress g join ipam_ipaddress given
      on given.id = any(${parseIds(param, values)}::bigint[]) and g.address <<= set_masklen(given.address, masklen(given.address))::cidr
        and g.vrf_id is not distinct from given.vrf_id
      where g.assigned_object_type = 'ipam.fhrpgroup')`;
  },
};

/** group id -> its virtual addresses, nested; one statement for the page plus the render */
async function virtualAddresses(
  rc: Parameters<NonNullable<typeof fhrpGroup.hooks.represent>>[0],
  ids: number[],
): Promise<Map<number, Row[]>> {
  const res = await sql<{ id: number; g: number }>`select id, assigned_object_id as g from ipam_ipaddress
    where assigned_object_type = 'ipam.fhrpgroup' and assigned_object_id = any(${ids}::bigint[]) order by address, id`.execute(
    rc.q,
  );
  const model = rc.app.registry.get('ipam.ipaddress');
  const rendered = await render(
    rc,
    model,
    await fetchRowsById(
      rc,
      model,
      res.rows.map((r) => Number(r.id)),
    ),
    'nested',
  );
  const byId = new Map(rendered.map((o) => [Number(o.id), o]));
  const out = new Map<number, Row[]>();
  for (const r of res.rows) out.set(Number(r.g), [...(out.get(Number(r.g)) ?? []), byId.get(Number(r.id))!]);
  return out;
}

export const fhrpGroup = defineModel({
  name: 'ipam.fhrpgroup',
  path: 'fhrp-groups',
  verboseName: 'FHRP group',
  fields: {
    name: { kind: 'string', maxLength: 100 },
    protocol: { kind: 'choice', choices: FHRPGroupProtocol, required: true },
    group_id: { kind: 'integer', required: true, min: 0, max: 32767, label: 'group ID' },
    auth_type: { kind: 'choice', choices: FHRPGroupAuthType, blank: true, label: 'authentication type' },
    auth_key: { kind: 'string', maxLength: 255, label: 'authentication key' },
    description: description(),
    comments: comments(),
    ip_addresses: { kind: 'computed', readOnly: true, shape: { type: 'array', items: { $model: 'ipam.ipaddress' } } },
  },
  filters: { related_ip: relatedIp },
  hooks: {
    async represent(rc, rows, out, { mode }) {
      if (mode !== 'full' || !rows.length) return;
      const addresses = await virtualAddresses(
        rc,
        rows.map((r) => Number(r.id)),
      );
      rows.forEach((r, i) => (out[i]!.ip_addresses = addresses.get(Number(r.id)) ?? []));
    },
  },
  // NetBox: "[name ]<protocol label>: <group id>"
  display: (row) =>
    `${row.name ? `${String(row.name)} ` : ''}${FHRPGroupProtocol.labels.get(String(row.protocol)) ?? String(row.protocol)}: ${String(row.group_id)}`,
  ui: {
    columns: ['group_id', 'protocol', 'name', 'auth_type', 'description', 'ip_addresses'],
    clone: ['protocol', 'auth_type', 'auth_key', 'description'],
    groups: [
      { title: 'FHRP Group', fields: ['protocol', 'group_id', 'name', 'description'] },
      { title: 'Authentication', fields: ['auth_type', 'auth_key'] },
    ],
  },
  brief: ['protocol', 'group_id'],
  ordering: ['protocol', 'group_id', 'id'],
  search: ['name', 'description'],
});
