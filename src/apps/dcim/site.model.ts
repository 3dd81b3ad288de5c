import { defineModel } from '../../core/model/define-model.js';
import { relatedFilter } from '../../core/query/related-filter.js';
import { comments, description, fk, name, slug } from '../fields.js';
import { siteAsns, siteSearch } from '../ipam/asn-relations.js';
import { SiteStatus } from './choices.js';
import { contactFilters } from '../tenancy/contact-filters.js';

const SEARCH = ['name', 'slug', 'facility', 'description', 'physical_address', 'shipping_address', 'comments'];

export const site = defineModel({
  name: 'dcim.site',
  path: 'sites',
  verboseName: 'site',
  fields: {
    name: name(100, { unique: true, natural: true }),
    slug: slug(100, { unique: true }),
    status: { kind: 'choice', choices: SiteStatus, default: 'active' },
    region: fk('dcim.region', { treeFilter: true }),
    group: fk('dcim.sitegroup', { treeFilter: true }),
    // NetBox: a tenant with sites cannot be deleted
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    facility: { kind: 'string', maxLength: 50 },
    time_zone: { kind: 'string', maxLength: 63, nullable: true, validate: validTimeZone },
    description: description(),
    physical_address: { kind: 'string', maxLength: 200 },
    shipping_address: { kind: 'string', maxLength: 200 },
    latitude: { kind: 'decimal', nullable: true, decimalPlaces: 6, min: -90, max: 90 },
    longitude: { kind: 'decimal', nullable: true, decimalPlaces: 6, min: -180, max: 180 },
    comments: comments(),
    asns: siteAsns.field,
  },
  filters: {
    ...contactFilters(),
    tenant_group: relatedFilter(['tenant', 'group']),
    tenant_group_id: relatedFilter(['tenant', 'group'], { byId: true }),
    ...siteAsns.filters,
    q: siteSearch(SEARCH),
  },
  // NetBox 3.4 SiteSerializer: read-only counts (the Ansible inventory plugin reads prefix_count);
  // a circuit counts once per termination at the site, as NetBox's count over the join does
  counts: {
    circuit_count: { through: { table: 'circuits_circuittermination', column: 'site_id' }, kept: true },
    device_count: { model: 'dcim.device', via: 'site', kept: true },
    prefix_count: { model: 'ipam.prefix', via: 'site', kept: true },
    rack_count: { model: 'dcim.rack', via: 'site', kept: true },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'site', kept: true },
    vlan_count: { model: 'ipam.vlan', via: 'site', kept: true },
  },
  ui: {
    columns: ['name', 'status', 'facility', 'region', 'group', 'tenant', 'description'],
    // what a site holds, each a paginated list (the related counts link to the full lists)
    tabs: [
      { slug: 'racks', model: 'dcim.rack', param: 'site_id', countKey: 'rack_count' },
      { slug: 'devices', model: 'dcim.device', param: 'site_id', countKey: 'device_count' },
      { slug: 'prefixes', model: 'ipam.prefix', param: 'site_id', countKey: 'prefix_count' },
      { slug: 'vlans', model: 'ipam.vlan', param: 'site_id', countKey: 'vlan_count', label: 'VLANs' },
      { slug: 'circuits', model: 'circuits.circuit', param: 'site_id' },
      {
        slug: 'virtual-machines',
        model: 'virtualization.virtualmachine',
        param: 'site_id',
        countKey: 'virtualmachine_count',
      },
    ],
    clone: [
      'status',
      'region',
      'group',
      'tenant',
      'facility',
      'time_zone',
      'physical_address',
      'shipping_address',
      'latitude',
      'longitude',
      'description',
    ],
    groups: [
      {
        title: 'Site',
        fields: ['name', 'slug', 'status', 'region', 'group', 'facility', 'asns', 'time_zone', 'description'],
      },
      { title: 'Tenancy', fields: ['tenant'] },
      { title: 'Contact Info', fields: ['physical_address', 'shipping_address', 'latitude', 'longitude'] },
    ],
    related: [
      { model: 'dcim.location', param: 'site_id' },
      { model: 'dcim.rack', param: 'site_id' },
      { model: 'dcim.device', param: 'site_id' },
      { model: 'dcim.powerpanel', param: 'site_id' },
      { model: 'ipam.vlan', param: 'site_id' },
      { model: 'virtualization.virtualmachine', param: 'site_id' },
      { model: 'ipam.asn', param: 'site_id' },
      { model: 'circuits.circuit', param: 'site_id' },
      { model: 'virtualization.cluster', param: 'site_id' },
      { model: 'ipam.prefix', param: 'site_id' },
      { model: 'circuits.circuittermination', param: 'site_id' },
      { model: 'ipam.vlangroup', param: 'site' },
    ],
  },
  brief: ['name', 'slug'],
  ordering: ['name'],
  search: SEARCH,
});

function validTimeZone(v: unknown): string | undefined {
  if (v === '' || v === null) return undefined;
  try {
    new Intl.DateTimeFormat('en', { timeZone: String(v) });
    return undefined;
  } catch {
    return `"${String(v)}" is not a valid choice.`;
  }
}
