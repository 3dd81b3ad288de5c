/**
 * Reading stored paths for the trace and paths routes (NetBox 3.4 PathEndpoint.trace() and
 * CablePathSerializer): hops rendered in the nested form, one batch of renders per kind of object.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import type { Row } from '../../../core/model/types.js';
import { renderObjects } from '../cabling.js';
import { destinationsOf, hopsOf, loadPaths, type StoredPath } from './connected.js';
import { CABLE, parseNode, WIRELESS_LINK } from './nodes.js';

/** NetBox 3.4 TracedCableSerializer: the cable's plain values, no display */
async function tracedCables(rc: RequestContext, ids: number[]): Promise<Map<number, Row>> {
  if (!ids.length) return new Map();
  const res =
    await sql<Row>`select id, type, status, label, color, length, length_unit, description from dcim_cable where id = any(${ids}::bigint[])`.execute(
      rc.q,
    );
  return new Map(
    res.rows.map((c) => [
      Number(c.id),
      {
        id: Number(c.id),
        url: `${rc.baseUrl}/api/dcim/cables/${c.id}/`,
        type: c.type ?? '',
        status: c.status,
        label: c.label,
        color: c.color,
        length: c.length == null ? null : Number(c.length),
        length_unit: c.length_unit ?? '',
        description: c.description,
      },
    ]),
  );
}

/**
 * A wireless link on a trace, in the traced cable's manner (plain values, no display). NetBox 3.4
 * passes the link to its cable serializer, which cannot read a link; its own values are given here.
 */
async function tracedWirelessLinks(rc: RequestContext, ids: number[]): Promise<Map<number, Row>> {
  if (!ids.length) return new Map();
  const res =
    await sql<Row>`select id, ssid, status, description from wireless_wirelesslink where id = any(${ids}::bigint[])`.execute(
      rc.q,
    );
  return new Map(
    res.rows.map((l) => [
      Number(l.id),
      {
        id: Number(l.id),
        url: `${rc.baseUrl}/api/wireless/wireless-links/${l.id}/`,
        ssid: l.ssid,
        status: l.status,
        description: l.description,
      },
    ]),
  );
}

/** hops -> lists of nested objects (objects deleted since are left out, as NetBox does) */
async function renderHops(rc: RequestContext, paths: string[][][]): Promise<Row[][][]> {
  const objects = await renderObjects(rc, paths.flat(2).map(parseNode));
  return paths.map((hops) =>
    hops.map((hop) => hop.map((n) => objects.get(n)).filter((o): o is Row => o !== undefined)),
  );
}

/**
 * The trace of a path endpoint: `[near_ends, cable, far_ends]` triples of its stored path, padded
 * as NetBox pads a path that ends at a pass-through port, a site or a provider network, and
 * continued through a bridged interface at the far end. Stops before a hop with no near ends.
 */
export async function traceOf(rc: RequestContext, row: Row): Promise<unknown[]> {
  const hops: string[][] = [];
  const seen = new Set<number>();
  let pathId = row._path_id == null ? null : Number(row._path_id);
  while (pathId !== null && !seen.has(pathId)) {
    seen.add(pathId);
    const p: StoredPath | undefined = (await loadPaths(rc, [pathId])).get(pathId);
    if (!p) break;
    hops.push(...p.path);
    if (hops.length % 3 === 1) hops.push([], []);
    else if (hops.length % 3 === 2) hops.splice(hops.length - 1, 0, []);
    // NetBox 3.4: one interface at the far end that is bridged continues the trace from its bridge
    const dest = destinationsOf(p);
    pathId = null;
    if (dest.length === 1 && dest[0]!.type === 'dcim.interface') {
      const b =
        await sql<Row>`select br._path_id from dcim_interface i join dcim_interface br on br.id = i.bridge_id where i.id = ${dest[0]!.id}`.execute(
          rc.q,
        );
      if (b.rows[0]?._path_id != null) pathId = Number(b.rows[0]._path_id);
    }
  }
  const links = hops
    .filter((_, i) => i % 3 === 1)
    .flat()
    .map((n) => parseNode(n));
  const idsOf = (type: string) => links.filter((r) => r.type === type).map((r) => r.id);
  const cables = await tracedCables(rc, idsOf(CABLE));
  const radios = await tracedWirelessLinks(rc, idsOf(WIRELESS_LINK));
  const [rendered] = await renderHops(rc, [hops.filter((_, i) => i % 3 !== 1)]);
  const linkOf = (node: string | undefined) => {
    if (!node) return null;
    const ref = parseNode(node);
    return (ref.type === WIRELESS_LINK ? radios : cables).get(ref.id) ?? null;
  };
  const out: unknown[] = [];
  for (let i = 0, j = 0; i < hops.length; i += 3, j += 2) {
    const near = rendered![j]!;
    if (!near.length) break;
    out.push([near, linkOf(hops[i + 1]![0]), rendered![j + 1] ?? []]);
  }
  return out;
}

/** The stored paths passing through an object (front and rear ports, circuit terminations). */
export async function pathsThrough(rc: RequestContext, node: string): Promise<Row[]> {
  const res =
    await sql<Row>`select id, path, is_active, is_complete, is_split from dcim_cablepath where _nodes && ${[node]}::text[] order by id`.execute(
      rc.q,
    );
  const rendered = await renderHops(
    rc,
    res.rows.map((r) => hopsOf(r.path)),
  );
  return res.rows.map((r, i) => ({
    id: Number(r.id),
    path: rendered[i],
    is_active: r.is_active,
    is_complete: r.is_complete,
    is_split: r.is_split,
  }));
}
