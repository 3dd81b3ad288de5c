/**
 * Tracing a path from its origin (NetBox 3.4 CablePath.from_origin): near ends, their cable, the
 * cable's far ends; then on through pass-through ports (a front port to its rear port, keeping
 * the position on a stack; a rear port to its front port(s) at position 1, or at the stacked
 * position when it has several) and circuits (a termination to the other side's), until an
 * endpoint (complete), a missing cable (incomplete) or a fork (split).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import type { Row } from '../../../core/represent/load-related.js';
import { CABLE, CIRCUIT_TERMINATION, FRONT_PORT, nodeOf, REAR_PORT, tableOf } from './nodes.js';

export interface TracedPath {
  path: string[][];
  is_active: boolean;
  is_complete: boolean;
  is_split: boolean;
}

async function rowsOf(rc: RequestContext, type: string, where: ReturnType<typeof sql>): Promise<Row[]> {
  return (await sql<Row>`select * from ${sql.table(tableOf(type))} where ${where} order by id`.execute(rc.q)).rows;
}

const byIds = (ids: unknown[]) => sql`id = any(${ids.map(Number)}::bigint[])`;

/** The path from these origins (all of one type, on one cable end), or null when they have no cable. */
export async function traceFromOrigin(rc: RequestContext, originType: string, originIds: number[]): Promise<TracedPath | null> {
  let type = originType;
  let terms = await rowsOf(rc, type, byIds(originIds));
  if (!terms.length) return null;
  const path: string[][] = [];
  const positions: number[][] = [];
  let isActive = true;
  let isComplete = false;
  let isSplit = false;

  while (terms.length) {
    // several cables under the near ends: the path forks
    if (new Set(terms.map((t) => String(t.cable_id))).size > 1) {
      isSplit = true;
      break;
    }
    path.push(terms.map((t) => nodeOf(type, t.id)));
    const cableId = terms[0]!.cable_id;
    if (cableId == null) {
      if (path.length === 1) return null;
      break;
    }
    path.push([nodeOf(CABLE, cableId)]);
    const cable = (await sql<Row>`select status from dcim_cable where id = ${cableId}`.execute(rc.q)).rows[0];
    if (cable?.status !== 'connected') isActive = false;
    const farEnd = terms[0]!.cable_end === 'A' ? 'B' : 'A';
    const far = (await sql<Row>`select termination_type, termination_id from dcim_cabletermination
      where cable_id = ${cableId} and cable_end = ${farEnd} order by id`.execute(rc.q)).rows;
    path.push(far.map((f) => nodeOf(String(f.termination_type), f.termination_id)));
    if (!far.length) break;
    const farType = String(far[0]!.termination_type);
    const farRows = await rowsOf(rc, farType, byIds(far.map((f) => f.termination_id)));

    if (farType === FRONT_PORT) {
      const rear = await rowsOf(rc, REAR_PORT, byIds(farRows.map((f) => f.rear_port_id)));
      if (rear.length === 1 && Number(rear[0]!.positions) > 1) positions.push(farRows.map((f) => Number(f.rear_port_position)));
      type = REAR_PORT;
      terms = rear;
    } else if (farType === REAR_PORT) {
      let where;
      if (farRows.length > 1 || Number(farRows[0]?.positions ?? 1) === 1) {
        where = sql`rear_port_id = any(${farRows.map((r) => Number(r.id))}::bigint[]) and rear_port_position = 1`;
      } else if (positions.length) {
        where = sql`rear_port_id = ${farRows[0]!.id} and rear_port_position = any(${positions.pop()!}::int[])`;
      } else {
        // no position to follow: every front port is a way on, so the path stops at the rear port
        isSplit = true;
        break;
      }
      type = FRONT_PORT;
      terms = await rowsOf(rc, FRONT_PORT, where);
    } else if (farType === CIRCUIT_TERMINATION) {
      if (farRows.length > 1) {
        isSplit = true;
        break;
      }
      const ct = farRows[0];
      if (!ct) break;
      const peer = (await rowsOf(rc, CIRCUIT_TERMINATION, sql`circuit_id = ${ct.circuit_id} and term_side = ${ct.term_side === 'A' ? 'Z' : 'A'}`))[0];
      if (!peer) break;
      if (peer.provider_network_id != null) {
        // the circuit ends in a provider network: complete there
        path.push([nodeOf(CIRCUIT_TERMINATION, peer.id)], [nodeOf('circuits.providernetwork', peer.provider_network_id)]);
        isComplete = true;
        break;
      }
      if (peer.site_id != null && peer.cable_id == null) {
        // the far side is at a site but not cabled: the path ends at that site
        path.push([nodeOf(CIRCUIT_TERMINATION, peer.id)], [nodeOf('dcim.site', peer.site_id)]);
        break;
      }
      type = CIRCUIT_TERMINATION;
      terms = [peer];
    } else {
      // any other kind is an endpoint
      isComplete = true;
      break;
    }
  }
  return { path, is_active: isActive, is_complete: isComplete, is_split: isSplit };
}
