/**
 * Bulk creates whose two items are the same object where a uniqueness rule applies (a unique field,
 * a unique set of fields, a rule of the model's own validation): each must be a 400 on the
 * duplicate item, and nothing may be stored. Every other part of each body is valid, on the
 * objects hostile-seed.ts created.
 */
import { type Api, call } from './http.js';
import type { HostileCase } from './hostile-cases.js';
import { seeded } from './hostile-seed.js';

type Body = Record<string, unknown>;

let n = 0;
const fresh = (p: string) => `${p}-${process.pid}-${Date.now() % 1e6}-${++n}`;
const named = (p: string): Body => {
  const v = fresh(p);
  return { name: v, slug: v };
};
/** a number nothing else in the sweep uses (ASNs, VLAN ids, octets) */
const number = (lo: number, span: number) => lo + ((process.pid * 7 + ++n * 13) % span);

/**
 * list path -> a valid body whose duplicate a uniqueness rule refuses, and the query that finds what
 * it would have created.
 */
const DUPLICABLE: Record<string, () => { body: Body; find: string }> = {
  '/api/dcim/regions/': () => slugged('region'),
  '/api/dcim/site-groups/': () => slugged('sgroup'),
  '/api/dcim/sites/': () => slugged('site'),
  '/api/dcim/locations/': () => slugged('loc', { site: seeded.site }),
  '/api/dcim/manufacturers/': () => slugged('mfr'),
  '/api/dcim/device-roles/': () => slugged('drole'),
  '/api/dcim/platforms/': () => slugged('platform'),
  '/api/tenancy/tenants/': () => slugged('tenant'),
  '/api/tenancy/tenant-groups/': () => slugged('tgroup'),
  '/api/extras/tags/': () => slugged('tag'),
  '/api/ipam/roles/': () => slugged('role'),
  '/api/ipam/rirs/': () => slugged('rir'),
  // NetBox 3.4: unique per scope (groups without one are not constrained)
  '/api/ipam/vlan-groups/': () => slugged('vgroup', { scope_type: 'dcim.site', scope_id: seeded.site }),
  '/api/circuits/providers/': () => slugged('provider'),
  '/api/circuits/circuit-types/': () => slugged('ctype'),
  '/api/virtualization/cluster-types/': () => slugged('ktype'),
  '/api/virtualization/cluster-groups/': () => slugged('kgroup'),
  '/api/dcim/device-types/': () => {
    const model = fresh('type');
    return { body: { model, slug: model, manufacturer: seeded.manufacturer }, find: `slug=${model}` };
  },
  // NetBox 3.4: a rack name is unique per location (racks outside a location are not constrained)
  '/api/dcim/racks/': () => byName('rack', { site: seeded.site, location: seeded.location }),
  '/api/dcim/devices/': () =>
    byName('dev', { site: seeded.site, device_type: seeded.deviceType, device_role: seeded.deviceRole }),
  '/api/dcim/interfaces/': () => byName('eth', { device: seeded.device, type: '1000base-t' }),
  '/api/virtualization/virtual-machines/': () => byName('vm', { cluster: seeded.cluster }),
  '/api/circuits/circuits/': () => {
    const cid = fresh('cid');
    return { body: { cid, provider: seeded.provider, type: seeded.circuitType }, find: `cid=${cid}` };
  },
  '/api/ipam/vlans/': () => {
    const vid = number(2000, 2000);
    return {
      body: { name: fresh('vlan'), vid, group: seeded.vlanGroup },
      find: `vid=${vid}&group_id=${seeded.vlanGroup}`,
    };
  },
  '/api/ipam/asns/': () => {
    const asn = number(4_200_000_000, 90_000_000);
    return { body: { asn, rir: seeded.rir }, find: `asn=${asn}` };
  },
  '/api/ipam/vrfs/': () => {
    const rd = fresh('rd');
    return { body: { name: fresh('vrf'), rd }, find: `rd=${rd}` };
  },
  '/api/ipam/route-targets/': () => byName('rt', {}),
  '/api/ipam/aggregates/': () => {
    const prefix = `100.${number(64, 60)}.${number(0, 250)}.0/24`;
    return { body: { prefix, rir: seeded.rir }, find: `prefix=${prefix}` };
  },
  // duplicates inside a VRF that enforces unique space (the seeded one does)
  '/api/ipam/prefixes/': () => {
    const prefix = `192.168.${number(0, 250)}.0/24`;
    return { body: { prefix, vrf: seeded.vrf }, find: `prefix=${prefix}&vrf_id=${seeded.vrf}` };
  },
  '/api/ipam/ip-addresses/': () => {
    const address = `192.0.${number(0, 250)}.${number(1, 250)}/32`;
    return { body: { address, vrf: seeded.vrf }, find: `address=${address}&vrf_id=${seeded.vrf}` };
  },
  '/api/users/users/': () => {
    const username = fresh('user');
    return { body: { username, password: 'x-Long-enough-1' }, find: `username=${username}` };
  },
  '/api/users/groups/': () => byName('group', {}),
};

function slugged(prefix: string, extra: Body = {}) {
  const body = { ...named(prefix), ...extra };
  return { body, find: `slug=${body.slug}` };
}

function byName(prefix: string, extra: Body) {
  const name = fresh(prefix);
  return { body: { name, ...extra }, find: `name=${name}` };
}

/** The duplicate create of one endpoint, or null where the sweep knows no uniqueness rule for it. */
export function duplicateCase(
  api: Api,
  send: (method: string, path: string, body?: string) => Buffer,
  path: string,
): HostileCase | null {
  const make = DUPLICABLE[path];
  if (!make) return null;
  const { body, find } = make();
  return {
    name: `bulk create of a duplicate ${JSON.stringify(body).slice(0, 60)}`,
    cls: 'bulk duplicate',
    // the second item's answer names what it duplicates (a field, or __all__ for a set of them)
    names: [...Object.keys(body), '__all__', 'non_field_errors'],
    bytes: send('POST', path, JSON.stringify([body, body])),
    snapshot: async () => async () => {
      const found = await call<{ count: number }>(api, 'GET', `${path}?${find}`);
      return found.count ? `${path} stored ${found.count} of a refused duplicate` : null;
    },
  };
}

export const duplicablePaths = () => Object.keys(DUPLICABLE);
