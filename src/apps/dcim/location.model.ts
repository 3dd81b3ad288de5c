/**
 * Locations (reference 3.1): a tree of rooms, floors or cages inside one site. Name and slug are
 * unique among siblings of the same site; a parent must be in the same site.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { descendantsSql } from '../../core/represent/load-related.js';
import { comments, description, fk, name, slug } from '../fields.js';
import { SiteStatus } from './choices.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { siteScope, viaPair } from '../../core/query/filter-blocks.js';

export const location = defineModel({
  name: 'dcim.location',
  path: 'locations',
  verboseName: 'location',
  fields: {
    name: name(100),
    slug: slug(100),
    // NetBox 3.4: locations go with their site (CASCADE)
    site: fk('dcim.site', { required: true, nullable: false, onDelete: 'cascade' }),
    parent: fk('dcim.location', { onDelete: 'cascade', treeFilter: true }),
    status: { kind: 'choice', choices: SiteStatus, default: 'active' },
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    // NetBox 4.0: a local facility name or ID, shown in the 4.4 dialect only
    facility: { kind: 'string', maxLength: 50, help: 'Local facility ID or description', dialect: '4.4' },
    description: description(),
    // NetBox 4.3: comments, shown in the 4.4 dialect only
    comments: { ...comments(), dialect: '4.4' },
  },
  treeParent: 'parent',
  counts: {
    rack_count: { model: 'dcim.rack', via: 'location', cumulative: true },
    device_count: { model: 'dcim.device', via: 'location', cumulative: true },
  },
  uniqueTogether: [
    // NetBox 3.4: Django's unique_error_message for the plain constraints, the constraint's own
    // violation_error_message for the top-level ones
    { fields: ['site', 'parent', 'name'] },
    { fields: ['site', 'parent', 'slug'] },
    {
      fields: ['site', 'name'],
      whenNull: ['parent'],
      message: 'A location with this name already exists within the specified site.',
    },
    {
      fields: ['site', 'slug'],
      whenNull: ['parent'],
      message: 'A location with this slug already exists within the specified site.',
    },
  ],
  filters: {
    ...contactFilters(),
    ...siteScope(['site']),
    ...viaPair('tenant_group', ['tenant', 'group']),
  },
  hooks: {
    async validate({ rc, data, before }) {
      if (data.parent_id == null) return;
      const parent = await sql<{
        site_id: number;
      }>`select site_id from dcim_location where id = ${data.parent_id}`.execute(rc.q);
      // NetBox 3.4: the parent must belong to the same site
      if (Number(parent.rows[0]?.site_id) !== Number(data.site_id)) {
        return { parent: ['Parent location must belong to the same site.'] };
      }
      if (!before) return;
      const loop =
        await sql`select id from ${descendantsSql(rc.app.registry.get('dcim.location'), sql`select ${before.id}::bigint`)} d
        where id = ${data.parent_id}`.execute(rc.q);
      if (loop.rows.length) return { parent: ['Cannot assign self or child as parent.'] };
    },
  },
  ui: {
    columns: ['name', 'site', 'status', 'tenant', 'rack_count', 'device_count', 'description'],
    clone: ['site', 'parent', 'status', 'tenant', 'description'],
    groups: [
      { title: 'Location', fields: ['site', 'parent', 'name', 'slug', 'status', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    pickerFilters: { parent: { site_id: 'site' } },
    related: [
      { model: 'dcim.rack', param: 'location_id' },
      { model: 'dcim.device', param: 'location_id' },
      { model: 'dcim.powerpanel', param: 'location_id' },
      { model: 'ipam.vlangroup', param: 'location' },
    ],
  },
  brief: ['name', 'slug', 'rack_count', '_depth'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'rack_count', '_depth'] },
  ordering: ['site', 'name'],
  search: ['name', 'slug', 'description'],
});
