/**
 * Keeping stored paths true (NetBox 3.4 signals: trace paths on cable save, retrace on cable
 * delete, rebuild through pass-through ports). Every change that can alter a path calls
 * retracePaths with the nodes it touched: the paths passing through them (the `_nodes` GIN
 * index) are dropped and traced again from their origins, in the transaction of the change.
 * Paths and `_path_id` are derived data, written directly and not change-logged (as NetBox
 * writes them with queryset updates).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import type { Row } from '../../../core/model/types.js';
import { traceFromOrigin } from './from-origin.js';
import { CABLE, INTERFACE, nodeOf, parseNode, PATH_ENDPOINTS, type Ref, tableOf, WIRELESS_LINK } from './nodes.js';

/** Drops the paths of these origins (all of one type); `_path_id` clears by its foreign key. */
async function dropPathsOf(rc: RequestContext, type: string, ids: number[]): Promise<void> {
  await sql`delete from dcim_cablepath where id in (select _path_id from ${sql.table(tableOf(type))} where id = any(${ids}::bigint[]))`.execute(
    rc.q,
  );
}

/** Traces and stores the path of every origin group (type, cable end) the candidates belong to. */
async function traceOrigins(rc: RequestContext, candidates: Ref[]): Promise<void> {
  const byType = new Map<string, Set<number>>();
  for (const c of candidates)
    if (PATH_ENDPOINTS.has(c.type)) byType.set(c.type, (byType.get(c.type) ?? new Set()).add(c.id));
  for (const [type, idSet] of byType) {
    const ids = [...idSet];
    await dropPathsOf(rc, type, ids);
    // origins on one cable end share one path (NetBox traces a cable end's terminations together)
    const ends = await sql<Row>`select distinct cable_id, cable_end from ${sql.table(tableOf(type))}
      where id = any(${ids}::bigint[]) and cable_id is not null`.execute(rc.q);
    for (const end of ends.rows) {
      const members = await sql<Row>`select termination_id from dcim_cabletermination
        where cable_id = ${end.cable_id} and cable_end = ${end.cable_end} and termination_type = ${type} order by id`.execute(
        rc.q,
      );
      await storePath(
        rc,
        type,
        members.rows.map((m) => Number(m.termination_id)),
      );
    }
    // NetBox 3.4: an interface on a wireless link (and no cable) is an origin of its own
    if (type === INTERFACE) {
      const linked =
        await sql<Row>`select id from dcim_interface where id = any(${ids}::bigint[]) and cable_id is null and wireless_link_id is not null`.execute(
          rc.q,
        );
      for (const r of linked.rows) await storePath(rc, type, [Number(r.id)]);
    }
  }
}

/** Traces the path of one origin group and stores it, the group's members pointing at it. */
async function storePath(rc: RequestContext, type: string, group: number[]): Promise<void> {
  await dropPathsOf(rc, type, group);
  const traced = await traceFromOrigin(rc, type, group);
  if (!traced) return;
  const stored = await sql<Row>`insert into dcim_cablepath (path, is_active, is_complete, is_split, _nodes)
    values (${JSON.stringify(traced.path)}::jsonb, ${traced.is_active}, ${traced.is_complete}, ${traced.is_split}, ${traced.path.flat()}::text[])
    returning id`.execute(rc.q);
  await sql`update ${sql.table(tableOf(type))} set _path_id = ${stored.rows[0]!.id} where id = any(${group}::bigint[])`.execute(
    rc.q,
  );
}

/**
 * Retraces every stored path through any of `nodes` from its origins, and traces paths from
 * `origins` (endpoints newly cabled). Paths whose origins lost their cable disappear.
 */
export async function retracePaths(rc: RequestContext, nodes: string[], origins: Ref[] = []): Promise<void> {
  const candidates = [...origins];
  if (nodes.length) {
    const affected = await sql<Row>`delete from dcim_cablepath where _nodes && ${nodes}::text[] returning path`.execute(
      rc.q,
    );
    for (const p of affected.rows) {
      const hops = (typeof p.path === 'string' ? JSON.parse(p.path) : p.path) as string[][];
      for (const n of hops[0] ?? []) candidates.push(parseNode(n));
    }
  }
  await traceOrigins(rc, candidates);
}

/** After a cable is written: its paths, and those through any object it now ends on. */
export async function retraceCable(rc: RequestContext, cableId: number): Promise<void> {
  const ends =
    await sql<Row>`select termination_type, termination_id from dcim_cabletermination where cable_id = ${cableId}`.execute(
      rc.q,
    );
  const refs = ends.rows.map((e) => ({ type: String(e.termination_type), id: Number(e.termination_id) }));
  await retracePaths(rc, [nodeOf(CABLE, cableId), ...refs.map((r) => nodeOf(r.type, r.id))], refs);
}

/**
 * After a wireless link is written or deleted: paths through it, and those of the interfaces it
 * joins or joined (NetBox 3.4 wireless signals: trace the ends on save, retrace on delete)
 */
export async function retraceWirelessLink(rc: RequestContext, linkId: number, interfaceIds: number[]): Promise<void> {
  const ends = interfaceIds.map((id) => ({ type: INTERFACE, id }));
  await retracePaths(rc, [nodeOf(WIRELESS_LINK, linkId), ...ends.map((e) => nodeOf(e.type, e.id))], ends);
}

/** After a circuit termination is written: paths through either side of its circuit */
export async function retraceCircuit(rc: RequestContext, circuitId: number): Promise<void> {
  const sides = await sql<Row>`select id from circuits_circuittermination where circuit_id = ${circuitId}`.execute(
    rc.q,
  );
  await retracePaths(
    rc,
    sides.rows.map((s) => nodeOf('circuits.circuittermination', s.id)),
  );
}

/** afterDelete hook of objects a path passes through (cables, pass-through ports, circuit terminations) */
export function retraceAfterDelete(type: string) {
  return async ({ rc, rows }: { rc: RequestContext; rows: ReadonlyArray<Row> }): Promise<void> => {
    await retracePaths(
      rc,
      rows.map((r) => nodeOf(type, r.id)),
    );
  };
}

/** afterDelete hook of cable terminations: the paths through their cables and objects change */
export async function retraceAfterTerminationDelete({
  rc,
  rows,
}: {
  rc: RequestContext;
  rows: ReadonlyArray<Row>;
}): Promise<void> {
  const nodes = new Set<string>();
  for (const r of rows) {
    nodes.add(nodeOf(CABLE, r.cable_id));
    nodes.add(nodeOf(String(r.termination_type), r.termination_id));
  }
  await retracePaths(rc, [...nodes]);
}
