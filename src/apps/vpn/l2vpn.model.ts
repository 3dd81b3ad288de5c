/**
 * L2VPNs (NetBox 3.7 vpn.L2VPN; ipam.L2VPN in 3.4): a layer 2 VPN of a type (VPLS, VXLAN, EVPN...)
 * with an identifier, route targets and a tenant.
 *
 * One identity, `vpn.l2vpn`: NetBox 3.7 moved the model into its vpn app, and that is where a
 * current NetBox (content types, change log, webhooks, permissions) names it. 3.4 clients find it
 * where they look, `/api/ipam/l2vpns/` (alsoAt), serving the same objects. Objects' `url`s name
 * `/api/vpn/`, the one path NetBox 3.7 has: a URL identifies the object whichever path listed it,
 * and both answer it.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { comments, description, name, slug, tenantField } from '../fields.js';
import { L2VPNType } from './choices.js';
import { L2VPNStatus } from './netbox4-choices.js';
import { tenancyFilters, throughFilter } from '../../core/query/filter-blocks.js';

const targets = (table: string) => ({
  kind: 'm2m' as const,
  to: 'ipam.routetarget',
  through: { table, from: 'l2vpn_id', to: 'routetarget_id' },
});
const targetFilter = (param: string, table: string, key: 'id' | 'name') =>
  throughFilter(param, { table, own: 'l2vpn_id', other: 'routetarget_id' }, { table: 'ipam_routetarget', key });

export const l2vpn = defineModel({
  name: 'vpn.l2vpn',
  path: 'l2vpns',
  alsoAt: ['ipam'],
  verboseName: 'L2VPN',
  schemaName: 'L2VPN',
  fields: {
    identifier: { kind: 'integer', nullable: true },
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    type: { kind: 'choice', choices: L2VPNType, required: true },
    import_targets: { ...targets('vpn_l2vpn_import_targets'), relatedName: 'importing_l2vpns' },
    export_targets: { ...targets('vpn_l2vpn_export_targets'), relatedName: 'exporting_l2vpns' },
    // NetBox 4.3, shown in the 4.4 dialect only
    status: { kind: 'choice', choices: L2VPNStatus, default: 'active', dialect: '4.4' },
    description: description(),
    comments: comments(),
    tenant: tenantField(),
  },
  filters: {
    ...tenancyFilters(),
    import_target_id: targetFilter('import_target_id', 'vpn_l2vpn_import_targets', 'id'),
    import_target: targetFilter('import_target', 'vpn_l2vpn_import_targets', 'name'),
    export_target_id: targetFilter('export_target_id', 'vpn_l2vpn_export_targets', 'id'),
    export_target: targetFilter('export_target', 'vpn_l2vpn_export_targets', 'name'),
    // NetBox 3.7: name or description contains, or the identifier equals
    q: {
      async build(values, _lookup, { alias }) {
        const q = searchTerm(values);
        if (!q) return null;
        const p = `%${likeEscape(q)}%`;
        const op = likeFor(q);
        const parts = [sql`${sql.ref(`${alias}.name`)} ${op} ${p}`, sql`${sql.ref(`${alias}.description`)} ${op} ${p}`];
        if (/^-?\d{1,18}$/.test(q)) parts.push(sql`${sql.ref(`${alias}.identifier`)} = ${q}::bigint`);
        return sql`(${sql.join(parts, sql` or `)})`;
      },
    },
  },
  display: (row) =>
    row.identifier != null && Number(row.identifier) !== 0 ? `${row.name} (${row.identifier})` : String(row.name),
  ui: {
    columns: ['name', 'identifier', 'type', 'description'],
    clone: ['type'],
    groups: [
      { title: 'L2VPN', fields: ['name', 'slug', 'type', 'identifier', 'description'] },
      { title: 'Route Targets', fields: ['import_targets', 'export_targets'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  // NetBox 3.4/3.7 NestedL2VPNSerializer
  brief: ['identifier', 'name', 'slug', 'type'],
  ordering: ['name', 'identifier'],
  search: ['name', 'description'],
});
