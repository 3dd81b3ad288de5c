/**
 * Power feeds (NetBox 3.4 PowerFeed): an electrical circuit from a power panel, optionally to a
 * rack of the panel's site. Cabled to power ports, and a path endpoint (cabled-fields.ts).
 * `available_power` (VA) is stored on save as NetBox does (|voltage| x amperage x utilisation,
 * x 1.732 for three-phase) and, as in NetBox 3.4's serializer, not rendered. `tenant` is NetBox
 * 3.5's addition (its filters are in netbox-filters.md).
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';
import { cabledFields, cabledFilters, occupiedField, pathEndpointFields, representCabled } from './cabled-fields.js';
import { PowerFeedPhase, PowerFeedStatus, PowerFeedSupply, PowerFeedType } from './power-choices.js';
import { siteScope, viaPair } from '../../core/query/filter-blocks.js';

/** NetBox 3.4 PowerFeed.save() */
function availablePower(voltage: number, amperage: number, maxUtilization: number, phase: string): number {
  const kva = Math.abs(voltage) * amperage * (maxUtilization / 100);
  return Math.round(phase === 'three-phase' ? kva * 1.732 : kva);
}

export const powerFeed = defineModel({
  name: 'dcim.powerfeed',
  path: 'power-feeds',
  verboseName: 'power feed',
  fields: {
    power_panel: fk('dcim.powerpanel', {
      required: true,
      nullable: false,
      onDelete: 'protect',
      relatedName: 'powerfeeds',
    }),
    rack: fk('dcim.rack', { onDelete: 'protect', relatedName: 'powerfeeds' }),
    name: name(100),
    status: { kind: 'choice', choices: PowerFeedStatus, default: 'active' },
    type: { kind: 'choice', choices: PowerFeedType, default: 'primary' },
    supply: { kind: 'choice', choices: PowerFeedSupply, default: 'ac' },
    phase: { kind: 'choice', choices: PowerFeedPhase, default: 'single-phase' },
    // NetBox 3.4: POWERFEED_DEFAULT_VOLTAGE / _AMPERAGE / _MAX_UTILIZATION; 0 V is refused (ExclusionValidator)
    voltage: {
      kind: 'integer',
      default: 120,
      min: -32768,
      max: 32767,
      validate: (v) => (Number(v) === 0 ? 'This value may not be 0.' : undefined),
    },
    amperage: { kind: 'integer', default: 20, min: 1, max: 32767 },
    max_utilization: { kind: 'integer', default: 80, min: 1, max: 100, help: 'Maximum permissible draw (percentage)' },
    ...cabledFields(),
    ...pathEndpointFields(),
    description: description(),
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    comments: comments(),
    _occupied: occupiedField(),
  },
  uniqueTogether: [
    { fields: ['power_panel', 'name'], message: 'Power feed with this Power panel and Name already exists.' },
  ],
  filters: {
    ...viaPair('site', ['power_panel', 'site']),
    ...siteScope(['power_panel', 'site']),
    ...viaPair('tenant_group', ['tenant', 'group']),
    ...cabledFilters(true),
  },
  hooks: {
    async validate({ rc, data }) {
      const errors: Record<string, string[]> = {};
      // NetBox 3.4 PowerFeed.clean(): AC voltage cannot be negative
      if (Number(data.voltage) < 0 && data.supply === 'ac')
        errors.voltage = ['Voltage cannot be negative for AC supply'];
      if (data.rack_id != null && data.power_panel_id != null) {
        // ...and the rack must be in the panel's site
        const res = await sql<{
          rack: string;
          rack_site_id: number;
          rack_site: string;
          panel: string;
          panel_site_id: number;
          panel_site: string;
        }>`
          select r.name as rack, r.site_id as rack_site_id, rs.name as rack_site, p.name as panel, p.site_id as panel_site_id, ps.name as panel_site
          from dcim_rack r join dcim_site rs on rs.id = r.site_id, dcim_powerpanel p join dcim_site ps on ps.id = p.site_id
          where r.id = ${data.rack_id} and p.id = ${data.power_panel_id}`.execute(rc.q);
        const x = res.rows[0];
        if (x && Number(x.rack_site_id) !== Number(x.panel_site_id)) {
          errors.__all__ = [
            `Rack ${x.rack} (${x.rack_site}) and power panel ${x.panel} (${x.panel_site}) are in different sites`,
          ];
        }
      }
      return errors;
    },
    prepare({ data, before }) {
      const v = { ...(before ?? {}), ...data };
      data.available_power = availablePower(
        Number(v.voltage ?? 120),
        Number(v.amperage ?? 20),
        Number(v.max_utilization ?? 80),
        String(v.phase ?? 'single-phase'),
      );
    },
    async represent(rc, rows, out, { mode }) {
      await representCabled(rc, 'dcim.powerfeed', rows, out, mode, true);
    },
  },
  ui: {
    columns: [
      'name',
      'power_panel',
      'rack',
      'status',
      'type',
      'supply',
      'voltage',
      'amperage',
      'phase',
      'cable',
      'link_peers',
    ],
    clone: [
      'power_panel',
      'rack',
      'status',
      'type',
      'mark_connected',
      'supply',
      'phase',
      'voltage',
      'amperage',
      'max_utilization',
      'tenant',
    ],
    groups: [
      {
        title: 'Power Feed',
        fields: ['power_panel', 'rack', 'name', 'status', 'type', 'description', 'mark_connected'],
      },
      { title: 'Characteristics', fields: ['supply', 'voltage', 'amperage', 'phase', 'max_utilization'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  brief: ['name', 'cable', '_occupied'],
  // NetBox 4.0: in the full form's order (#15238)
  netbox44: { brief: ['name', 'cable', 'description', '_occupied'] },
  ordering: ['power_panel', 'name'],
  search: ['name', 'description', 'comments'],
});
