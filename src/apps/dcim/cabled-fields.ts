/**
 * What every cabled kind shares (NetBox 3.4 CabledObjectModel and PathEndpoint): the read-only cable
 * fields, the `cabled` / `occupied` / `connected` filters, and one represent step that fills them for
 * a page at once (an interface's wireless link counts as its link, as in NetBox 3.4). Interfaces, console, console server and power ports, power outlets, front and rear
 * ports, power feeds and circuit terminations all declare them from here.
 */
import { planRender } from '../../core/represent/plan.js';
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import { renderChoice } from '../../core/represent/render.js';
import { fk } from '../fields.js';
import { CABLED_SHAPES, linkPeerRefs, loadCableStatus, nestPeers, renderObjects } from './cabling.js';
import { destinationsOf, loadPaths, type StoredPath } from './paths/connected.js';
import { INTERFACE, type Ref } from './paths/nodes.js';
import { LinkStatus } from './choices.js';
import { booleanFilter } from '../../core/query/filter-blocks.js';

const CABLE_ID = { type: 'integer', nullable: true } as const;

/**
 * CabledObjectModel: the cable and its end, the far ends, and `mark_connected` (writable).
 * NetBox 3.4's nested serializers give the cable as its id; the spec nests it in an interface's
 * nested form, so interfaces pass `nestedCable`.
 */
export function cabledFields(opts: { nestedCable?: boolean } = {}): Record<string, FieldDef> {
  return {
    mark_connected: { kind: 'boolean', default: false },
    cable: fk('dcim.cable', {
      readOnly: true,
      noFilter: true,
      shapeIn: opts.nestedCable ? { brief: CABLE_ID } : { brief: CABLE_ID, nested: CABLE_ID },
    }),
    cable_end: { kind: 'string', readOnly: true, maxLength: 1 },
    link_peers: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.peers },
    link_peers_type: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.peersType },
  };
}

/** PathEndpoint: where the path from this object ends (front and rear ports are not endpoints) */
export function pathEndpointFields(): Record<string, FieldDef> {
  return {
    connected_endpoints: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.endpoints },
    connected_endpoints_type: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.endpointsType },
    connected_endpoints_reachable: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.reachable },
  };
}

/** `_occupied` (cabled or marked connected); declared last, as NetBox's serializers list it */
export const occupiedField = (): FieldDef => ({
  kind: 'computed',
  readOnly: true,
  label: 'occupied',
  shape: CABLED_SHAPES.occupied,
});

const cabled = (t: string) => sql`${sql.ref(`${t}.cable_id`)} is not null`;

/** NetBox 3.4 CabledObjectFilterSet (`cabled`, `occupied`) and PathEndpointFilterSet (`connected`) */
export function cabledFilters(endpoint: boolean): Record<string, CustomFilter> {
  return {
    cabled: booleanFilter(cabled),
    occupied: booleanFilter((t) => sql`(${cabled(t)} or ${sql.ref(`${t}.mark_connected`)})`),
    // NetBox 3.4 PathEndpointFilterSet: the stored path is active (every cable on it connected)
    ...(endpoint
      ? {
          connected: booleanFilter(
            (t) => sql`${sql.ref(`${t}._path_id`)} in (select id from dcim_cablepath where is_active)`,
          ),
        }
      : {}),
  };
}

/** NetBox 3.4 `_occupied`: cabled or marked connected; an interface also when on a wireless link */
const occupied = (r: Row): boolean => r.cable_id != null || r.mark_connected === true || r.wireless_link_id != null;

/**
 * NetBox 3.4 Interface.link_peers: an interface on a wireless link (interfaces with one take no
 * cable) has the interface at the link's other end as its peer. One statement for the page.
 */
async function wirelessPeerRefs(rc: RequestContext, rows: Row[]): Promise<Map<number, Ref[]>> {
  const ids = rows.filter((r) => r.wireless_link_id != null && r.cable_id == null).map((r) => Number(r.id));
  if (!ids.length) return new Map();
  const res =
    await sql<Row>`select i.id, case when l.interface_a_id = i.id then l.interface_b_id else l.interface_a_id end as peer
    from dcim_interface i join wireless_wirelesslink l on l.id = i.wireless_link_id where i.id = any(${ids}::bigint[])`.execute(
      rc.q,
    );
  return new Map(res.rows.map((r) => [Number(r.id), [{ type: INTERFACE, id: Number(r.peer) }]]));
}

/**
 * Fills the cable fields of a page of one cabled kind: `cable` as an id in the brief form,
 * `_occupied` outside the nested form, and in the full form the link peers and (for path
 * endpoints) the connected endpoints read from the stored paths (paths/README.md). A few
 * statements for the page, whatever its size: cable states, far ends, paths, then one batch of
 * renders per kind of object shown.
 */
export async function representCabled(
  rc: RequestContext,
  type: string,
  rows: Row[],
  out: Row[],
  mode: string,
  endpoint: boolean,
): Promise<{ status: Map<number, string> }> {
  const cableIds = [...new Set(rows.filter((r) => r.cable_id != null).map((r) => Number(r.cable_id)))];
  const cabledIds = rows.filter((r) => r.cable_id != null).map((r) => Number(r.id));
  const status = mode === 'nested' ? await loadCableStatus(rc, cableIds) : new Map<number, string>();
  if (mode !== 'full' && rc.dialect === '4.4') {
    // NetBox 4.4's brief and nested forms show the cable nested (as the plan rendered it) and _occupied
    if (planRender(rc.app.registry.get(type), mode as 'brief', { dialect: '4.4' }).keys.includes('_occupied'))
      rows.forEach((r, i) => (out[i]!._occupied = occupied(r)));
    return { status };
  }
  if (mode !== 'full') {
    // the nested form is the brief one unless the model says otherwise (interfaces: spec, Representations)
    const model = rc.app.registry.get(type);
    const nestedOccupied = (model.nested ?? model.brief).includes('_occupied');
    const nestedCableId = !!model.fields.cable!.shapeIn?.nested;
    rows.forEach((r, i) => {
      const o = out[i]!;
      if (mode === 'brief' || nestedCableId) o.cable = r.cable_id == null ? null : Number(r.cable_id);
      if (mode === 'brief' || nestedOccupied) o._occupied = occupied(r);
    });
    return { status };
  }
  const peerRefs = await linkPeerRefs(rc, type, cabledIds);
  for (const [id, refs] of await wirelessPeerRefs(rc, rows)) peerRefs.set(id, refs);
  const paths = endpoint
    ? await loadPaths(rc, [...new Set(rows.filter((r) => r._path_id != null).map((r) => Number(r._path_id)))])
    : new Map<number, StoredPath>();
  const destinations = new Map(rows.map((r) => [Number(r.id), destinationsOf(paths.get(Number(r._path_id)))]));
  const objects = await renderObjects(rc, [...[...peerRefs.values()].flat(), ...[...destinations.values()].flat()]);
  const peers = nestPeers(peerRefs, objects);
  rows.forEach((r, i) => {
    const o = out[i]!;
    o._occupied = occupied(r);
    const p = peers.get(Number(r.id));
    o.link_peers = p?.peers ?? [];
    o.link_peers_type = p?.type ?? null;
    if (!endpoint) return;
    // NetBox 3.4: null without destinations; reachable = the path is complete and active (null without a path)
    const ends = destinations.get(Number(r.id))!;
    const shown = ends.map((d) => objects.get(`${d.type}:${d.id}`)).filter((x): x is Row => x !== undefined);
    const path = paths.get(Number(r._path_id));
    o.connected_endpoints = shown.length ? shown : null;
    o.connected_endpoints_type = shown.length ? ends[0]!.type : null;
    o.connected_endpoints_reachable = path ? path.is_complete && path.is_active : null;
  });
  return { status };
}

/** the nested form's connection_status (spec: Representations): the cable's status, or null */
export function connectionStatus(cableId: unknown, status: Map<number, string>): unknown {
  return cableId == null ? null : renderChoice({ kind: 'choice', choices: LinkStatus }, status.get(Number(cableId)));
}
