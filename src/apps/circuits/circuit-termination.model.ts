/**
 * Circuit terminations (reference 3.4): the A or Z end of a circuit, at a site or in a provider
 * network (exactly one of them), one per side. Deleting a circuit deletes its terminations
 * (cascade, logged by the engine); sites and provider networks in use are protected.
 * The cable fields (`cable_id`, `cable_end`) are kept by dcim cabling (a trigger on
 * dcim_cabletermination); peers come from dcim/cabling.ts, loaded once per page. `term_side` is a bare "A"/"Z" on the wire (reference 2, unwrapped choices), so it is a
 * string field checked against the choice set, with its own exact/`__n` filter.
 */
import { sql } from 'kysely';
import { Errors } from '../../core/errors.js';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { CABLED_SHAPES, loadLinkPeers } from '../dcim/cabling.js';
import { retraceAfterDelete, retraceCircuit } from '../dcim/paths/upkeep.js';
import { description, fk } from '../fields.js';
import { TerminationSide } from './choices.js';
import { syncTermination, terminationFields, terminationPlaceFilters } from './termination-place.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { booleanFilter } from '../../core/query/filter-blocks.js';

const notAChoice = (v: unknown) =>
  TerminationSide.labels.has(v as string) ? undefined : `"${String(v)}" is not a valid choice.`;

const termSideFilter: CustomFilter = {
  lookups: ['n'],
  type: 'string',
  async build(values, lookup) {
    const bad = values.find((v) => !TerminationSide.labels.has(v));
    if (bad !== undefined)
      throw Errors.invalidFilter(
        lookup === 'n' ? 'term_side__n' : 'term_side',
        `Select a valid choice. ${bad} is not one of the available choices.`,
      );
    return lookup === 'n' ? sql`not (t.term_side = any(${values}))` : sql`t.term_side = any(${values})`;
  },
};

export const circuitTermination = defineModel({
  name: 'circuits.circuittermination',
  path: 'circuit-terminations',
  verboseName: 'circuit termination',
  fields: {
    circuit: fk('circuits.circuit', {
      required: true,
      nullable: false,
      onDelete: 'cascade',
      relatedName: 'terminations',
    }),
    term_side: { kind: 'string', required: true, label: 'termination', validate: notAChoice, noFilter: true },
    site: fk('dcim.site', { onDelete: 'protect' }),
    provider_network: fk('circuits.providernetwork', { onDelete: 'protect' }),
    // NetBox 4.2: what it ends at (termination-place.ts); 3.4's site / provider_network follow it
    ...terminationFields(),
    port_speed: { kind: 'integer', nullable: true, min: 0, label: 'port speed (Kbps)' },
    upstream_speed: {
      kind: 'integer',
      nullable: true,
      min: 0,
      label: 'upstream speed (Kbps)',
      help: 'Upstream speed, if different from port speed',
    },
    xconnect_id: { kind: 'string', maxLength: 50, label: 'cross-connect ID' },
    pp_info: { kind: 'string', maxLength: 100, label: 'patch panel/port(s)' },
    description: description(),
    mark_connected: { kind: 'boolean', default: false },
    // NetBox 3.4 nested serializers give the cable as its id; the full form nests it
    cable: {
      kind: 'computed',
      readOnly: true,
      shape: { $model: 'dcim.cable', nullable: true },
      shapeIn: { brief: { type: 'integer', nullable: true }, nested: { type: 'integer', nullable: true } },
    },
    cable_end: { kind: 'string', readOnly: true, maxLength: 1 },
    link_peers: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.peers },
    link_peers_type: { kind: 'computed', readOnly: true, shape: CABLED_SHAPES.peersType },
    _occupied: { kind: 'computed', readOnly: true, label: 'occupied', shape: CABLED_SHAPES.occupied },
  },
  uniqueTogether: [{ fields: ['circuit', 'term_side'] }],
  relatedObject: 'circuit',
  filters: {
    term_side: termSideFilter,
    ...terminationPlaceFilters(),
    cabled: booleanFilter((t) => sql`${sql.ref(`${t}.cable_id`)} is not null`),
    occupied: booleanFilter((t) => sql`(${sql.ref(`${t}.cable_id`)} is not null or ${sql.ref(`${t}.mark_connected`)})`),
    // NetBox 3.4 searches the circuit ID, cross-connect, patch panel and description
    q: {
      async build(values) {
        const q = searchTerm(values);
        if (!q) return null;
        const p = `%${likeEscape(q)}%`;
        const op = likeFor(q);
        return sql`(t.xconnect_id ${op} ${p} or t.pp_info ${op} ${p} or t.description ${op} ${p}
          or t.circuit_id in (select id from circuits_circuit where cid ${op} ${p}))`;
      },
    },
  },
  display: (row) => `Termination ${row.term_side}`,
  hooks: {
    // stored cable paths cross circuits from one side to the other (dcim/paths/README.md)
    async afterWrite({ rc, row }) {
      await retraceCircuit(rc, Number(row.circuit_id));
    },
    afterDelete: retraceAfterDelete('circuits.circuittermination'),
    async validate({ rc, data, before, sent }) {
      await syncTermination(rc, data, before, sent);
      // exactly one place to end in (reference 3.4); NetBox 4.2 adds regions, site groups and locations
      if (data.site_id != null && data.provider_network_id != null)
        return { __all__: ['A circuit termination cannot have both a site and a provider network.'] };
      if (data.termination_type == null || data.termination_id == null)
        return { __all__: ['A circuit termination needs a site or a provider network.'] };
      return undefined;
    },
    // the termination and 3.4's site / provider_network in step (termination-place.ts)
    prepare: ({ rc, data, before, sent }) => syncTermination(rc, data, before, sent),
    async represent(rc, rows, out, { mode }) {
      const cableModel = rc.app.registry.find('dcim.cable');
      const cables = new Map<number, Row>();
      const cabled = rows.filter((r) => r.cable_id != null);
      const cableIds = [...new Set(cabled.map((r) => Number(r.cable_id)))];
      let peers = new Map<number, { type: string; peers: Row[] }>();
      if (mode === 'full' && cableModel && cableIds.length) {
        for (const c of await render(rc, cableModel, await fetchRowsById(rc, cableModel, cableIds), 'nested'))
          cables.set(Number(c.id), c);
        peers = await loadLinkPeers(
          rc,
          'circuits.circuittermination',
          cabled.map((r) => Number(r.id)),
        );
      }
      rows.forEach((r, i) => {
        const o = out[i]!;
        // NetBox: "<cid>: Termination A"; the circuit is nested in every form
        const cid = (o.circuit as Row | null)?.display;
        if (cid !== undefined) o.display = `${String(cid)}: Termination ${r.term_side}`;
        o._occupied = r.cable_id != null || r.mark_connected === true;
        // NetBox 3.4 nested serializers give the cable as its id; the full form nests it
        if (mode !== 'full') {
          o.cable = r.cable_id == null ? null : Number(r.cable_id);
          return;
        }
        o.cable = r.cable_id == null ? null : (cables.get(Number(r.cable_id)) ?? null);
        const p = peers.get(Number(r.id));
        o.link_peers = p?.peers ?? [];
        o.link_peers_type = p?.type ?? null;
      });
    },
  },
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { circuit: 'cid' },
    // NetBox 4.4 shows the termination object by default
    columns: ['id', 'circuit', 'term_side', 'site', 'provider_network', 'termination', 'description'],
    groups: [
      {
        title: 'Circuit Termination',
        fields: [
          'circuit',
          'term_side',
          'description',
          'site',
          'provider_network',
          'termination_type',
          'termination_id',
          'termination',
          'mark_connected',
        ],
      },
      { title: 'Termination Details', fields: ['port_speed', 'upstream_speed', 'xconnect_id', 'pp_info'] },
    ],
  },
  brief: ['circuit', 'term_side', 'cable', '_occupied'],
  // NetBox 4.2 replaced site / provider_network with the termination
  netbox44: {
    brief: ['circuit', 'term_side', 'description', 'cable', '_occupied'],
    hidden: ['site', 'provider_network'],
  },
  ordering: ['circuit', 'term_side'],
  search: ['xconnect_id', 'pp_info', 'description'],
});
