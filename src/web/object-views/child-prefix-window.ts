/**
 * One page of a parent's child prefixes in address order, read in one statement with what the
 * available rows and the hierarchy need: how far the children before the page reach and each
 * row's depth under the parent.
 * Which prefixes are children follows NetBox 3.4 Prefix.get_child_prefixes (the REST
 * available-prefixes route's rule, apps/ipam/allocators.ts prefixFreeSpace): strictly inside, in
 * the prefix's VRF, or in any VRF under a global container; an aggregate's are every prefix inside
 * or equal to it (NetBox AggregatePrefixesView). The user's view constraints narrow the children.
 * The count is the prefix list's own (the same filters, so the same count cache).
 */
import { sql } from 'kysely';
import { requirePermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import { countObjects } from '../../core/crud/read.js';
import { broadcastOf, type IpValue, parseIp } from '../../core/net/ip.js';
import type { Params as Query } from '../../core/query/filters.js';
import type { Cond } from '../../core/query/lookups.js';

export interface PrefixParent {
  /** the parent's network as stored (`10.0.0.0/8`) */
  cidr: string;
  /** `<<` for a prefix's children, `<<=` for an aggregate's prefixes */
  inside: '<<' | '<<=';
  /** the VRF the children share, or undefined for any VRF */
  vrfId?: number | null;
}

/** a prefix's children as NetBox chooses them */
export function childrenOfPrefix(obj: Row): PrefixParent {
  const vrfId = ((obj.vrf as Row | null)?.id as number | undefined) ?? null;
  const status = (obj.status as Row | null)?.value ?? obj.status;
  const anyVrf = vrfId === null && status === 'container';
  return { cidr: String(obj.prefix), inside: '<<', vrfId: anyVrf ? undefined : vrfId };
}

export function prefixesOfAggregate(obj: Row): PrefixParent {
  return { cidr: String(obj.prefix), inside: '<<=' };
}

/** the children's condition on alias `t` */
function childCondition(parent: PrefixParent, scope: Cond | null): Cond {
  const vrf =
    parent.vrfId === undefined
      ? sql``
      : parent.vrfId === null
        ? sql`and t.vrf_id is null`
        : sql`and t.vrf_id = ${parent.vrfId}::bigint`;
  return sql`t.prefix ${sql.raw(parent.inside)} ${parent.cidr}::cidr ${vrf} ${scope ? sql`and ${scope}` : sql``}`;
}

/** the same children as the prefix list's filters, so the count is the list's (and its cache's) */
function listParams(parent: PrefixParent): Query {
  const q: Query = new Map([[parent.inside === '<<' ? 'within' : 'within_include', [parent.cidr]]]);
  if (parent.vrfId !== undefined) q.set('vrf_id', [parent.vrfId === null ? 'null' : String(parent.vrfId)]);
  return q;
}

export interface ChildRow {
  id: number;
  net: IpValue;
  depth: number;
}

export interface ChildWindow {
  rows: ChildRow[];
  /** the last address any child before the page reaches, or null */
  coveredBefore: bigint | null;
}

/** how many children the user may see (null: no prefixes at all), through the list's count cache */
export function countChildren(rc: RequestContext, model: ModelDef, parent: PrefixParent): Promise<number | null> {
  return countObjects(rc, model, listParams(parent));
}

/**
 * The children at `offset`, `limit` of them, in address order (a container before what it holds,
 * then VRF and id), and how far the children before them reach. Prefixes nest or are apart, so
 * what precedes a child and reaches past its start contains it: the furthest reach before the page
 * is that of the child before the page, of its containers or of the first child's containers (one
 * index probe per row, which also gives each row's depth).
 */
export async function childWindow(
  rc: RequestContext,
  model: ModelDef,
  parent: PrefixParent,
  offset: number,
  limit: number,
): Promise<ChildWindow> {
  const scope = await requirePermission(rc, model, 'view');
  const where = childCondition(parent, scope);
  const bits = parseIp(parent.cidr)!.family === 4 ? 32 : 128;
  const from = Math.max(0, offset - 1);
  const take = limit + (offset > 0 ? 1 : 0);
  const res = await sql<{ id: string; prefix: string; depth: number; reach: string | null }>`select w.id,
      w.prefix::text as prefix, a.depth, host(a.reach) as reach
    from (select t.id, t.prefix, t.vrf_id from ipam_prefix t where ${where}
      order by t.prefix, t.vrf_id nulls first, t.id offset ${from}::bigint limit ${take}::bigint) w
    left join lateral (select count(*)::int as depth, max(set_masklen(broadcast(t.prefix), ${bits})) as reach
      from ipam_prefix t where ${where} and t.prefix >> w.prefix) a on true
    order by w.prefix, w.vrf_id nulls first, w.id`.execute(rc.q);
  const read = res.rows.map((r) => ({
    id: Number(r.id),
    net: parseIp(r.prefix)!,
    depth: Number(r.depth),
    reach: r.reach ? parseIp(r.reach)!.value : null,
  }));
  let coveredBefore: bigint | null = null;
  if (offset > 0) {
    const prev = read.shift();
    const reaches = [prev && broadcastOf(prev.net), prev?.reach, read[0]?.reach];
    for (const r of reaches)
      if (r !== undefined && r !== null && (coveredBefore === null || r > coveredBefore)) coveredBefore = r;
  }
  return { rows: read.map(({ reach: _r, ...row }) => row), coveredBefore };
}
