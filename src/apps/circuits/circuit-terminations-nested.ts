/**
 * The `termination_a` / `termination_z` objects of a page of circuits (NetBox 3.4
 * CircuitCircuitTerminationSerializer): id, url, display, site, provider_network, port_speed,
 * upstream_speed, xconnect_id, description. One query for the page's terminations, then one
 * batched render per nested parent model, so the statement count does not grow with the page.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { detailUrl } from '../../core/urls.js';
import type { Row } from '../../core/model/types.js';

const PARENTS = [
  ['site', 'dcim.site'],
  ['provider_network', 'circuits.providernetwork'],
] as const;

/** The shape of one rendered side (the OpenAPI document reads it from the circuit's declaration). */
export const TERMINATION_SHAPE = {
  type: 'object',
  nullable: true,
  properties: {
    id: { type: 'integer' },
    url: { type: 'string', format: 'uri' },
    display: { type: 'string' },
    site: { $model: 'dcim.site', nullable: true },
    provider_network: { $model: 'circuits.providernetwork', nullable: true },
    port_speed: { type: 'integer', nullable: true },
    upstream_speed: { type: 'integer', nullable: true },
    xconnect_id: { type: 'string' },
    description: { type: 'string' },
  },
  required: [
    'id',
    'url',
    'display',
    'site',
    'provider_network',
    'port_speed',
    'upstream_speed',
    'xconnect_id',
    'description',
  ],
  additionalProperties: false,
} as const;

/** `<circuit id>:<side>` -> nested termination */
export async function renderTerminationsOf(rc: RequestContext, circuits: Row[]): Promise<Map<string, Row>> {
  const out = new Map<string, Row>();
  const ids = circuits.map((c) => Number(c.id));
  if (!ids.length) return out;
  const res =
    await sql<Row>`select * from circuits_circuittermination where circuit_id = any(${ids}::bigint[])`.execute(rc.q);
  if (!res.rows.length) return out;
  const cidOf = new Map(circuits.map((c) => [Number(c.id), String(c.cid)]));
  const model = rc.app.registry.get('circuits.circuittermination');
  const nested = new Map<string, Map<number, Row>>();
  for (const [key, to] of PARENTS) {
    const target = rc.app.registry.get(to);
    const want = [
      ...new Set(
        res.rows
          .map((r) => r[`${key}_id`])
          .filter((v) => v != null)
          .map(Number),
      ),
    ];
    const rendered = await render(rc, target, await fetchRowsById(rc, target, want), 'nested');
    nested.set(key, new Map(rendered.map((r) => [Number(r.id), r])));
  }
  for (const t of res.rows) {
    const id = Number(t.id);
    const obj: Row = {
      id,
      url: detailUrl(rc.baseUrl, model, id),
      display: `${cidOf.get(Number(t.circuit_id))}: Termination ${t.term_side}`,
    };
    for (const [key] of PARENTS) {
      const fid = t[`${key}_id`];
      obj[key] = fid == null ? null : (nested.get(key)!.get(Number(fid)) ?? null);
    }
    obj.port_speed = t.port_speed ?? null;
    obj.upstream_speed = t.upstream_speed ?? null;
    obj.xconnect_id = t.xconnect_id ?? '';
    obj.description = t.description ?? '';
    out.set(`${t.circuit_id}:${t.term_side}`, obj);
  }
  return out;
}
