/**
 * The standard data set's shape (seed-standard.ts) written as bulk SQL: one `insert ... select
 * from generate_series` per table, for data sets too big to load through the API in minutes
 * (the scale data set: 1,000,000 addresses). Same rows, same ids, same order as seed-standard.ts
 * makes them through the API with one client, so the two can be compared response for response
 * (test/api/bench/scale-seed.test.ts).
 *
 * What the API's write path stores, and how it is matched here (read from the models' hooks and
 * src/core/crud/write-service.ts):
 * - columns written: the fields seed-standard.ts sends; every other column takes its column
 *   default, as insertRows (src/db/bulk-insert.ts) leaves unsent columns to their defaults:
 *   created / last_updated now(), custom_field_data '{}' (no custom fields are defined);
 * - stored generated columns (`_name_natural`, dcim_device.device_role_id) fill themselves;
 * - prepare hooks change nothing for these values (empty asset_tag -> null, dns_name lower case:
 *   ours are already lower case); device afterCreate instantiates components from the type's
 *   templates (none here); interface afterWrite syncs tagged VLANs (none); no cables, so no
 *   cable paths; prefix depth/children and address family are computed on read, not stored;
 * - NOT written: the change log (extras_objectchange) and the event outbox, which the API path
 *   fills on every create. Bench data needs neither; a read never looks at them.
 * Ids are given explicitly (the sequences are moved past them afterwards), so a row's id is its
 * position in seed-standard.ts's creation order.
 */
import type { StandardSizes } from './seed-standard.js';

export interface SqlStep {
  what: string;
  objects: number;
  sql: string;
}

/** the catalogue seed-standard.ts creates whatever the size */
const MANUFACTURERS = 10;
const DEVICE_TYPES = 20;
const ROLES = ['core', 'spine', 'leaf', 'access', 'oob'];

/** seed.ts's pad() in SQL: zeros on the left up to `width`, never cut (lpad alone would cut) */
const padded = (expr: string, width: number) =>
  `lpad((${expr})::text, greatest(${width}, length((${expr})::text)), '0')`;

/** the first two octets of /16 number `x` (seed-standard.ts octetsOf) as an SQL expression */
function octetsSql(size: StandardSizes, x: string): string {
  const ten = size.tenSlash16s ?? 256;
  return `case when ${x} < ${ten} then '10.' || ${x} else '11.' || (${x} - ${ten}) end`;
}

export function scaleCounts(size: StandardSizes) {
  const sites = size.regions * size.sitesPerRegion;
  const racks = sites * size.racksPerSite;
  const devices = racks * size.devicesPerRack;
  const prefixes = size.slash16s * size.per16;
  return {
    regions: size.regions,
    sites,
    racks,
    devices,
    interfaces: devices * size.interfacesPerDevice,
    vlanGroups: size.vlanGroups,
    vlans: size.vlanGroups * size.vlansPerGroup,
    prefixes,
    addresses: prefixes * size.addressesPer24,
  };
}

/** The statements, in dependency order; each inserts one table's rows. */
export function scaleSeedStatements(size: StandardSizes): SqlStep[] {
  const n = scaleCounts(size);
  if (size.slash16s > 2 * (size.tenSlash16s ?? 256))
    throw new Error('slash16s: at most two /8s of /16s (10/8 and 11/8)');
  const S = n.sites;
  const steps: SqlStep[] = [
    {
      what: 'regions',
      objects: n.regions,
      sql: `insert into dcim_region (id, name, slug)
      select i + 1, 'Region ' || i, 'region-' || i from generate_series(0, ${n.regions - 1}) i`,
    },
    // site n = region i * sitesPerRegion + j, region id i + 1
    {
      what: 'sites',
      objects: S,
      sql: `insert into dcim_site (id, name, slug, region_id, status)
      select s + 1, 'Site ' || ${padded('s', 3)}, 'site-' || s, s / ${size.sitesPerRegion} + 1, 'active' from generate_series(0, ${S - 1}) s`,
    },
    {
      what: 'racks',
      objects: n.racks,
      sql: `insert into dcim_rack (id, name, site_id, u_height)
      select r + 1, 'R' || ${padded(`r / ${size.racksPerSite}`, 3)} || '-' || (r % ${size.racksPerSite}), r / ${size.racksPerSite} + 1, 42
      from generate_series(0, ${n.racks - 1}) r`,
    },
    {
      what: 'manufacturers',
      objects: MANUFACTURERS,
      sql: `insert into dcim_manufacturer (id, name, slug)
      select i + 1, 'Vendor ' || i, 'vendor-' || i from generate_series(0, ${MANUFACTURERS - 1}) i`,
    },
    {
      what: 'device types',
      objects: DEVICE_TYPES,
      sql: `insert into dcim_devicetype (id, manufacturer_id, model, slug, u_height)
      select i + 1, i % ${MANUFACTURERS} + 1, 'Model ' || i, 'model-' || i, 1 from generate_series(0, ${DEVICE_TYPES - 1}) i`,
    },
    {
      what: 'device roles',
      objects: ROLES.length,
      sql: `insert into dcim_devicerole (id, name, slug, color)
      select i, r, r, '2196f3' from unnest(array[${ROLES.map((r) => `'${r}'`).join(', ')}]) with ordinality as t(r, i)`,
    },
    // device d = rack r * devicesPerRack + p, at position p + 1 of rack r
    {
      what: 'devices',
      objects: n.devices,
      sql: `insert into dcim_device (id, name, site_id, rack_id, position, face, device_type_id, role_id, status)
      select d + 1, 'dev-' || ${padded('d', 5)}, d / ${size.devicesPerRack * size.racksPerSite} + 1, d / ${size.devicesPerRack} + 1,
        d % ${size.devicesPerRack} + 1, 'front', d % ${DEVICE_TYPES} + 1, d % ${ROLES.length} + 1, 'active'
      from generate_series(0, ${n.devices - 1}) d`,
    },
    {
      what: 'interfaces',
      objects: n.interfaces,
      sql: `insert into dcim_interface (id, device_id, name, type)
      select i + 1, i / ${size.interfacesPerDevice} + 1, 'eth' || (i % ${size.interfacesPerDevice}), '10gbase-x-sfpp'
      from generate_series(0, ${n.interfaces - 1}) i`,
    },
    // group g scoped to site g % sites
    {
      what: 'VLAN groups',
      objects: n.vlanGroups,
      sql: `insert into ipam_vlangroup (id, name, slug, scope_type, scope_id)
      select g + 1, 'VLANs ' || ${padded('g', 2)}, 'vlans-' || g, 'dcim.site', g % ${S} + 1 from generate_series(0, ${n.vlanGroups - 1}) g`,
    },
    {
      what: 'VLANs',
      objects: n.vlans,
      sql: `insert into ipam_vlan (id, vid, name, group_id, status)
      select i + 1, 100 + i % ${size.vlansPerGroup}, 'vlan-' || (i / ${size.vlansPerGroup}) || '-' || (i % ${size.vlansPerGroup}),
        i / ${size.vlansPerGroup} + 1, 'active' from generate_series(0, ${n.vlans - 1}) i`,
    },
    { what: 'prefixes', objects: n.prefixes, sql: prefixesSql(size, S) },
    // address k: /24 number k / addressesPer24, host k % addressesPer24 + 1, on interface (k / 2) % interfaces
    {
      what: 'IP addresses',
      objects: n.addresses,
      sql: `insert into ipam_ipaddress (id, address, status, dns_name, assigned_object_type, assigned_object_id)
      select k + 1, (${octetsSql(size, 'x')} || '.' || y || '.' || h || '/24')::inet, 'active',
        'h' || h || '.n' || y || '.x' || x || '.example.net', 'dcim.interface', (k / 2) % ${n.interfaces} + 1
      from (select k, (k / ${size.addressesPer24}) / ${size.per16} as x, (k / ${size.addressesPer24}) % ${size.per16} as y,
        k % ${size.addressesPer24} + 1 as h from generate_series(0, ${n.addresses - 1}) k) a`,
    },
  ];
  return steps;
}

/**
 * Prefix j = x * per16 + y, at site s = j % sites with a VLAN of that site: seed-standard.ts lists
 * the site's VLANs in creation order (groups s, s + S, s + 2S ..., each with its VLANs) and picks
 * number y % (that list's length); none when the site has no group.
 */
function prefixesSql(size: StandardSizes, S: number): string {
  const G = size.vlanGroups;
  const V = size.vlansPerGroup;
  // groups of site s: those g < G with g % S = s
  const groupsOf = `(case when s < ${G} then (${G} - 1 - s) / ${S} + 1 else 0 end)`;
  return `insert into ipam_prefix (id, prefix, status, site_id, vlan_id)
    select j + 1, (${octetsSql(size, 'x')} || '.' || y || '.0/24')::cidr, 'active', s + 1,
      case when own > 0 then (s + ((y % own) / ${V}) * ${S}) * ${V} + (y % own) % ${V} + 1 end
    from (select j, x, y, s, ${groupsOf} * ${V} as own
      from (select j, j / ${size.per16} as x, j % ${size.per16} as y, j % ${S} as s
        from generate_series(0, ${size.slash16s * size.per16 - 1}) j) a) b`;
}

/** After explicit ids: each sequence continues after the largest id, as after API creates. */
export const SEQUENCE_TABLES = [
  'dcim_region',
  'dcim_site',
  'dcim_rack',
  'dcim_manufacturer',
  'dcim_devicetype',
  'dcim_devicerole',
  'dcim_device',
  'dcim_interface',
  'ipam_vlangroup',
  'ipam_vlan',
  'ipam_prefix',
  'ipam_ipaddress',
];

export function sequenceStatements(tables: string[] = SEQUENCE_TABLES): string[] {
  return tables.map(
    (t) => `select setval(pg_get_serial_sequence('${t}', 'id'), coalesce((select max(id) from ${t}), 0) + 1, false)`,
  );
}
