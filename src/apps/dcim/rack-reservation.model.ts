/**
 * Rack reservations (reference 3.2): units of one rack held for a user. Units are a list of
 * integers within the rack's height, stored sorted and without duplicates.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, fk } from '../fields.js';
import { RackReservationStatus } from './netbox4-choices.js';
import { siteScope, viaPair } from '../../core/query/filter-blocks.js';

function checkUnits(v: unknown): string | undefined {
  if (!Array.isArray(v)) return `Expected a list of items but got type "${typeof v}".`;
  if (v.length === 0) return 'This list may not be empty.';
  if (!v.every((u) => Number.isInteger(typeof u === 'string' && /^\d+$/.test(u) ? Number(u) : u)))
    return 'A valid integer is required.';
  return undefined;
}

export const rackReservation = defineModel({
  name: 'dcim.rackreservation',
  path: 'rack-reservations',
  verboseName: 'rack reservation',
  fields: {
    rack: fk('dcim.rack', { required: true, nullable: false, onDelete: 'cascade', relatedName: 'reservations' }),
    units: { kind: 'json', required: true, validate: checkUnits },
    tenant: fk('tenancy.tenant', { onDelete: 'protect', relatedName: 'rackreservations' }),
    user: fk('users.user', { required: true, nullable: false, onDelete: 'protect' }),
    // NetBox 4.4, shown in the 4.4 dialect only
    status: { kind: 'choice', choices: RackReservationStatus, default: 'active', dialect: '4.4' },
    description: { kind: 'string', required: true, maxLength: 200 },
    comments: comments(),
  },
  relatedObject: 'rack',
  filters: {
    ...viaPair('site', ['rack', 'site']),
    ...viaPair('location', ['rack', 'location']),
    ...siteScope(['rack', 'site']),
    ...viaPair('tenant_group', ['tenant', 'group']),
  },
  hooks: {
    async validate({ rc, data }) {
      const units = (data.units as unknown[]).map(Number);
      const r = await sql<{
        u_height: number;
        starting_unit: number;
      }>`select u_height, starting_unit from dcim_rack where id = ${data.rack_id}`.execute(rc.q);
      const height = Number(r.rows[0]?.u_height ?? 0);
      // NetBox 3.4 RackReservation.clean(): every unit must exist in the rack (4.1: from its starting unit)
      const start = Number(r.rows[0]?.starting_unit ?? 1);
      const bad = units.filter((u) => u < start || u > start + height - 1);
      if (bad.length) return { units: [`Invalid unit(s) for ${height}U rack: ${bad.join(', ')}`] };
    },
    prepare({ data }) {
      if (Array.isArray(data.units)) data.units = [...new Set(data.units.map(Number))].sort((a, b) => a - b);
    },
    async represent(rc, rows, out) {
      // NetBox: "Reservation for rack <rack>"
      const ids = [...new Set(rows.map((r) => Number(r.rack_id)))];
      const racks = await sql<{
        id: number;
        name: string;
      }>`select id, name from dcim_rack where id = any(${ids}::bigint[])`.execute(rc.q);
      const names = new Map(racks.rows.map((r) => [Number(r.id), r.name]));
      rows.forEach((r, i) => (out[i]!.display = `Reservation for rack ${names.get(Number(r.rack_id)) ?? r.rack_id}`));
    },
  },
  display: (row) => `Reservation ${row.id}`,
  ui: {
    columns: ['id', 'rack', 'units', 'user', 'description'],
    clone: ['rack', 'user', 'tenant'],
    groups: [
      { title: 'Reservation', fields: ['rack', 'units', 'user', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  brief: ['user', 'units'],
  // NetBox 4.4: status in the brief form beside description (#15238)
  netbox44: { brief: ['units', 'status', 'user', 'description'] },
  ordering: ['created', 'id'],
  search: ['description', 'comments'],
});
