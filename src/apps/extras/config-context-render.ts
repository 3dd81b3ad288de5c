/**
 * The rendered `config_context` of devices and virtual machines (NetBox 3.4
 * ConfigContextModel.get_config_context): every active config context matching the object, merged
 * in order of weight then name, then the object's own `local_context_data` merged last.
 *
 * Cost per page, whatever its size, in at most two statements: the page's objects with the values
 * they are matched on (region and site group ancestors, cluster type and group, tenant group,
 * tags, local data); matching runs in memory, once per distinct set of values; then the data of
 * the contexts that matched loads. The active contexts with their assignments (no data) come from
 * a per-process cache under the data version, as custom field definitions do (core/cache/README.md:
 * a context written a moment ago counts); with no active context at all, an object's config
 * context is its local data and no statement runs (a device detail paid two round trips for
 * contexts that did not exist).
 *
 * A model plugs in with a ContextSubject (which columns hold its attributes) and one call to
 * renderConfigContexts() from its represent hook.
 */
import { type RawBuilder, sql } from 'kysely';
import type { AppContext, RequestContext } from '../../core/context.js';
import { cacheVersion } from '../../core/cache/cache-version.js';
import { createVersionedCache, type VersionedCache } from '../../core/cache/versioned-cache.js';
import type { Row } from '../../core/model/types.js';
import { deepMerge, isJsonObject, type JsonObject } from './deep-merge.js';

/** The attributes a config context is matched on that an object holds itself (columns of its table). */
type SubjectAttribute = 'site' | 'location' | 'device_type' | 'role' | 'platform' | 'cluster' | 'tenant';

/** How to read the matching attributes of one model's objects. */
export interface ContextSubject {
  /** model identity: the objects' tags are found under it */
  model: string;
  /** the objects' table */
  table: string;
  /**
   * column holding each attribute; an attribute the model lacks is left out, and then contexts
   * assigned that kind never match (NetBox 3.4: a VM matches only contexts without locations and
   * device types)
   */
  columns: Partial<Record<SubjectAttribute, string>>;
  /** column with the object's own context data, merged last */
  localContext: string;
}

export const DEVICE_SUBJECT: ContextSubject = {
  model: 'dcim.device',
  table: 'dcim_device',
  columns: {
    site: 'site_id',
    location: 'location_id',
    device_type: 'device_type_id',
    role: 'role_id',
    platform: 'platform_id',
    cluster: 'cluster_id',
    tenant: 'tenant_id',
  },
  localContext: 'local_context_data',
};

/** NetBox 3.4: a VM has no location or device type; its site is optional (no site: no region or site group) */
export const VM_SUBJECT: ContextSubject = {
  model: 'virtualization.virtualmachine',
  table: 'virtualization_virtualmachine',
  columns: { site: 'site_id', role: 'role_id', platform: 'platform_id', cluster: 'cluster_id', tenant: 'tenant_id' },
  localContext: 'local_context_data',
};

/**
 * The assignment kinds, in the order of the arrays the queries below return: each kind's join
 * table and column, and the object value it is compared with (a column of the `x` CTE). `tree`:
 * the object also matches a context assigned to an ancestor of its value. NetBox 3.4 walks
 * ancestors for regions and site groups only; locations and tenant groups compare exactly
 * (location ancestry arrived in NetBox 4.4). Tags are the last kind: any one shared tag matches.
 */
interface Kind {
  table: string;
  column: string;
  value: string;
  tree?: string;
}

const KINDS: Kind[] = [
  { table: 'extras_configcontext_regions', column: 'region_id', value: 'region_id', tree: 'dcim_region' },
  { table: 'extras_configcontext_site_groups', column: 'sitegroup_id', value: 'sitegroup_id', tree: 'dcim_sitegroup' },
  { table: 'extras_configcontext_sites', column: 'site_id', value: 'site_id' },
  { table: 'extras_configcontext_locations', column: 'location_id', value: 'location_id' },
  { table: 'extras_configcontext_device_types', column: 'devicetype_id', value: 'device_type_id' },
  { table: 'extras_configcontext_roles', column: 'devicerole_id', value: 'role_id' },
  { table: 'extras_configcontext_platforms', column: 'platform_id', value: 'platform_id' },
  { table: 'extras_configcontext_cluster_types', column: 'clustertype_id', value: 'clustertype_id' },
  { table: 'extras_configcontext_cluster_groups', column: 'clustergroup_id', value: 'clustergroup_id' },
  { table: 'extras_configcontext_clusters', column: 'cluster_id', value: 'cluster_id' },
  { table: 'extras_configcontext_tenant_groups', column: 'tenantgroup_id', value: 'tenantgroup_id' },
  { table: 'extras_configcontext_tenants', column: 'tenant_id', value: 'tenant_id' },
  { table: 'extras_configcontext_tags', column: 'tag_id', value: 'tags' },
];
/** what the active contexts are read from: only writes to these end the entry (db/table-generations.ts) */
const CONTEXT_TABLES = ['extras_configcontext', ...KINDS.map((k) => k.table)];
const ATTRIBUTES: SubjectAttribute[] = ['site', 'location', 'device_type', 'role', 'platform', 'cluster', 'tenant'];

/** An active context: its id and, per kind it has assignments in, the assigned ids. */
interface ActiveContext {
  id: number;
  kinds: Array<[number, Set<number>]>;
}

/** per app: the active contexts, one entry under the data version it was read at */
const activeContextCaches = new WeakMap<AppContext, VersionedCache<ActiveContext[]>>();

/** Every active context in merge order (weight, name) with its assignments, cached (see above). */
function activeContexts(rc: RequestContext): Promise<ActiveContext[]> {
  let cache = activeContextCaches.get(rc.app);
  if (!cache) activeContextCaches.set(rc.app, (cache = createVersionedCache<ActiveContext[]>({ max: 1 })));
  return cache.through('active', cacheVersion(rc, CONTEXT_TABLES), () => loadActiveContexts(rc));
}

/** Every active context in merge order (weight, name) with its assignments; no data. */
async function loadActiveContexts(rc: RequestContext): Promise<ActiveContext[]> {
  const assigned = KINDS.map(
    (k, i) =>
      sql`select configcontext_id, ${sql.lit(i)} as kind, ${sql.ref(k.column)} as member from ${sql.table(k.table)}`,
  );
  const res = await sql<{ id: number; kind: number | null; member: number | null }>`select c.id, a.kind, a.member
    from extras_configcontext c
    left join (${sql.join(assigned, sql` union all `)}) a on a.configcontext_id = c.id
    where c.is_active order by c.weight, c.name, c.id`.execute(rc.q);
  const out: ActiveContext[] = [];
  const byKind = new Map<number, Map<number, Set<number>>>();
  for (const r of res.rows) {
    const id = Number(r.id);
    let kinds = byKind.get(id);
    if (!kinds) {
      byKind.set(id, (kinds = new Map()));
      out.push({ id, kinds: [] });
    }
    if (r.kind === null) continue;
    const set = kinds.get(r.kind) ?? new Set<number>();
    set.add(Number(r.member));
    kinds.set(r.kind, set);
  }
  for (const c of out) c.kinds = [...byKind.get(c.id)!];
  return out;
}

/** `(start, id)`: each value of `x.<value>` with itself and all its ancestors in `tree` */
function ancestorsCte(name: string, k: Kind): RawBuilder<unknown> {
  const value = sql.ref(`x.${k.value}`);
  return sql`${sql.id(name)}(start, id, depth) as (
      select distinct ${value}, ${value}, 0 from x where ${value} is not null
      union all
      select a.start, p.parent_id, a.depth + 1 from ${sql.id(name)} a join ${sql.table(k.tree!)} p on p.id = a.id
      where p.parent_id is not null and a.depth < 100)`;
}

interface SubjectValues {
  id: number;
  /** per kind (KINDS order), the object's values */
  values: number[][];
  local: unknown;
}

/** The matching values of each object, per kind, and its local context data. */
async function loadSubjects(rc: RequestContext, subject: ContextSubject, ids: number[]): Promise<SubjectValues[]> {
  const attr = (a: SubjectAttribute) => {
    const column = subject.columns[a];
    return column ? sql`o.${sql.ref(column)}` : sql`null::bigint`;
  };
  const trees: RawBuilder<unknown>[] = [];
  const columns = KINDS.map((k, i) => {
    if (k.value === 'tags') {
      return sql`array(select ti.tag_id from extras_taggeditem ti where ti.content_type = ${subject.model} and ti.object_id = x.id)`;
    }
    if (!k.tree) return sql`array_remove(array[x.${sql.ref(k.value)}], null)`;
    trees.push(ancestorsCte(`up${i}`, k));
    return sql`array(select u.id from ${sql.id(`up${i}`)} u where u.start = x.${sql.ref(k.value)})`;
  });
  const res = await sql<{ id: number; local: unknown } & Record<string, number[]>>`with recursive
    x as (
      select o.id, ${sql.ref(`o.${subject.localContext}`)} as local,
        ${sql.join(ATTRIBUTES.map((a) => sql`${attr(a)} as ${sql.id(`${a}_id`)}`))},
        s.region_id, s.group_id as sitegroup_id, cl.type_id as clustertype_id, cl.group_id as clustergroup_id,
        tn.group_id as tenantgroup_id
      from ${sql.table(subject.table)} o
      left join dcim_site s on s.id = ${attr('site')}
      left join virtualization_cluster cl on cl.id = ${attr('cluster')}
      left join tenancy_tenant tn on tn.id = ${attr('tenant')}
      where o.id = any(${ids}::bigint[])),
    ${sql.join(trees)}
    select x.id, x.local, ${sql.join(columns.map((c, i) => sql`${c} as ${sql.id(`k${i}`)}`))} from x`.execute(rc.q);
  return res.rows.map((r) => ({
    id: Number(r.id),
    local: r.local,
    values: KINDS.map((_, i) => (r[`k${i}`] ?? []).map(Number)),
  }));
}

/** ids of the contexts matching one object, in merge order: in every kind a context has assignments in, one value matches */
function matching(contexts: ActiveContext[], values: number[][]): number[] {
  return contexts.filter((c) => c.kinds.every(([kind, set]) => values[kind]!.some((v) => set.has(v)))).map((c) => c.id);
}

/** object id -> its rendered config context */
async function computeConfigContexts(
  rc: RequestContext,
  subject: ContextSubject,
  ids: number[],
): Promise<Map<number, JsonObject>> {
  const out = new Map<number, JsonObject>();
  if (ids.length === 0) return out;
  const contexts = await activeContexts(rc);
  if (contexts.length === 0) return out;
  const subjects = await loadSubjects(rc, subject, ids);
  // objects with the same values match the same contexts (a page shares a few sites, roles, tags)
  const bySignature = new Map<string, number[]>();
  const matched = subjects.map((s) => {
    const key = s.values.map((v) => v.join(',')).join('|');
    let list = bySignature.get(key);
    if (!list) bySignature.set(key, (list = matching(contexts, s.values)));
    return list;
  });
  const data = await loadData(rc, [...new Set(matched.flat())]);
  const merged = new Map<string, JsonObject>();
  subjects.forEach((s, i) => {
    const list = matched[i]!;
    const key = list.join(',');
    let base = merged.get(key);
    if (!base) merged.set(key, (base = list.reduce<JsonObject>((acc, cid) => deepMerge(acc, data.get(cid) ?? {}), {})));
    // NetBox 3.4: local_context_data is merged last, when it is a non-empty object
    out.set(s.id, isJsonObject(s.local) && Object.keys(s.local).length ? deepMerge(base, s.local) : base);
  });
  return out;
}

/** The data of the matched contexts. */
async function loadData(rc: RequestContext, contextIds: number[]): Promise<Map<number, JsonObject>> {
  const data = new Map<number, JsonObject>();
  if (contextIds.length === 0) return data;
  const res = await sql<{ id: number; data: unknown }>`select id, data from extras_configcontext
    where id = any(${contextIds}::bigint[])`.execute(rc.q);
  for (const r of res.rows) data.set(Number(r.id), isJsonObject(r.data) ? r.data : {});
  return data;
}

/**
 * Fills `config_context` of the representations that show it: full forms that were not asked to
 * leave it out (`?exclude=config_context` removes the key before the represent hook runs).
 */
export async function renderConfigContexts(
  rc: RequestContext,
  subject: ContextSubject,
  rows: Row[],
  out: Row[],
): Promise<void> {
  const ids: number[] = [];
  out.forEach((o, i) => {
    if ('config_context' in o) ids.push(Number(rows[i]!.id));
  });
  if (ids.length === 0) return;
  const contexts = await computeConfigContexts(rc, subject, ids);
  out.forEach((o, i) => {
    if (!('config_context' in o)) return;
    // without a matching context (or any): the local data alone, as the merge would give it
    const local = rows[i]![subject.localContext];
    o.config_context =
      contexts.get(Number(rows[i]!.id)) ??
      (isJsonObject(local) && Object.keys(local).length ? deepMerge({}, local) : {});
  });
}
