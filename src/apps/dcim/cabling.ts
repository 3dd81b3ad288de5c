/**
 * Cable terminations (reference 3.2, NetBox 3.3+ CableTermination): each end of a cable (A, B)
 * is a list of `{object_type, object_id}`. One row per terminated object in dcim_cabletermination,
 * unique per object, so an object belongs to one cable. A database trigger copies the cable and
 * end onto the terminated object's `cable_id` / `cable_end` columns (and clears them when the row
 * goes), so deleting a cable frees its interfaces without application code.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { isCableable } from './choices.js';
import { incompatibility } from './cable-compatibility.js';
import type { Row } from '../../core/model/types.js';

export type End = 'A' | 'B';
export const ENDS: Array<[End, string]> = [
  ['A', 'a_terminations'],
  ['B', 'b_terminations'],
];

/** Object types a cable may end on, and their tables (the sync trigger knows the same list). */
export const TERMINATION_TYPES: Record<string, string> = {
  'dcim.interface': 'dcim_interface',
  'dcim.consoleport': 'dcim_consoleport',
  'dcim.consoleserverport': 'dcim_consoleserverport',
  'dcim.powerport': 'dcim_powerport',
  'dcim.poweroutlet': 'dcim_poweroutlet',
  'dcim.frontport': 'dcim_frontport',
  'dcim.rearport': 'dcim_rearport',
  'circuits.circuittermination': 'circuits_circuittermination',
  'dcim.powerfeed': 'dcim_powerfeed',
};

/** The shapes of the cable fields cabled objects render (link_peers and the endpoints of a direct cable). */
const PEERS = {
  type: 'array',
  items: { anyOf: Object.keys(TERMINATION_TYPES).map(($model) => ({ $model })) },
} as const;
export const CABLED_SHAPES = {
  peers: PEERS,
  peersType: { type: 'string', enum: Object.keys(TERMINATION_TYPES), nullable: true },
  // a path may also end in a provider network (through a circuit; NetBox 3.4 CablePath)
  endpoints: {
    type: 'array',
    nullable: true,
    items: { anyOf: [...Object.keys(TERMINATION_TYPES), 'circuits.providernetwork'].map(($model) => ({ $model })) },
  },
  endpointsType: {
    type: 'string',
    enum: [...Object.keys(TERMINATION_TYPES), 'circuits.providernetwork'],
    nullable: true,
  },
  reachable: { type: 'boolean', nullable: true },
  occupied: { type: 'boolean' },
} as const;

interface Termination {
  object_type: string;
  object_id: number;
}

type Errors = Record<string, string[]>;

/** Shape check of one end as written; returns the terminations or adds an error. */
function parseEnd(raw: unknown, key: string, errors: Errors): Termination[] | null {
  const fail = (m: string) => {
    (errors[key] ??= []).push(m);
    return null;
  };
  if (!Array.isArray(raw)) return fail('Expected a list of items.');
  const out: Termination[] = [];
  for (const item of raw) {
    const t = item as Record<string, unknown> | null;
    const id = typeof t?.object_id === 'string' && /^\d+$/.test(t.object_id) ? Number(t.object_id) : t?.object_id;
    if (typeof t !== 'object' || t === null || typeof t.object_type !== 'string' || !Number.isSafeInteger(id)) {
      return fail('Each termination needs an object_type ("app.model") and an integer object_id.');
    }
    out.push({ object_type: t.object_type, object_id: id as number });
  }
  return out;
}

/** `object_type:object_id` of every termination the cables of `rows` (as written) end on. */
export function terminationKeys(rows: ReadonlyArray<Row>): Set<string> {
  const keys = new Set<string>();
  for (const row of rows) {
    for (const [, key] of ENDS) {
      if (!Array.isArray(row[key])) continue;
      for (const t of row[key] as Row[]) keys.add(`${String(t?.object_type)}:${Number(t?.object_id)}`);
    }
  }
  return keys;
}

/**
 * Validates the ends a write sends. On create both are required (NetBox: `__all__`); every
 * object must exist, be cableable, and not be on another cable, stored or written before it in
 * the same request (`taken`, from terminationKeys); one object type per end.
 */
export async function validateTerminations(
  rc: RequestContext,
  data: Row,
  cableId: number | null,
  sent: Set<string>,
  taken: Set<string>,
): Promise<Errors> {
  const errors: Errors = {};
  const ends = new Map<End, Termination[]>();
  for (const [end, key] of ENDS) {
    if (!sent.has(key)) continue;
    const list = parseEnd(data[key], key, errors);
    if (list) ends.set(end, list);
  }
  if (Object.keys(errors).length) return errors;
  const missing =
    cableId === null
      ? ENDS.filter(([end]) => !ends.get(end)?.length)
      : ENDS.filter(([end]) => ends.has(end) && !ends.get(end)!.length);
  if (missing.length) return { __all__: ['Must define A and B terminations when creating a new cable.'] };
  const seen = new Set<string>();
  for (const [end, key] of ENDS) {
    const list = ends.get(end);
    if (!list) continue;
    const add = (m: string) => (errors[key] ??= []).push(m);
    if (new Set(list.map((t) => t.object_type)).size > 1)
      add('Cannot connect different termination types to same end of cable.');
    for (const t of list) {
      const table = TERMINATION_TYPES[t.object_type];
      if (!table || !rc.app.registry.find(t.object_type)) {
        add(`Invalid termination type: ${t.object_type}`);
        continue;
      }
      const k = `${t.object_type}:${t.object_id}`;
      if (seen.has(k)) add(`Duplicate termination found for ${k}`);
      else if (taken.has(k)) add(`Duplicate termination found for ${k}: another cable of this request ends on it`);
      seen.add(k);
      const found = await sql<Row>`select * from ${sql.table(table)} where id = ${t.object_id}`.execute(rc.q);
      const obj = found.rows[0];
      if (!obj) {
        add(`Related object not found using the provided value: ${t.object_id}.`);
        continue;
      }
      // NetBox 3.4: virtual and wireless interfaces take no cable
      if (t.object_type === 'dcim.interface' && !isCableable(obj.type))
        add(`Cables cannot be terminated to ${String(obj.type)} interfaces`);
      if (obj.cable_id != null && Number(obj.cable_id) !== cableId)
        add(`Duplicate termination found for ${k}: cable ${String(obj.cable_id)}`);
      // NetBox 3.4 CableTermination.clean()
      if (t.object_type === 'circuits.circuittermination' && obj.provider_network_id != null)
        add('Circuit terminations attached to a provider network may not be cabled.');
    }
  }
  if (Object.keys(errors).length) return errors;
  return checkCompatible(rc, ends, cableId);
}

/** NetBox 3.4 Cable.clean(): the two ends' types must be compatible (an end not written keeps its stored type) */
async function checkCompatible(
  rc: RequestContext,
  ends: Map<End, Termination[]>,
  cableId: number | null,
): Promise<Errors> {
  const typeOf = async (end: End): Promise<string | undefined> => {
    const written = ends.get(end);
    if (written) return written[0]?.object_type;
    if (cableId === null) return undefined;
    const res =
      await sql<Row>`select termination_type from dcim_cabletermination where cable_id = ${cableId} and cable_end = ${end} limit 1`.execute(
        rc.q,
      );
    return res.rows[0]?.termination_type as string | undefined;
  };
  if (!ends.size) return {};
  const [a, b] = [await typeOf('A'), await typeOf('B')];
  const message = a && b ? incompatibility(a, b) : undefined;
  return message ? { __all__: [message] } : {};
}

/** Replaces the terminations of the ends that were written. */
export async function writeTerminations(
  rc: RequestContext,
  cableId: number,
  data: Row,
  sent: Set<string>,
): Promise<void> {
  for (const [end, key] of ENDS) {
    if (!sent.has(key) || !Array.isArray(data[key])) continue;
    const list = (data[key] as Array<Record<string, unknown>>).map((t) => ({
      type: String(t.object_type),
      id: Number(t.object_id),
    }));
    await sql`delete from dcim_cabletermination where cable_id = ${cableId} and (cable_end = ${end}
      or (termination_type, termination_id) in (select * from unnest(${list.map((t) => t.type)}::text[], ${list.map((t) => t.id)}::bigint[])))`.execute(
      rc.q,
    );
    for (const t of list) {
      await sql`insert into dcim_cabletermination (cable_id, cable_end, termination_type, termination_id)
        values (${cableId}, ${end}, ${t.type}, ${t.id})`.execute(rc.q);
    }
  }
}

/** Renders objects of several types in the nested form, keyed `type:id`. */
export async function renderObjects(
  rc: RequestContext,
  refs: Array<{ type: string; id: number }>,
): Promise<Map<string, Row>> {
  const byType = new Map<string, Set<number>>();
  for (const r of refs) byType.set(r.type, (byType.get(r.type) ?? new Set()).add(r.id));
  const out = new Map<string, Row>();
  for (const [type, ids] of byType) {
    const model = rc.app.registry.find(type);
    if (!model) continue;
    for (const o of await render(rc, model, await fetchRowsById(rc, model, [...ids]), 'nested'))
      out.set(`${type}:${String(o.id)}`, o);
  }
  return out;
}

/** a cable's ends as written, each termination with its object nested: cable id -> end -> list */
export async function loadCableEnds(rc: RequestContext, cableIds: number[]): Promise<Map<number, Record<End, Row[]>>> {
  const res = await sql<Row>`select cable_id, cable_end, termination_type, termination_id from dcim_cabletermination
    where cable_id = any(${cableIds}::bigint[]) order by id`.execute(rc.q);
  const objects = await renderObjects(
    rc,
    res.rows.map((r) => ({ type: String(r.termination_type), id: Number(r.termination_id) })),
  );
  const out = new Map<number, Record<End, Row[]>>(cableIds.map((id) => [id, { A: [], B: [] }]));
  for (const r of res.rows) {
    out.get(Number(r.cable_id))![r.cable_end as End].push({
      object_type: r.termination_type,
      object_id: Number(r.termination_id),
      object: objects.get(`${String(r.termination_type)}:${String(r.termination_id)}`) ?? null,
    });
  }
  return out;
}

/** The far ends of cabled objects of one type, unrendered: id -> [{type, id}] in termination order */
export async function linkPeerRefs(
  rc: RequestContext,
  type: string,
  ids: number[],
): Promise<Map<number, Array<{ type: string; id: number }>>> {
  const out = new Map<number, Array<{ type: string; id: number }>>();
  if (!ids.length) return out;
  const res =
    await sql<Row>`select near.termination_id as near_id, far.termination_type as type, far.termination_id as far_id
    from dcim_cabletermination near join dcim_cabletermination far on far.cable_id = near.cable_id and far.cable_end <> near.cable_end
    where near.termination_type = ${type} and near.termination_id = any(${ids}::bigint[]) order by far.id`.execute(
      rc.q,
    );
  for (const r of res.rows) {
    const list = out.get(Number(r.near_id)) ?? [];
    list.push({ type: String(r.type), id: Number(r.far_id) });
    out.set(Number(r.near_id), list);
  }
  return out;
}

/** The far-end objects of cabled objects of one type: id -> {type, peers (nested)} */
export async function loadLinkPeers(
  rc: RequestContext,
  type: string,
  ids: number[],
): Promise<Map<number, { type: string; peers: Row[] }>> {
  const refs = await linkPeerRefs(rc, type, ids);
  const objects = await renderObjects(rc, [...refs.values()].flat());
  return nestPeers(refs, objects);
}

/** peers as rendered: id -> {type, peers} */
export function nestPeers(
  refs: Map<number, Array<{ type: string; id: number }>>,
  objects: Map<string, Row>,
): Map<number, { type: string; peers: Row[] }> {
  const out = new Map<number, { type: string; peers: Row[] }>();
  for (const [id, list] of refs) {
    const peers = list.map((r) => objects.get(`${r.type}:${r.id}`)).filter((o): o is Row => o !== undefined);
    out.set(id, { type: list[0]!.type, peers });
  }
  return out;
}

/** status of each cable: id -> status value */
export async function loadCableStatus(rc: RequestContext, cableIds: number[]): Promise<Map<number, string>> {
  if (!cableIds.length) return new Map();
  const res = await sql<Row>`select id, status from dcim_cable where id = any(${cableIds}::bigint[])`.execute(rc.q);
  return new Map(res.rows.map((r) => [Number(r.id), String(r.status)]));
}
