/**
 * L2VPN terminations (NetBox 3.7 vpn.L2VPNTermination; ipam in 3.4, served at both paths like the
 * L2VPNs): a VLAN, device interface or VM interface attached to an L2VPN. NetBox's rules: an object
 * belongs to one L2VPN at most; a point-to-point L2VPN (VPWS, EPL, EP-LAN, EP-Tree) has two
 * terminations at most.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { fk } from '../fields.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';
import { L2VPNType, POINT_TO_POINT_L2VPN_TYPES } from './choices.js';
import { displayNames } from './display-names.js';
import { genericParentPair, genericTargetPair } from './filters.js';
import type { Cond } from '../../core/query/lookups.js';
import { numericFilter } from '../../core/query/filter-blocks.js';

/** NetBox L2VPN_ASSIGNMENT_MODELS */
const L2VPN_ASSIGNMENT_TYPES = ['ipam.vlan', 'dcim.interface', 'virtualization.vminterface'];
const COLUMNS = { type: 'assigned_object_type', id: 'assigned_object_id' };

/**
 * NetBox 3.7 `site` / `region` (and `_id`): terminations whose VLAN, device or virtual machine is at
 * those sites or in those regions. Regions include their descendants here, as every other region
 * filter of the API does (NetBox 3.7 matches the direct region only on this one list).
 */
function placeFilter(param: string, target: 'dcim.site' | 'dcim.region', byId: boolean): CustomFilter {
  // a parenthesised set of site ids
  const siteOf = (ids: Cond) =>
    target === 'dcim.site' ? ids : sql`(select s.id from dcim_site s where s.region_id in ${ids})`;
  return idSetFilter({
    param,
    target,
    byId,
    match: (ids) => {
      const sites = siteOf(ids);
      return sql`((t.assigned_object_type = 'ipam.vlan' and t.assigned_object_id in (select v.id from ipam_vlan v where v.site_id in ${sites}))
        or (t.assigned_object_type = 'dcim.interface' and t.assigned_object_id in
          (select i.id from dcim_interface i join dcim_device d on d.id = i.device_id where d.site_id in ${sites}))
        or (t.assigned_object_type = 'virtualization.vminterface' and t.assigned_object_id in
          (select i.id from virtualization_vminterface i join virtualization_virtualmachine m on m.id = i.virtual_machine_id where m.site_id in ${sites})))`;
    },
  });
}

const sameObject = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  a.assigned_object_type === b.assigned_object_type && Number(a.assigned_object_id) === Number(b.assigned_object_id);

export const l2vpnTermination = defineModel({
  name: 'vpn.l2vpntermination',
  path: 'l2vpn-terminations',
  alsoAt: ['ipam'],
  verboseName: 'L2VPN termination',
  schemaName: 'L2VPNTermination',
  fields: {
    l2vpn: fk('vpn.l2vpn', {
      required: true,
      nullable: false,
      onDelete: 'cascade',
      label: 'L2VPN',
      relatedName: 'terminations',
    }),
    assigned_object_type: { kind: 'contenttype', required: true, types: L2VPN_ASSIGNMENT_TYPES },
    assigned_object_id: { kind: 'integer', required: true, min: 0 },
    assigned_object: { kind: 'generic', generic: { type: 'assigned_object_type', id: 'assigned_object_id' } },
  },
  filters: {
    ...placeFilterPair('region', 'dcim.region'),
    ...placeFilterPair('site', 'dcim.site'),
    ...genericParentPair(
      'device',
      'dcim.device',
      { type: 'dcim.interface', table: 'dcim_interface', column: 'device_id' },
      COLUMNS,
    ),
    ...genericParentPair(
      'virtual_machine',
      'virtualization.virtualmachine',
      { type: 'virtualization.vminterface', table: 'virtualization_vminterface', column: 'virtual_machine_id' },
      COLUMNS,
    ),
    ...genericTargetPair('interface', 'dcim.interface', COLUMNS),
    ...genericTargetPair('vminterface', 'virtualization.vminterface', COLUMNS),
    ...genericTargetPair('vlan', 'ipam.vlan', COLUMNS),
    vlan_vid: numericFilter(
      (a) =>
        sql`(select v.vid from ipam_vlan v where ${sql.ref(`${a}.assigned_object_type`)} = 'ipam.vlan' and v.id = ${sql.ref(`${a}.assigned_object_id`)})`,
      'vlan_vid',
      ['n', 'lt', 'lte', 'gt', 'gte', 'empty'],
    ),
    // the content type by its id in extras_contenttype
    assigned_object_type_id: idSetFilter({
      param: 'assigned_object_type_id',
      target: 'extras.contenttype',
      byId: true,
      match: (ids) =>
        sql`t.assigned_object_type in (select ct.app_label || '.' || ct.model from extras_contenttype ct where ct.id in ${ids})`,
    }),
    // NetBox 3.7 searches the L2VPN's name
    q: {
      async build(values, _lookup, { alias }) {
        const q = searchTerm(values);
        if (!q) return null;
        return sql`${sql.ref(`${alias}.l2vpn_id`)} in (select id from vpn_l2vpn where name ${likeFor(q)} ${`%${likeEscape(q)}%`})`;
      },
    },
  },
  hooks: {
    async validate({ rc, data, earlier }) {
      // NetBox 3.7 L2VPNTermination.clean()
      const errors: string[] = [];
      const names = await displayNames(rc, [[data.assigned_object_type as string, data.assigned_object_id]]);
      const what =
        names.get(`${data.assigned_object_type}:${data.assigned_object_id}`) ?? `#${data.assigned_object_id}`;
      const stored = await sql<{
        n: number;
      }>`select count(*)::int as n from vpn_l2vpntermination where assigned_object_type = ${data.assigned_object_type}
        and assigned_object_id = ${data.assigned_object_id}::bigint and id is distinct from ${data.id ?? null}::bigint`.execute(
        rc.q,
      );
      if (Number(stored.rows[0]?.n) > 0 || earlier.some((e) => sameObject(e, data)))
        errors.push(`L2VPN Termination already assigned (${what})`);
      const vpn = await sql<{ type: string }>`select type from vpn_l2vpn where id = ${data.l2vpn_id}::bigint`.execute(
        rc.q,
      );
      const type = vpn.rows[0]?.type;
      if (type && POINT_TO_POINT_L2VPN_TYPES.has(type)) {
        const others = await sql<{
          n: number;
        }>`select count(*)::int as n from vpn_l2vpntermination where l2vpn_id = ${data.l2vpn_id}::bigint
          and id is distinct from ${data.id ?? null}::bigint`.execute(rc.q);
        // the terminations written before this one in the same request count too
        const count =
          Number(others.rows[0]?.n ?? 0) +
          earlier.filter((e) => Number(e.l2vpn_id) === Number(data.l2vpn_id) && e.id == null).length;
        if (count >= 2) {
          errors.push(
            `${L2VPNType.labels.get(type)} L2VPNs cannot have more than two terminations; found ${count} already defined.`,
          );
        }
      }
      return errors.length ? { __all__: errors } : undefined;
    },
    async represent(rc, rows, out) {
      // NetBox: "<assigned object> <> <L2VPN>"
      const names = await displayNames(rc, [
        ...rows.map((r): [string, unknown] => [r.assigned_object_type as string, r.assigned_object_id]),
        ...rows.map((r): [string, unknown] => ['vpn.l2vpn', r.l2vpn_id]),
      ]);
      rows.forEach((r, i) => {
        out[i]!.display =
          `${names.get(`${r.assigned_object_type}:${r.assigned_object_id}`) ?? ''} <> ${names.get(`vpn.l2vpn:${r.l2vpn_id}`) ?? ''}`;
      });
    },
  },
  display: (row) => `L2VPN termination ${row.id}`,
  ui: {
    columns: ['l2vpn', 'assigned_object_type', 'assigned_object'],
    clone: ['l2vpn'],
    groups: [{ title: '', fields: ['l2vpn', 'assigned_object_type', 'assigned_object_id', 'assigned_object'] }],
  },
  // NetBox 3.4/3.7 NestedL2VPNTerminationSerializer
  brief: ['l2vpn'],
  ordering: ['l2vpn'],
  search: [],
});

function placeFilterPair(name: string, target: 'dcim.site' | 'dcim.region'): Record<string, CustomFilter> {
  return { [name]: placeFilter(name, target, false), [`${name}_id`]: placeFilter(`${name}_id`, target, true) };
}
