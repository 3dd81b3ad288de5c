/**
 * What a path endpoint is connected to, read from its stored path (NetBox 3.4 PathEndpoint and
 * ConnectedEndpointsSerializer): the last hop when the path is complete. One statement for a
 * page of endpoints; the caller renders the destinations with the rest of the page's objects.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import type { Row } from '../../../core/model/types.js';
import { parseNode, type Ref } from './nodes.js';

export interface StoredPath {
  id: number;
  path: string[][];
  is_active: boolean;
  is_complete: boolean;
  is_split: boolean;
}

export const hopsOf = (raw: unknown): string[][] => (typeof raw === 'string' ? JSON.parse(raw) : raw) as string[][];

/** stored paths by id */
export async function loadPaths(rc: RequestContext, ids: number[]): Promise<Map<number, StoredPath>> {
  if (!ids.length) return new Map();
  const res =
    await sql<Row>`select id, path, is_active, is_complete, is_split from dcim_cablepath where id = any(${ids}::bigint[])`.execute(
      rc.q,
    );
  return new Map(
    res.rows.map((r) => [
      Number(r.id),
      {
        id: Number(r.id),
        path: hopsOf(r.path),
        is_active: r.is_active === true,
        is_complete: r.is_complete === true,
        is_split: r.is_split === true,
      },
    ]),
  );
}

/** NetBox 3.4 CablePath.destinations: the last hop of a complete path, else none */
export function destinationsOf(p: StoredPath | undefined): Ref[] {
  if (!p?.is_complete) return [];
  return (p.path[p.path.length - 1] ?? []).map(parseNode);
}
