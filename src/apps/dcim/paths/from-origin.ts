/**
 * Tracing a path from its origin (NetBox 3.4 CablePath.from_origin): near ends, their cable, the
 * cable's far ends (or an interface's wireless link and the interface at its other end); then on
 * through pass-through ports (a front port to its rear port, keeping
 * the position on a stack; a rear port to its front port(s) at position 1, or at the stacked
 * position when it has several) and circuits (a termination to the other side's), until an
 * endpoint (complete), a missing cable (incomplete) or a fork (split).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import type { Row } from '../../../core/model/types.js';
import {
  CABLE,
  CIRCUIT_TERMINATION,
  FRONT_PORT,
  INTERFACE,
  nodeOf,
  REAR_PORT,
  tableOf,
  WIRELESS_LINK,
} from './nodes.js';

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

/**
 * The link a near end is on, as a path node: its cable, else (an interface) its wireless link
 * (NetBox 3.4 Interface.link), else null
 */
function linkOf(type: string, row: Row): string | null {
  if (row.cable_id != null) return nodeOf(CABLE, row.cable_id);
  if (type === INTERFACE && row.wireless_link_id != null) return nodeOf(WIRELESS_LINK, row.wireless_link_id);
  return null;
}

interface FarEnds {
  ends: Row[];
  /** the link is connected (a planned or decommissioning one makes the path inactive) */
  active: boolean;
}

/** the terminations at the other end of a near end's cable */
async function cableFarEnds(rc: RequestContext, near: Row): Promise<FarEnds> {
  const cable = (await sql<Row>`select status from dcim_cable where id = ${near.cable_id}`.execute(rc.q)).rows[0];
  const farEnd = near.cable_end === 'A' ? 'B' : 'A';
  const ends = (
    await sql<Row>`select termination_type, termination_id from dcim_cabletermination
    where cable_id = ${near.cable_id} and cable_end = ${farEnd} order by id`.execute(rc.q)
  ).rows;
  return { ends, active: cable?.status === 'connected' };
}

/** the interface at the other end of an interface's wireless link */
async function wirelessFarEnd(rc: RequestContext, near: Row): Promise<FarEnds> {
  const link = (
    await sql<Row>`select status, interface_a_id, interface_b_id from wireless_wirelesslink where id = ${near.wireless_link_id}`.execute(
      rc.q,
    )
  ).rows[0];
  if (!link) return { ends: [], active: false };
  const other = Number(link.interface_a_id) === Number(near.id) ? link.interface_b_id : link.interface_a_id;
  return { ends: [{ termination_type: INTERFACE, termination_id: other }], active: link.status === 'connected' };
}

/** The path from these origins (all of one type, on one cable end), or null when they have no cable. */
export async function traceFromOrigin(
  rc: RequestContext,
  originType: string,
  originIds: number[],
): Promise<TracedPath | null> {
  let type = originType;
  let terms = await rowsOf(rc, type, byIds(originIds));
  if (!terms.length) return null;
  const path: string[][] = [];
  const positions: number[][] = [];
  let isActive = true;
  let isComplete = false;
  let isSplit = false;

  while (terms.length) {
    // near ends on different links: the path forks
    if (new Set(terms.map((t) => linkOf(type, t))).size > 1) {
      isSplit = true;
      break;
    }
    path.push(terms.map((t) => nodeOf(type, t.id)));
    const link = linkOf(type, terms[0]!);
    if (link === null) {
      if (path.length === 1) return null;
      break;
    }
    path.push([link]);
    const far = link.startsWith(WIRELESS_LINK)
      ? await wirelessFarEnd(rc, terms[0]!)
      : await cableFarEnds(rc, terms[0]!);
    if (!far.active) isActive = false;
    path.push(far.ends.map((f) => nodeOf(String(f.termination_type), f.termination_id)));
    if (!far.ends.length) break;
    const farEnds = far.ends;
    const farType = String(farEnds[0]!.termination_type);
    const farRows = await rowsOf(rc, farType, byIds(farEnds.map((f) => f.termination_id)));

    if (farType === FRONT_PORT) {
      const rear = await rowsOf(rc, REAR_PORT, byIds(farRows.map((f) => f.rear_port_id)));
      if (rear.length === 1 && Number(rear[0]!.positions) > 1)
        positions.push(farRows.map((f) => Number(f.rear_port_position)));
      type = REAR_PORT;
      terms = rear;
    } else if (farType === REAR_PORT) {
      let where: ReturnType<typeof sql>;
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
      const peer = (
        await rowsOf(
          rc,
          CIRCUIT_TERMINATION,
          sql`circuit_id = ${ct.circuit_id} and term_side = ${ct.term_side === 'A' ? 'Z' : 'A'}`,
        )
      )[0];
      if (!peer) break;
      if (peer.provider_network_id != null) {
        // the circuit ends in a provider network: complete there
        path.push(
          [nodeOf(CIRCUIT_TERMINATION, peer.id)],
          [nodeOf('circuits.providernetwork', peer.provider_network_id)],
        );
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
