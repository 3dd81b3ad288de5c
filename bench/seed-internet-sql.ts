/**
 * The internet data set (`--dataset internet`) as bulk SQL: 10,000,000 addresses in a prefix
 * hierarchy an operator of an internet-scale network keeps, one `insert ... select from
 * generate_series` per table, ids given explicitly. PostgreSQL and PGlite run it alike; the
 * benchmark runs it on PostgreSQL only (seed-internet.ts).
 *
 * The shape, at FULL size:
 * - RIRs (ARIN, RIPE NCC, APNIC, LACNIC, AFRINIC and RFC 1918), an aggregate per public /8
 *   (31.0.0.0/8 onwards, one RIR each in turn) and 10.0.0.0/8 under RFC 1918;
 * - the global table: each public /8 as a container prefix, 2,000 /16s in them, 100 /24s in each
 *   /16 (each /24 with a site as its scope), 25 addresses in each /24 (.1 - .25);
 * - 20 customer VRFs, each with 10.0.0.0/8 as a container and 100 /16s of it, laid out as above:
 *   the same addresses in every VRF, as VPN customers' private space overlaps;
 * - 4,000 /16s, 400,000 /24s, 10,000,000 addresses; 3 addresses in 10 on an interface (3 per
 *   interface), each address with a DNS name;
 * - the devices and interfaces of seed-scale-sql.ts's shape (50,000 devices, 20 interfaces each).
 * What the API's write path stores is matched as seed-scale-sql.ts says; in addition a /24's site
 * is its scope (scope_type/scope_id, as apps/dcim/scope.ts writes them from `site`), and the kept
 * row and owner counts (migrations 0147-0149) follow from their statement triggers, which fire
 * for these inserts as for the API's.
 */
import { scaleSeedStatements, type SqlStep } from './seed-scale-sql.js';
import type { StandardSizes } from './seed-standard.js';

export interface InternetSizes {
  /** the devices' side (regions .. interfaces), as seed-scale-sql.ts makes it */
  dcim: StandardSizes;
  /** customer VRFs, each with 10.0.0.0/8 and `per8` of its /16s */
  vrfs: number;
  /** /16s in the global table, filling public /8s from 31.0.0.0 on */
  global16s: number;
  /** /16s used of each VRF's 10.0.0.0/8 (at most 256) */
  vrf16s: number;
  /** /24s per /16 (at most 256) and addresses per /24 (at most 254) */
  per16: number;
  per24: number;
  /** of every 10 addresses, how many are on an interface */
  assignedPer10: number;
}

export const FIRST_PUBLIC_OCTET = 31;
export const RIRS = ['ARIN', 'RIPE NCC', 'APNIC', 'LACNIC', 'AFRINIC'];

export function internetCounts(s: InternetSizes) {
  const slash8s = Math.ceil(s.global16s / 256);
  const slash16s = s.global16s + s.vrfs * s.vrf16s;
  const slash24s = slash16s * s.per16;
  const addresses = slash24s * s.per24;
  const interfaces =
    s.dcim.regions * s.dcim.sitesPerRegion * s.dcim.racksPerSite * s.dcim.devicesPerRack * s.dcim.interfacesPerDevice;
  return {
    public8s: slash8s,
    containers: slash8s + s.vrfs,
    slash16s,
    slash24s,
    prefixes: slash8s + s.vrfs + slash16s + slash24s,
    aggregates: slash8s + 1,
    addresses,
    assigned: Math.floor(addresses / 10) * s.assignedPer10 + Math.min(addresses % 10, s.assignedPer10),
    interfaces,
  };
}

/** /16 number x: its VRF id (null: global) and first two octets, as SQL expressions */
function slash16Sql(s: InternetSizes, x: string) {
  const g = s.global16s;
  return {
    vrf: `case when ${x} < ${g} then null else (${x} - ${g}) / ${s.vrf16s} + 1 end`,
    octets: `case when ${x} < ${g} then (${FIRST_PUBLIC_OCTET} + ${x} / 256) || '.' || (${x} % 256)
      else '10.' || ((${x} - ${g}) % ${s.vrf16s}) end`,
  };
}

/** The statements, in dependency order. `chunk`: addresses per statement (progress, bounded transition tables). */
export function internetSeedStatements(s: InternetSizes, chunk = 1_000_000): SqlStep[] {
  if (s.vrf16s > 256 || s.per16 > 256 || s.per24 > 254)
    throw new Error('internet sizes: /16s, /24s or hosts past their block');
  const n = internetCounts(s);
  const sites = s.dcim.regions * s.dcim.sitesPerRegion;
  const dcim = scaleSeedStatements(s.dcim).filter(
    (st) => !['VLAN groups', 'VLANs', 'prefixes', 'IP addresses'].includes(st.what),
  );
  const base16 = n.containers;
  const base24 = base16 + n.slash16s;
  const x16 = slash16Sql(s, 'x');
  const steps: SqlStep[] = [
    ...dcim,
    {
      what: 'RIRs',
      objects: RIRS.length + 1,
      sql: `insert into ipam_rir (id, name, slug, is_private)
      select i, r, lower(replace(r, ' ', '-')), r = 'RFC 1918'
      from unnest(array[${[...RIRS, 'RFC 1918'].map((r) => `'${r}'`).join(', ')}]) with ordinality as t(r, i)`,
    },
    {
      what: 'aggregates',
      objects: n.aggregates,
      sql: `insert into ipam_aggregate (id, prefix, rir_id)
      select a + 1, (${FIRST_PUBLIC_OCTET} + a || '.0.0.0/8')::cidr, a % ${RIRS.length} + 1 from generate_series(0, ${n.public8s - 1}) a
      union all select ${n.aggregates}, '10.0.0.0/8', ${RIRS.length + 1}`,
    },
    {
      what: 'VRFs',
      objects: s.vrfs,
      sql: `insert into ipam_vrf (id, name, rd)
      select v, 'customer-' || lpad(v::text, 3, '0'), '65000:' || v from generate_series(1, ${s.vrfs}) v`,
    },
    {
      what: 'container /8s',
      objects: n.containers,
      sql: `insert into ipam_prefix (id, prefix, vrf_id, status)
      select c + 1, case when c < ${n.public8s} then (${FIRST_PUBLIC_OCTET} + c || '.0.0.0/8')::cidr else '10.0.0.0/8' end,
        case when c < ${n.public8s} then null else c - ${n.public8s} + 1 end, 'container'
      from generate_series(0, ${n.containers - 1}) c`,
    },
    {
      what: '/16 prefixes',
      objects: n.slash16s,
      sql: `insert into ipam_prefix (id, prefix, vrf_id, status)
      select ${base16} + x + 1, (${x16.octets} || '.0.0/16')::cidr, ${x16.vrf}, 'container'
      from generate_series(0, ${n.slash16s - 1}) x`,
    },
    // /24 number j = x * per16 + y, in /16 x; its site j % sites (the scope NetBox 4.2 keeps)
    {
      what: '/24 prefixes',
      objects: n.slash24s,
      sql: `insert into ipam_prefix (id, prefix, vrf_id, status, site_id, scope_type, scope_id)
      select ${base24} + j + 1, (${x16.octets} || '.' || y || '.0/24')::cidr, ${x16.vrf}, 'active',
        j % ${sites} + 1, 'dcim.site', j % ${sites} + 1
      from (select j, j / ${s.per16} as x, j % ${s.per16} as y from generate_series(0, ${n.slash24s - 1}) j) a`,
    },
  ];
  for (let from = 0; from < n.addresses; from += chunk) {
    const to = Math.min(n.addresses, from + chunk) - 1;
    steps.push({ what: 'IP addresses', objects: to - from + 1, sql: addressesSql(s, from, to, n.interfaces) });
  }
  return steps;
}

/**
 * address k: /24 number j = k / per24, host k % per24 + 1, /16 x = j / per16. Addresses with
 * k % 10 < assignedPer10 are on interface (a / 3) % interfaces + 1, a counting those addresses.
 */
function addressesSql(s: InternetSizes, from: number, to: number, interfaces: number): string {
  const x16 = slash16Sql(s, 'x');
  const on = `k % 10 < ${s.assignedPer10}`;
  const a = `(k / 10) * ${s.assignedPer10} + k % 10`;
  return `insert into ipam_ipaddress (id, address, vrf_id, status, dns_name, assigned_object_type, assigned_object_id)
    select k + 1, (${x16.octets} || '.' || y || '.' || h || '/24')::inet, ${x16.vrf}, 'active',
      'h' || h || '.n' || y || '.x' || x || '.example.net',
      case when ${on} then 'dcim.interface' end, case when ${on} then (${a}) / 3 % ${interfaces} + 1 end
    from (select k, (k / ${s.per24}) / ${s.per16} as x, (k / ${s.per24}) % ${s.per16} as y, k % ${s.per24} + 1 as h
      from generate_series(${from}, ${to}) k) a`;
}

export const INTERNET_SEQUENCE_TABLES = ['ipam_rir', 'ipam_aggregate', 'ipam_vrf'];
