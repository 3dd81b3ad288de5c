/**
 * What every cabled kind shares (NetBox 3.4 CabledObjectModel and PathEndpoint): the read-only cable
 * fields, the `cabled` / `occupied` / `connected` filters, and one represent step that fills them for
 * a page at once. Interfaces, console, console server and power ports, power outlets, front and rear
 * ports, power feeds and circuit terminations all declare them from here.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { CustomFilter, FieldDef } from '../../core/model/types.js';
import type { Row } from '../../core/represent/load-related.js';
import { renderChoice } from '../../core/represent/render.js';
import { fk } from '../fields.js';
import { CABLED_SHAPES, loadCableStatus, loadLinkPeers } from './cabling.js';
import { LinkStatus } from './choices.js';
import { booleanFilter } from './filters.js';

const CABLE_ID = { type: 'integer', nullable: true } as const;

/**
 * CabledObjectModel: the cable and its end, the far ends, and `mark_connected` (writable).
 * NetBox 3.4's nested serializers give the cable as its id; the spec nests it in an interface's
 * nested form, so interfaces pass `nestedCable`.
 */
export function cabledFields(opts: { nestedCable?: boolean } = {}): Record<string, FieldDef> {
  return {
    mark_connected: { kind: 'boolean', default: false },
    cable: fk('dcim.cable', { readOnly: true, noFilter: true, shapeIn: opts.nestedCable ? { brief: CABLE_ID } : { brief: CABLE_ID, nested: CABLE_ID } }),
    cable_end: { kind: 'string', readOnly: true, maxLength: 1 },
    link_peers: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.peers },
    link_peers_type: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.peersType },
  };
}

/** PathEndpoint: where the path from this object ends (front and rear ports are not endpoints) */
export function pathEndpointFields(): Record<string, FieldDef> {
  return {
    connected_endpoints: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.endpoints },
    connected_endpoints_type: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.peersType },
    connected_endpoints_reachable: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.reachable },
  };
}

/** `_occupied` (cabled or marked connected); declared last, as NetBox's serializers list it */
export const occupiedField = (): FieldDef => ({ kind: 'computed', readOnly: true, label: 'occupied', shape: CABLED_SHAPES.occupied });

const cabled = (t: string) => sql`${sql.ref(`${t}.cable_id`)} is not null`;

/** NetBox 3.4 CabledObjectFilterSet (`cabled`, `occupied`) and PathEndpointFilterSet (`connected`) */
export function cabledFilters(endpoint: boolean): Record<string, CustomFilter> {
  return {
    cabled: booleanFilter(cabled),
    occupied: booleanFilter((t) => sql`(${cabled(t)} or ${sql.ref(`${t}.mark_connected`)})`),
    ...(endpoint ? { connected: booleanFilter((t) => sql`${sql.ref(`${t}.cable_id`)} in (select id from dcim_cable where status = 'connected')`) } : {}),
  };
}

/**
 * Fills the cable fields of a page of one cabled kind: `cable` as an id in the brief form,
 * `_occupied` outside the nested form, and in the full form the link peers and (for path
 * endpoints) the connected endpoints. Two or three statements for the page, whatever its size.
 */
export async function representCabled(rc: RequestContext, type: string, rows: Row[], out: Row[], mode: string, endpoint: boolean): Promise<{ status: Map<number, string> }> {
  const cableIds = [...new Set(rows.filter((r) => r.cable_id != null).map((r) => Number(r.cable_id)))];
  const cabledIds = rows.filter((r) => r.cable_id != null).map((r) => Number(r.id));
  const status = mode === 'brief' ? new Map<number, string>() : await loadCableStatus(rc, cableIds);
  const peers = mode === 'full' ? await loadLinkPeers(rc, type, cabledIds) : new Map<number, { type: string; peers: Row[] }>();
  // the nested form is the brief one unless the model says otherwise (interfaces: spec, Representations)
  const model = rc.app.registry.get(type);
  const nestedOccupied = (model.nested ?? model.brief).includes('_occupied');
  const nestedCableId = !!model.fields.cable!.shapeIn?.nested;
  rows.forEach((r, i) => {
    const o = out[i]!;
    const cableId = r.cable_id == null ? null : Number(r.cable_id);
    if (mode === 'brief' || (mode === 'nested' && nestedCableId)) o.cable = cableId;
    if (mode === 'nested' && !nestedOccupied) return;
    o._occupied = cableId != null || r.mark_connected === true;
    if (mode === 'nested') return;
    if (mode !== 'full') return;
    const p = peers.get(Number(r.id));
    o.link_peers = p?.peers ?? [];
    o.link_peers_type = p?.type ?? null;
    if (!endpoint) return;
    // a direct cable: the far end is the connected endpoint, reachable when the cable is connected
    o.connected_endpoints = p ? p.peers : null;
    o.connected_endpoints_type = p ? p.type : null;
    o.connected_endpoints_reachable = p ? status.get(cableId!) === 'connected' : null;
  });
  return { status };
}

/** the nested form's connection_status (spec: Representations): the cable's status, or null */
export function connectionStatus(cableId: unknown, status: Map<number, string>): unknown {
  return cableId == null ? null : renderChoice({ kind: 'choice', choices: LinkStatus }, status.get(Number(cableId)));
}
