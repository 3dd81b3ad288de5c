/**
 * Racks (reference 3.2): in a site and optionally a location of that site. Names are unique per
 * location; dimensions and weights need a unit.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';
import { DimensionUnit, RackStatus, RackType, RackWidth, WeightUnit } from './choices.js';
import { RackAirflow } from './netbox4-choices.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { iexact, siteScope, viaPair } from '../../core/query/filter-blocks.js';
import { copyRackTypeAttributes } from './rack-type-link.js';

export const rack = defineModel({
  name: 'dcim.rack',
  path: 'racks',
  verboseName: 'rack',
  fields: {
    name: name(100, { natural: true }),
    facility_id: { kind: 'string', maxLength: 50, nullable: true, label: 'facility ID' },
    site: fk('dcim.site', { required: true, nullable: false, onDelete: 'protect' }),
    location: fk('dcim.location', { treeFilter: true }),
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    status: { kind: 'choice', choices: RackStatus, default: 'active' },
    role: fk('dcim.rackrole', { onDelete: 'protect' }),
    serial: { kind: 'string', maxLength: 50, label: 'serial number' },
    asset_tag: { kind: 'string', maxLength: 50, nullable: true, unique: true },
    // NetBox 4.1, shown in the 4.4 dialect only: its attributes are copied (rack-type-link.ts)
    rack_type: fk('dcim.racktype', { onDelete: 'protect', dialect: '4.4' }),
    type: { kind: 'choice', choices: RackType, blank: true },
    width: { kind: 'choice', choices: RackWidth, default: 19, help: 'Rail-to-rail width' },
    u_height: { kind: 'integer', default: 42, min: 1, max: 100, label: 'height (U)' },
    // NetBox 3.7 (after the spec's 3.4): the number of the rack's first unit, shown in 4.4 only;
    // units here still count from 1 (elevations, device positions)
    starting_unit: { kind: 'integer', default: 1, min: 1, max: 32767, help: 'Starting unit for rack', dialect: '4.4' },
    weight: { kind: 'decimal', nullable: true, min: 0, decimalPlaces: 2 },
    max_weight: { kind: 'integer', nullable: true, min: 0 },
    weight_unit: { kind: 'choice', choices: WeightUnit, blank: true },
    desc_units: { kind: 'boolean', default: false, label: 'descending units' },
    outer_width: { kind: 'integer', nullable: true, min: 0 },
    // NetBox 4.3, shown in the 4.4 dialect only
    outer_height: { kind: 'integer', nullable: true, min: 0, max: 32767, dialect: '4.4' },
    outer_depth: { kind: 'integer', nullable: true, min: 0 },
    outer_unit: { kind: 'choice', choices: DimensionUnit, blank: true },
    mounting_depth: { kind: 'integer', nullable: true, min: 0 },
    // NetBox 4.1, shown in the 4.4 dialect only
    airflow: { kind: 'choice', choices: RackAirflow, blank: true, dialect: '4.4' },
    description: description(),
    comments: comments(),
  },
  // reference 3.2: powerfeed_count beside device_count
  counts: {
    device_count: { model: 'dcim.device', via: 'rack' },
    powerfeed_count: { model: 'dcim.powerfeed', via: 'rack' },
  },
  uniqueTogether: [{ fields: ['location', 'name'] }, { fields: ['location', 'facility_id'] }],
  filters: {
    ...contactFilters(),
    ...siteScope(['site']),
    ...viaPair('tenant_group', ['tenant', 'group']),
    serial: iexact('serial'),
  },
  hooks: {
    async validate({ rc, data }) {
      const errors: Record<string, string[]> = {};
      // NetBox 3.4 Rack.clean()
      // NetBox 4.3 counts the outer height in too
      if ((data.outer_width != null || data.outer_depth != null || data.outer_height != null) && !data.outer_unit) {
        errors.outer_unit = ['Must specify a unit when setting an outer width/depth'];
      }
      if ((data.max_weight != null || data.weight != null) && !data.weight_unit) {
        errors.weight_unit = ['Must specify a unit when setting a maximum weight'];
      }
      if (data.location_id != null) {
        const loc = await sql<{
          site_id: number;
        }>`select site_id from dcim_location where id = ${data.location_id}`.execute(rc.q);
        if (Number(loc.rows[0]?.site_id) !== Number(data.site_id))
          errors.location = ['Location must be from the same site as the rack.'];
      }
      return errors;
    },
    async prepare({ rc, data, before }) {
      await copyRackTypeAttributes(rc, data, before);
      // an empty facility ID is no facility ID (it is unique per location)
      if (data.facility_id === '') data.facility_id = null;
      if (data.asset_tag === '') data.asset_tag = null;
    },
  },
  display: (row) => (row.facility_id ? `${row.name} (${row.facility_id})` : String(row.name)),
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { rack_type: 'model' },
    tabs: [
      { slug: 'reservations', model: 'dcim.rackreservation', param: 'rack_id' },
      // NetBox 3.4's rack page lists the rack's devices without a position (dcim/rack.html)
      {
        slug: 'non-racked-devices',
        model: 'dcim.device',
        param: 'rack_id',
        label: 'Non-racked devices',
        filters: { position__empty: 'true' },
        columns: ['name', 'status', 'role', 'device_type', 'parent_device', 'tenant'],
      },
    ],
    // NetBox 4.4's default columns add the rack type
    columns: [
      'name',
      'site',
      'location',
      'status',
      'facility_id',
      'tenant',
      'role',
      'rack_type',
      'u_height',
      'device_count',
    ],
    clone: [
      'site',
      'location',
      'tenant',
      'status',
      'role',
      'type',
      'width',
      'airflow',
      'u_height',
      'desc_units',
      'outer_height',
      'outer_width',
      'outer_depth',
      'outer_unit',
      'mounting_depth',
      'weight',
      'max_weight',
      'weight_unit',
    ],
    groups: [
      // NetBox 4.4's groups: the rack type and airflow join the first, the starting unit and outer height the dimensions
      { title: 'Rack', fields: ['site', 'location', 'name', 'status', 'role', 'rack_type', 'description', 'airflow'] },
      { title: 'Inventory Control', fields: ['facility_id', 'serial', 'asset_tag'] },
      { title: 'Tenancy', fields: ['tenant'] },
      {
        title: 'Dimensions',
        fields: [
          'type',
          'width',
          'starting_unit',
          'u_height',
          'outer_width',
          'outer_height',
          'outer_depth',
          'outer_unit',
          'weight',
          'max_weight',
          'weight_unit',
          'mounting_depth',
          'desc_units',
        ],
      },
    ],
    pickerFilters: { location: { site_id: 'site' } },
    related: [
      { model: 'dcim.rackreservation', param: 'rack_id' },
      { model: 'dcim.device', param: 'rack_id' },
      { model: 'dcim.powerfeed', param: 'rack_id' },
      { model: 'ipam.vlangroup', param: 'rack' },
    ],
  },
  brief: ['name', 'device_count'],
  // NetBox 4.1 renamed the rack's type form_factor (PR #16739)
  netbox44: {
    brief: ['name', 'description', 'device_count'],
    renamed: { type: 'form_factor' },
    // NetBox 4.1: the manufacturer of the rack's type
    filters: viaPair('manufacturer', ['rack_type', 'manufacturer']),
  },
  ordering: ['site', 'location', 'name'],
  search: ['name', 'facility_id', 'serial', 'asset_tag', 'description', 'comments'],
});
