/**
 * Seeds the standard data set (`--dataset standard`): the data set NetBox 3.7.8's reference figures
 * were measured on (docs/performance.md), loaded as that measurement loaded it: bulk POSTs of lists
 * of 100, two clients at once. The steps' objects/s is the "bulk load" row of its table.
 *
 * - 5 regions, 20 sites (4 per region), 100 racks (5 per site), 10 manufacturers, 20 device types
 *   (1U), 5 device roles;
 * - 1,000 devices, racked: 10 per rack at positions 1-10, front;
 * - 10,000 interfaces (10 per device);
 * - 50 VLAN groups (scoped to sites, 2 or 3 per site), 2,000 VLANs (40 per group);
 * - 2,000 prefixes 10.<x>.<y>.0/24 (x 0-7, y 0-249), each with a site and a VLAN of that site;
 * - 20,000 IP addresses, 10 per /24, 2 per interface, each with a dns_name.
 * `--small` seeds a tenth of the devices, interfaces, prefixes and addresses.
 */
import type { Api } from './http.js';
import { bulkCreate, type Obj, pad, type SeedStep } from './seed.js';
import { verifyCounts } from './seed-ipam.js';

/** the reference bulk load: lists of 100, two clients */
const LIST = 100;
const CLIENTS = 2;

export interface StandardSizes {
  regions: number;
  sitesPerRegion: number;
  racksPerSite: number;
  devicesPerRack: number;
  interfacesPerDevice: number;
  vlanGroups: number;
  vlansPerGroup: number;
  /** /24s: x in [0, slash16s), y in [0, per16) */
  slash16s: number;
  per16: number;
  addressesPer24: number;
  /**
   * /16s taken from 10.0.0.0/8 before going on in 11.0.0.0/8 (default 256: all of 10/8). The scale
   * data set's 400 /16s need both; the small verify size sets it low to cover the switch.
   */
  tenSlash16s?: number;
}

/** the first two octets of /16 number `x`: 10.x, then 11.(x - tenSlash16s) */
export function octetsOf(size: StandardSizes, x: number): string {
  const ten = size.tenSlash16s ?? 256;
  return x < ten ? `10.${x}` : `11.${x - ten}`;
}

export const STANDARD_FULL: StandardSizes = {
  regions: 5,
  sitesPerRegion: 4,
  racksPerSite: 5,
  devicesPerRack: 10,
  interfacesPerDevice: 10,
  vlanGroups: 50,
  vlansPerGroup: 40,
  slash16s: 8,
  per16: 250,
  addressesPer24: 10,
};
export const STANDARD_SMALL: StandardSizes = { ...STANDARD_FULL, devicesPerRack: 1, vlansPerGroup: 4, per16: 25 };

export interface SeededStandard {
  steps: SeedStep[];
  deviceIds: number[];
  /** the q= value and parent= prefix of the reference table (docs/performance.md) */
  searchQ: string;
  parent16: string;
  summary: string;
}

/** `clients`: requests in flight (the reference's 2; with 1, ids follow the input order: test/api/bench/scale-seed.test.ts) */
export async function seedStandard(
  api: Api,
  size: StandardSizes,
  log: (s: string) => void = console.log,
  clients = CLIENTS,
): Promise<SeededStandard> {
  const steps: SeedStep[] = [];
  const create = async (path: string, objects: Array<Record<string, unknown>>, what: string): Promise<Obj[]> => {
    const out = await bulkCreate(api, path, objects, what, steps, clients, LIST);
    const s = steps[steps.length - 1]!;
    log(
      `  seeded ${what.padEnd(16)} ${String(s.objects).padStart(6)} objects in ${s.requests} request(s), ${s.seconds.toFixed(2)} s = ${Math.round(s.objectsPerSec)} objects/s`,
    );
    return out;
  };

  const regions = await create(
    '/api/dcim/regions/',
    Array.from({ length: size.regions }, (_, i) => ({ name: `Region ${i}`, slug: `region-${i}` })),
    'regions',
  );
  const sites = await create(
    '/api/dcim/sites/',
    regions.flatMap((r, i) =>
      Array.from({ length: size.sitesPerRegion }, (_, j) => {
        const n = i * size.sitesPerRegion + j;
        return { name: `Site ${pad(n, 3)}`, slug: `site-${n}`, region: r.id, status: 'active' };
      }),
    ),
    'sites',
  );
  const racks = await create(
    '/api/dcim/racks/',
    sites.flatMap((s, i) =>
      Array.from({ length: size.racksPerSite }, (_, r) => ({ name: `R${pad(i, 3)}-${r}`, site: s.id, u_height: 42 })),
    ),
    'racks',
  );
  const mfrs = await create(
    '/api/dcim/manufacturers/',
    Array.from({ length: 10 }, (_, i) => ({ name: `Vendor ${i}`, slug: `vendor-${i}` })),
    'manufacturers',
  );
  const types = await create(
    '/api/dcim/device-types/',
    Array.from({ length: 20 }, (_, i) => ({
      manufacturer: mfrs[i % mfrs.length]!.id,
      model: `Model ${i}`,
      slug: `model-${i}`,
      u_height: 1,
    })),
    'device types',
  );
  const roles = await create(
    '/api/dcim/device-roles/',
    ['core', 'spine', 'leaf', 'access', 'oob'].map((r) => ({ name: r, slug: r, color: '2196f3' })),
    'device roles',
  );

  const devices = await create(
    '/api/dcim/devices/',
    racks.flatMap((rack, r) =>
      Array.from({ length: size.devicesPerRack }, (_, p) => {
        const d = r * size.devicesPerRack + p;
        return {
          name: `dev-${pad(d, 5)}`,
          site: sites[Math.floor(r / size.racksPerSite)]!.id,
          rack: rack.id,
          position: p + 1,
          face: 'front',
          device_type: types[d % types.length]!.id,
          role: roles[d % roles.length]!.id,
          status: 'active',
        };
      }),
    ),
    'devices',
  );
  const interfaces = await create(
    '/api/dcim/interfaces/',
    devices.flatMap((dev) =>
      Array.from({ length: size.interfacesPerDevice }, (_, j) => ({
        device: dev.id,
        name: `eth${j}`,
        type: '10gbase-x-sfpp',
      })),
    ),
    'interfaces',
  );

  const groups = await create(
    '/api/ipam/vlan-groups/',
    Array.from({ length: size.vlanGroups }, (_, g) => ({
      name: `VLANs ${pad(g, 2)}`,
      slug: `vlans-${g}`,
      scope_type: 'dcim.site',
      scope_id: sites[g % sites.length]!.id,
    })),
    'VLAN groups',
  );
  const vlans = await create(
    '/api/ipam/vlans/',
    groups.flatMap((g, gi) =>
      Array.from({ length: size.vlansPerGroup }, (_, v) => ({
        vid: 100 + v,
        name: `vlan-${gi}-${v}`,
        group: g.id,
        status: 'active',
      })),
    ),
    'VLANs',
  );
  // the site of each group, to pair a prefix with a VLAN of its own site
  const groupSite = groups.map((_, g) => g % sites.length);
  const vlansOfSite = new Map<number, Obj[]>();
  vlans.forEach((v, i) => {
    const s = groupSite[Math.floor(i / size.vlansPerGroup)]!;
    vlansOfSite.set(s, [...(vlansOfSite.get(s) ?? []), v]);
  });

  const prefixes: Array<Record<string, unknown>> = [];
  for (let x = 0; x < size.slash16s; x++) {
    for (let y = 0; y < size.per16; y++) {
      const s = (x * size.per16 + y) % sites.length;
      const own = vlansOfSite.get(s) ?? [];
      prefixes.push({
        prefix: `${octetsOf(size, x)}.${y}.0/24`,
        status: 'active',
        site: sites[s]!.id,
        ...(own.length ? { vlan: own[y % own.length]!.id } : {}),
      });
    }
  }
  await create('/api/ipam/prefixes/', prefixes, 'prefixes');

  const addresses: Array<Record<string, unknown>> = [];
  for (let x = 0; x < size.slash16s; x++) {
    for (let y = 0; y < size.per16; y++) {
      for (let h = 1; h <= size.addressesPer24; h++) {
        const iface = interfaces[Math.floor(addresses.length / 2) % interfaces.length]!;
        addresses.push({
          address: `${octetsOf(size, x)}.${y}.${h}/24`,
          status: 'active',
          dns_name: `h${h}.n${y}.x${x}.example.net`,
          assigned_object_type: 'dcim.interface',
          assigned_object_id: iface.id,
        });
      }
    }
  }
  await create('/api/ipam/ip-addresses/', addresses, 'IP addresses');

  await verifyCounts(api, {
    'dcim/devices': devices.length,
    'dcim/interfaces': interfaces.length,
    'ipam/vlans': vlans.length,
    'ipam/prefixes': prefixes.length,
    'ipam/ip-addresses': addresses.length,
  });
  const total = steps.reduce((n, s) => n + s.objects, 0);
  const seconds = steps.reduce((n, s) => n + s.seconds, 0);
  steps.push({
    what: 'bulk load, all steps',
    objects: total,
    requests: steps.reduce((n, s) => n + s.requests, 0),
    seconds,
    objectsPerSec: total / seconds,
  });
  log(
    `  bulk load (lists of ${LIST}, ${clients} client(s)): ${total.toLocaleString('en')} objects in ${seconds.toFixed(1)} s = ${Math.round(total / seconds)} objects/s`,
  );
  return {
    steps,
    deviceIds: devices.map((d) => d.id),
    searchQ: '10.1.',
    parent16: '10.1.0.0/16',
    summary:
      `${sites.length} sites, ${racks.length} racks, ${devices.length.toLocaleString('en')} devices, ${interfaces.length.toLocaleString('en')} interfaces, ` +
      `${vlans.length.toLocaleString('en')} VLANs, ${prefixes.length.toLocaleString('en')} prefixes, ${addresses.length.toLocaleString('en')} IP addresses`,
  };
}
