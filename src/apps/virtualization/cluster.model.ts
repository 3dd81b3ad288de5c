/**
 * Clusters (reference 3.5): a pool of hosts running virtual machines, of one type, optionally in
 * a group, a site and a tenant. Devices join a cluster through their `cluster` field.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { ClusterStatus } from './choices.js';
import { viaPair } from '../../core/query/filter-blocks.js';
import { scopeFields, scopeFilters, syncScope } from '../dcim/scope.js';

export const cluster = defineModel({
  name: 'virtualization.cluster',
  path: 'clusters',
  verboseName: 'cluster',
  fields: {
    name: name(100),
    // NetBox 3.4: type, group, tenant and site all PROTECT
    type: fk('virtualization.clustertype', { required: true, nullable: false, onDelete: 'protect' }),
    group: fk('virtualization.clustergroup', { onDelete: 'protect' }),
    status: { kind: 'choice', choices: ClusterStatus, default: 'active' },
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    site: fk('dcim.site', { onDelete: 'protect' }),
    // NetBox 4.2: a scope instead of a site (dcim/scope.ts); 3.4's `site` is the scope's site
    ...scopeFields(),
    description: description(),
    comments: comments(),
  },
  uniqueTogether: [{ fields: ['group', 'name'] }, { fields: ['site', 'name'] }],
  counts: {
    // kept per cluster (migration 0149)
    device_count: { model: 'dcim.device', via: 'cluster', kept: true },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'cluster', kept: true },
  },
  filters: {
    ...scopeFilters(['region', 'site_group', 'location']),
    ...viaPair('tenant_group', ['tenant', 'group']),
    ...contactFilters(),
  },
  hooks: {
    async validate({ rc, data, before, sent }) {
      await syncScope(rc, data, before, sent, true);
      // NetBox 3.4 Cluster.clean(): a cluster moved to a site must not leave host devices elsewhere
      if (!before || data.site_id == null) return;
      const res = await sql<{
        n: number;
        site: string;
      }>`select count(*)::int as n, (select name from dcim_site where id = ${data.site_id}) as site
        from dcim_device where cluster_id = ${data.id} and site_id <> ${data.site_id}`.execute(rc.q);
      const row = res.rows[0];
      if (row && row.n > 0)
        return { site: [`${row.n} devices are assigned as hosts for this cluster but are not in site ${row.site}`] };
    },
    // the scope and 3.4's site in step (dcim/scope.ts)
    prepare: ({ rc, data, before, sent }) => syncScope(rc, data, before, sent, true),
  },
  ui: {
    columns: ['name', 'type', 'group', 'status', 'tenant', 'site', 'device_count', 'virtualmachine_count'],
    tabs: [
      {
        slug: 'virtual-machines',
        model: 'virtualization.virtualmachine',
        param: 'cluster_id',
        countKey: 'virtualmachine_count',
      },
      { slug: 'devices', model: 'dcim.device', param: 'cluster_id', countKey: 'device_count' },
    ],
    clone: ['site', 'type', 'group', 'status', 'tenant'],
    groups: [
      { title: 'Cluster', fields: ['name', 'type', 'group', 'status', 'description'] },
      { title: 'Scope', fields: ['site', 'scope_type', 'scope_id', 'scope'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    related: [
      { model: 'dcim.device', param: 'cluster_id' },
      { model: 'virtualization.virtualmachine', param: 'cluster_id' },
      { model: 'ipam.vlangroup', param: 'cluster' },
    ],
  },
  brief: ['name', 'virtualmachine_count'],
  // NetBox 4.2 replaced `site` with the scope
  netbox44: { brief: ['name', 'description', 'virtualmachine_count'], hidden: ['site'] },
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
