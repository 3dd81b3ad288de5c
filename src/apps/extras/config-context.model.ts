/**
 * Config contexts (reference 3.6; NetBox 3.4 extras.ConfigContext): JSON data given to the devices
 * and virtual machines its assignments match, merged by weight then name into their rendered
 * `config_context` (config-context-render.ts). Each assignment kind is an m2m; an empty kind
 * matches every object. `tags` here is an assignment too (a list of tag slugs both ways, NetBox
 * 3.4 SlugRelatedField), not tagging of the context itself, which NetBox 3.4 does not have.
 */
import { defineModel } from '../../core/model/define-model.js';
import type { FieldDef } from '../../core/model/types.js';
import { description, name } from '../fields.js';
import { membershipFilter } from '../users/membership-filter.js';
import { isJsonObject } from './deep-merge.js';
import { profileSchema, schemaViolation } from '../json-schema.js';
import {
  prepareSyncedData,
  registerSyncedData,
  syncedDataFields,
  syncedDataFilters,
  validateSyncedData,
} from '../core/synced-data.js';

// NetBox 3.7: the data may come from a YAML or JSON data file
const SYNCED = registerSyncedData('extras.configcontext', { target: 'data', kind: 'object' });

/** an assignment m2m through extras_configcontext_<field>, to the target's `<column>` */
const assigned = (to: string, field: string, column: string, label?: string): FieldDef => ({
  kind: 'm2m',
  to,
  ...(label ? { label } : {}),
  through: { table: `extras_configcontext_${field}`, from: 'configcontext_id', to: column },
});

/** what a context is assigned to: the edit form's Assignment fields, copied by Clone (NetBox 4.4) */
const ASSIGNMENT = [
  'regions',
  'site_groups',
  'sites',
  'locations',
  'device_types',
  'roles',
  'platforms',
  'cluster_types',
  'cluster_groups',
  'clusters',
  'tenant_groups',
  'tenants',
  'tags',
];

export const configContext = defineModel({
  name: 'extras.configcontext',
  path: 'config-contexts',
  verboseName: 'config context',
  fields: {
    name: name(100, { unique: true }),
    // NetBox 3.4: PositiveSmallIntegerField
    weight: { kind: 'integer', default: 1000, min: 0, max: 32767 },
    // NetBox 4.4, shown in the 4.4 dialect only: the data must satisfy the profile's schema
    profile: { kind: 'fk', to: 'extras.configcontextprofile', nullable: true, onDelete: 'protect', dialect: '4.4' },
    description: description(),
    is_active: { kind: 'boolean', default: true },
    regions: assigned('dcim.region', 'regions', 'region_id'),
    site_groups: assigned('dcim.sitegroup', 'site_groups', 'sitegroup_id', 'site groups'),
    sites: assigned('dcim.site', 'sites', 'site_id'),
    locations: assigned('dcim.location', 'locations', 'location_id'),
    device_types: assigned('dcim.devicetype', 'device_types', 'devicetype_id', 'device types'),
    roles: assigned('dcim.devicerole', 'roles', 'devicerole_id'),
    platforms: assigned('dcim.platform', 'platforms', 'platform_id'),
    cluster_types: assigned('virtualization.clustertype', 'cluster_types', 'clustertype_id', 'cluster types'),
    cluster_groups: assigned('virtualization.clustergroup', 'cluster_groups', 'clustergroup_id', 'cluster groups'),
    clusters: assigned('virtualization.cluster', 'clusters', 'cluster_id'),
    tenant_groups: assigned('tenancy.tenantgroup', 'tenant_groups', 'tenantgroup_id', 'tenant groups'),
    tenants: assigned('tenancy.tenant', 'tenants', 'tenant_id'),
    tags: { ...assigned('extras.tag', 'tags', 'tag_id'), slugField: 'slug' },
    // NetBox 3.4 ConfigContext.clean(): the data must be a JSON object
    data: {
      kind: 'json',
      required: true,
      validate: (v) => (isJsonObject(v) ? undefined : 'JSON data must be in object form.'),
    },
    ...syncedDataFields(),
  },
  hooks: {
    async validate(args) {
      const synced = await validateSyncedData(SYNCED, args);
      if (synced) return synced;
      // NetBox 4.4 ConfigContext.clean()
      const schema = await profileSchema(args.rc, 'extras_configcontextprofile', args.data.profile_id);
      const problem = schema == null ? undefined : schemaViolation(args.data.data, schema);
      if (problem) return { __all__: [`Data does not conform to profile schema: ${problem}`] };
    },
    prepare: (args) => prepareSyncedData(SYNCED, args),
  },
  // reference: netbox-filters, /api/extras/config-contexts/
  filters: {
    ...syncedDataFilters(),
    region: membershipFilter('regions', 'slug'),
    region_id: membershipFilter('regions', 'id'),
    site_group: membershipFilter('site_groups', 'slug'),
    site_group_id: membershipFilter('site_groups', 'id'),
    site: membershipFilter('sites', 'slug'),
    site_id: membershipFilter('sites', 'id'),
    location: membershipFilter('locations', 'slug'),
    location_id: membershipFilter('locations', 'id'),
    device_type_id: membershipFilter('device_types', 'id'),
    role: membershipFilter('roles', 'slug'),
    role_id: membershipFilter('roles', 'id'),
    platform: membershipFilter('platforms', 'slug'),
    platform_id: membershipFilter('platforms', 'id'),
    cluster_type: membershipFilter('cluster_types', 'slug'),
    cluster_type_id: membershipFilter('cluster_types', 'id'),
    cluster_group: membershipFilter('cluster_groups', 'slug'),
    cluster_group_id: membershipFilter('cluster_groups', 'id'),
    cluster_id: membershipFilter('clusters', 'id'),
    tenant_group: membershipFilter('tenant_groups', 'slug'),
    tenant_group_id: membershipFilter('tenant_groups', 'id'),
    tenant: membershipFilter('tenants', 'slug'),
    tenant_id: membershipFilter('tenants', 'id'),
    tag: membershipFilter('tags', 'slug'),
    tag_id: membershipFilter('tags', 'id'),
  },
  tags: false,
  customFields: false,
  ui: {
    columns: ['name', 'weight', 'is_active', 'description'],
    clone: ['weight', 'is_active', ...ASSIGNMENT, 'data'],
    groups: [
      { title: 'Config Context', fields: ['name', 'weight', 'profile', 'description', 'data', 'is_active'] },
      { title: 'Data Source', fields: ['data_source', 'data_file', 'auto_sync_enabled'] },
      {
        title: 'Assignment',
        fields: ASSIGNMENT,
      },
    ],
    pickerFilters: { data_file: { source_id: 'data_source' } },
  },
  brief: ['name'],
  ordering: ['weight', 'name'],
  // NetBox 3.4 ConfigContextFilterSet.search: name, description and the data
  search: ['name', 'description', 'data'],
});
