/**
 * One page of a parent's child prefixes in address order, read in one statement with what the
 * available rows and the hierarchy need: the number of children, how far the children before the
 * page reach (a window maximum of their last addresses), and each row's depth under the parent.
 * Which prefixes are children follows NetBox 3.4 Prefix.get_child_prefixes (the REST
 * available-prefixes route's rule, apps/ipam/allocators.ts prefixFreeSpace): strictly inside, in
 * the prefix's VRF, or in any VRF under a global container; an aggregate's are every prefix inside
 * or equal to it (NetBox AggregatePrefixesView). The user's view constraints narrow the children.
 */
import { sql } from 'kysely';
import { requirePermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import { type IpValue, parseIp } from '../../core/net/ip.js';
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
export function childCondition(parent: PrefixParent, scope: Cond | null): Cond {
  return sql`t.prefix ${sql.raw(parent.inside)} ${parent.cidr}::cidr
    ${parent.vrfId === undefined ? sql`` : sql`and t.vrf_id is not distinct from ${parent.vrfId}::bigint`}
    ${scope ? sql`and ${scope}` : sql``}`;
}

export interface ChildRow {
  id: number;
  net: IpValue;
  depth: number;
}

export interface ChildWindow {
  total: number;
  rows: ChildRow[];
  /** the last address any child before the page reaches, or null */
  coveredBefore: bigint | null;
}

export async function countChildren(rc: RequestContext, model: ModelDef, parent: PrefixParent): Promise<number> {
  const scope = await requirePermission(rc, model, 'view');
  const res = await sql<{ n: number }>`select count(*)::int as n from ipam_prefix t
    where ${childCondition(parent, scope)}`.execute(rc.q);
  return res.rows[0]?.n ?? 0;
}

/**
 * The children at `offset`, `limit` of them, in address order (a container before what it holds,
 * then VRF and id), with the count and the reach of the earlier ones; the depth counts the visible
 * children that contain the row.
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
  const res = await sql<{
    total: number;
    id: string | null;
    prefix: string | null;
    covered: string | null;
    depth: number | null;
  }>`with s as (select t.id, t.prefix, t.vrf_id from ipam_prefix t where ${where}),
    o as (select id, prefix, row_number() over w as n,
      max(host(broadcast(prefix))::inet) over (w rows between unbounded preceding and 1 preceding) as covered
      from s window w as (order by prefix, vrf_id nulls first, id))
    select c.total, o.id, o.prefix::text as prefix, host(o.covered) as covered,
      (select count(*)::int from ipam_prefix t where ${where} and t.prefix >> o.prefix) as depth
    from (select count(*)::int as total from s) c
    left join o on o.n > ${offset}::bigint and o.n <= ${offset + limit}::bigint
    order by o.n`.execute(rc.q);
  const first = res.rows[0];
  const rows = res.rows
    .filter((r) => r.id !== null)
    .map((r) => ({ id: Number(r.id), net: parseIp(r.prefix!)!, depth: Number(r.depth) }));
  const covered = first?.covered ? parseIp(first.covered)!.value : null;
  return { total: Number(first?.total ?? 0), rows, coveredBefore: covered };
}
