/**
 * Prefixes (reference 3.3; spec: Prefix table). `children` and `_depth` are computed per page in
 * one query with PostgreSQL's network operators (within the prefix's VRF, as NetBox maintains
 * them). The brief form is exactly id, url, family (integer) and prefix (spec: Representations).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { defineModel } from '../../core/model/define-model.js';
import type { Cond } from '../../core/query/lookups.js';
import { scopeFields, scopeFilters, syncScope } from '../dcim/scope.js';
import { comments, description, fk, tenantField } from '../fields.js';
import { PrefixStatus } from './choices.js';
import { familyField, sameNetwork, sameVrfId, setFamily, uniquenessScope } from './common.js';
import { colOf, familyFilter, maskLengthFilter, netFilter, networkSearch } from './network-filters.js';
import { presentInVrfFilter, vlanVidFilter } from './relation-filters.js';
import { numericFilter, tenancyFilters } from '../../core/query/filter-blocks.js';

/**
 * `body(vrf)`: a count over `ipam_prefix c` with `vrf` as the condition on c's VRF, the same as p's.
 * Two branches rather than `c.vrf_id = p.vrf_id or (both null)`, which no index answers: each is
 * a range or probes of the (vrf_id, prefix, id) index (migration 0155), read index-only.
 */
const inSameVrf = (p: Cond, body: (vrf: ReturnType<typeof sql>) => ReturnType<typeof sql>) =>
  sql`(case when ${p}.vrf_id is null then ${body(sql`c.vrf_id is null`)} else ${body(sql`c.vrf_id = ${p}.vrf_id`)} end)`;
/**
 * Child prefixes (strictly inside the prefix row `p`, its VRF): they sort after p and up to p's
 * last address as a host prefix, so they are that range of the index. `<<` alone is answered by
 * the GiST index over every VRF: among 20 VRFs sharing 10.0.0.0/8, a page of 50 prefixes counted
 * 200,000 index entries and read their rows for the VRF (142 ms against 12.6 ms, EXPLAIN ANALYZE
 * on bench/'s internet data set, docs/scale.md).
 */
const childrenOf = (p: Cond) =>
  inSameVrf(
    p,
    (vrf) => sql`(select count(*)::int from ipam_prefix c where ${vrf} and c.prefix > ${p}.prefix
      and c.prefix <= host(broadcast(${p}.prefix))::cidr and c.prefix << ${p}.prefix)`,
  );
/** Parents (strictly containing `p`, its VRF): one probe per shorter mask, as NetBox's depth counts them */
const depthOf = (p: Cond) =>
  inSameVrf(
    p,
    (vrf) => sql`(select count(*)::int from ipam_prefix c where ${vrf}
      and c.prefix = any(array(select set_masklen(${p}.prefix, k) from generate_series(0, masklen(${p}.prefix) - 1) k)))`,
  );

async function fetchTreeCounts(rc: RequestContext, ids: number[]) {
  const res = await sql<{ id: number; children: number; depth: number }>`select p.id, ${childrenOf(sql`p`)} as children,
    ${depthOf(sql`p`)} as depth from ipam_prefix p where p.id = any(${ids}::bigint[])`.execute(rc.q);
  return new Map(res.rows.map((r) => [Number(r.id), r]));
}

export const prefix = defineModel({
  name: 'ipam.prefix',
  path: 'prefixes',
  verboseName: 'prefix',
  verboseNamePlural: 'prefixes',
  fields: {
    family: familyField(),
    prefix: { kind: 'ipprefix', required: true },
    site: fk('dcim.site', { onDelete: 'protect' }),
    vrf: fk('ipam.vrf', { onDelete: 'protect', label: 'VRF' }),
    // NetBox 4.2: a scope instead of a site (dcim/scope.ts); 3.4's `site` is the scope's site
    ...scopeFields(),
    tenant: tenantField(),
    vlan: fk('ipam.vlan', { onDelete: 'protect', label: 'VLAN' }),
    status: { kind: 'choice', choices: PrefixStatus, default: 'active' },
    role: fk('ipam.role', { onDelete: 'set_null' }),
    is_pool: { kind: 'boolean', default: false },
    mark_utilized: { kind: 'boolean', default: false },
    description: description(),
    comments: comments(),
    children: { kind: 'computed', shape: { type: 'integer' } },
    _depth: { kind: 'computed', shape: { type: 'integer' } },
  },
  display: (row) => String(row.prefix),
  filters: {
    ...tenancyFilters(),
    family: familyFilter('prefix'),
    prefix: netFilter(colOf('prefix'), '='),
    within: netFilter(colOf('prefix'), '<<'),
    within_include: netFilter(colOf('prefix'), '<<='),
    contains: netFilter(colOf('prefix'), '>>='),
    mask_length: maskLengthFilter('prefix'),
    present_in_vrf_id: presentInVrfFilter(true),
    present_in_vrf: presentInVrfFilter(false),
    vlan_vid: vlanVidFilter,
    children: numericFilter((a) => childrenOf(sql.raw(a)), 'children', ['n', 'lt', 'lte', 'gt', 'gte']),
    depth: numericFilter((a) => depthOf(sql.raw(a)), 'depth', ['n', 'lt', 'lte', 'gt', 'gte']),
    ...scopeFilters(['region', 'site_group', 'location']),
    q: networkSearch('prefix', ['description']),
  },
  hooks: {
    async validate({ rc, data, before, sent, earlier }) {
      await syncScope(rc, data, before, sent, true);
      const scope = await uniquenessScope(rc, data.vrf_id);
      if (!scope) return;
      const dup = await sql<{
        prefix: string;
      }>`select prefix::text as prefix from ipam_prefix where prefix = ${data.prefix}::cidr
        and vrf_id is not distinct from ${data.vrf_id ?? null}::bigint and id is distinct from ${data.id ?? null}::bigint limit 1`.execute(
        rc.q,
      );
      const twin = earlier.some((e) => sameVrfId(e.vrf_id, data.vrf_id) && sameNetwork(e.prefix, data.prefix));
      if (dup.rows.length || twin)
        return { prefix: [`Duplicate prefix found in ${scope}: ${dup.rows[0]?.prefix ?? String(data.prefix)}`] };
    },
    // the scope and 3.4's site in step (dcim/scope.ts)
    prepare: ({ rc, data, before, sent }) => syncScope(rc, data, before, sent, true),
    async represent(rc, rows, out, { mode }) {
      setFamily(rows, out, 'prefix', mode, rc.dialect);
      // NetBox 4.4's brief and nested forms carry _depth too; 3.4's carry neither key
      if (mode !== 'full' && !out.some((o) => '_depth' in o)) return;
      const tree = await fetchTreeCounts(
        rc,
        rows.map((r) => Number(r.id)),
      );
      for (const o of out) {
        const t = tree.get(Number(o.id));
        if ('children' in o) o.children = t?.children ?? 0;
        if ('_depth' in o) o._depth = t?.depth ?? 0;
      }
    },
  },
  // the hook reads `prefix` (for family), which both forms show
  representReads: [],
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { vlan: 'vid' },
    // NetBox 4.4 shows the scope by default (the site stays, as 3.4 showed it)
    columns: ['prefix', 'status', 'children', 'vrf', 'tenant', 'site', 'scope', 'vlan', 'role', 'description'],
    clone: ['site', 'vrf', 'tenant', 'vlan', 'status', 'role', 'is_pool', 'mark_utilized', 'description'],
    groups: [
      { title: 'Prefix', fields: ['prefix', 'status', 'vrf', 'role', 'is_pool', 'mark_utilized', 'description'] },
      { title: 'Scope', fields: ['site', 'scope_type', 'scope_id', 'scope'] },
      { title: 'VLAN Assignment', fields: ['vlan'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    pickerFilters: { vlan: { site_id: 'site' } },
  },
  brief: ['family', 'prefix'],
  // NetBox 4.0: the brief form carries the prefix's depth too
  // spec: the brief form is exactly id, url, family and prefix
  briefWithoutDisplay: true,
  nested: ['family', 'prefix'],
  // NetBox 4.2 replaced `site` with the scope
  netbox44: { brief: ['family', 'prefix', 'description', '_depth'], hidden: ['site'] },
  // NetBox 3.4: vrf, prefix, id
  ordering: ['vrf', 'prefix'],
  search: ['prefix', 'description'],
});
