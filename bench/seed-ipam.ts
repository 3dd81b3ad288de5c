/**
 * Seeds the IPAM data set (`--dataset ipam`) through the REST API, with bulk POSTs of up to 1,000
 * objects, like seed.ts: the real write path (validation, related-object resolution, uniqueness,
 * change log) at 100,000 objects, reported as objects/s per step. The big steps (interfaces,
 * addresses) keep two bulk requests in flight, which PostgreSQL runs side by side (PGlite queues them).
 *
 * Data (full size; `--small` divides it for smoke runs of the harness):
 * - 10 sites, 5 racks each, 1 manufacturer, 5 device types, 4 device roles;
 * - 1,000 devices (100 per site, in racks), each with 20 interfaces (mgmt0 + et-0/0/0..18): 20,000;
 * - 5,000 prefixes: 20 containers 10.<n>.0.0/16, each with 249 children 10.<n>.<0..248>.0/24;
 * - 100,000 addresses: hosts .1-.200 of the first 25 /24s of every /16 (5,000 per /16), with a DNS
 *   name; 2 of every 5 are assigned to an interface (40,000, two per interface), and each device's
 *   first address (on mgmt0) becomes its primary IPv4 (one bulk PATCH);
 * - 5 config contexts of ~220 keys each, assigned by site and role (context-data.ts), so every
 *   device merges three. Skipped with a message when /api/extras/config-contexts/ answers 404.
 */
import { contextData, contextPlans } from './context-data.js';
import { type Api, call } from './http.js';
import { bulkCreate, type Obj, pad, type SeedStep } from './seed.js';

export interface IpamSizes {
  sites: number;
  racksPerSite: number;
  devices: number;
  interfacesPerDevice: number;
  /** /16 containers, each with `childrenPer16` /24s, of which the first `filledPer16` hold `hostsPer24` addresses */
  slash16s: number;
  childrenPer16: number;
  filledPer16: number;
  hostsPer24: number;
}

export const IPAM_FULL: IpamSizes = {
  sites: 10,
  racksPerSite: 5,
  devices: 1000,
  interfacesPerDevice: 20,
  slash16s: 20,
  childrenPer16: 249,
  filledPer16: 25,
  hostsPer24: 200,
};
export const IPAM_SMALL: IpamSizes = {
  sites: 4,
  racksPerSite: 2,
  devices: 100,
  interfacesPerDevice: 20,
  slash16s: 4,
  childrenPer16: 49,
  filledPer16: 5,
  hostsPer24: 200,
};

export interface SeededIpam {
  steps: SeedStep[];
  ipIds: number[];
  /** a /16 container: `ip-addresses/?parent=` matches its filledPer16 x hostsPer24 addresses */
  parent16: string;
  /** a /24 with hostsPer24 addresses used, for available-ips */
  availablePrefix: { id: number; prefix: string };
  /** q= value: an address prefix matching a few hundred addresses */
  searchQ: string;
  /** config contexts created, or null when the endpoint is missing */
  contexts: number | null;
  summary: string;
}

/** 2 of every 5 addresses go to an interface, two per interface: address k -> interface floor(k/5) */
const ASSIGNED_PER_5 = 2;

export async function seedIpam(api: Api, size: IpamSizes, log: (s: string) => void = console.log): Promise<SeededIpam> {
  const steps: SeedStep[] = [];
  const report = () => {
    const s = steps[steps.length - 1]!;
    log(
      `  seeded ${s.what.padEnd(22)} ${String(s.objects).padStart(6)} objects in ${s.requests} request(s), ${s.seconds.toFixed(2)} s = ${Math.round(s.objectsPerSec)} objects/s`,
    );
  };
  const create = async (path: string, objects: Array<Record<string, unknown>>, what: string, concurrency = 1) => {
    const out = await bulkCreate(api, path, objects, what, steps, concurrency);
    report();
    return out;
  };

  const sites = await create(
    '/api/dcim/sites/',
    Array.from({ length: size.sites }, (_, i) => ({ name: `IPAM Site ${pad(i, 3)}`, slug: `ipam-site-${i}` })),
    'sites',
  );
  const racks = await create(
    '/api/dcim/racks/',
    sites.flatMap((s, i) =>
      Array.from({ length: size.racksPerSite }, (_, r) => ({ name: `R${pad(i, 3)}-${r}`, site: s.id })),
    ),
    'racks',
  );
  const [mfr] = await create(
    '/api/dcim/manufacturers/',
    [{ name: 'Bench Networks', slug: 'bench-networks' }],
    'manufacturers',
  );
  const types = await create(
    '/api/dcim/device-types/',
    Array.from({ length: 5 }, (_, i) => ({ manufacturer: mfr!.id, model: `BN-${1000 + i}`, slug: `bn-${1000 + i}` })),
    'device types',
  );
  const roles = await create(
    '/api/dcim/device-roles/',
    ['leaf', 'spine', 'access', 'border'].map((r, i) => ({
      name: r,
      slug: r,
      color: ['2196f3', '4caf50', 'ff9800', '9c27b0'][i],
    })),
    'device roles',
  );

  const perSite = Math.ceil(size.devices / size.sites);
  const devices = await create(
    '/api/dcim/devices/',
    Array.from({ length: size.devices }, (_, d) => {
      const s = Math.floor(d / perSite);
      return {
        name: `dev-${pad(s, 3)}-${pad(d % perSite, 4)}`,
        site: sites[s]!.id,
        rack: racks[s * size.racksPerSite + (d % size.racksPerSite)]!.id,
        device_type: types[d % types.length]!.id,
        role: roles[d % roles.length]!.id,
        serial: `SN${pad(d, 8)}`,
        status: 'active',
      };
    }),
    'devices',
  );

  const interfaces = await create(
    '/api/dcim/interfaces/',
    devices.flatMap((dev) =>
      Array.from({ length: size.interfacesPerDevice }, (_, j) =>
        j === 0
          ? { device: dev.id, name: 'mgmt0', type: '1000base-t', mgmt_only: true }
          : { device: dev.id, name: `et-0/0/${j - 1}`, type: '10gbase-x-sfpp', mtu: 9216, description: `uplink ${j}` },
      ),
    ),
    'interfaces',
    2,
  );

  const prefixes: Array<Record<string, unknown>> = [];
  for (let n = 0; n < size.slash16s; n++) {
    prefixes.push({ prefix: `10.${n}.0.0/16`, status: 'container', description: `bench aggregate ${n}` });
    for (let c = 0; c < size.childrenPer16; c++) {
      prefixes.push({
        prefix: `10.${n}.${c}.0/24`,
        status: 'active',
        site: sites[(n + c) % sites.length]!.id,
        description: `bench subnet ${n}.${c}`,
      });
    }
  }
  const createdPrefixes = await create('/api/ipam/prefixes/', prefixes, 'prefixes', 2);

  const addresses: Array<Record<string, unknown>> = [];
  for (let n = 0; n < size.slash16s; n++) {
    for (let c = 0; c < size.filledPer16; c++) {
      for (let h = 1; h <= size.hostsPer24; h++) {
        const k = addresses.length;
        const iface = Math.floor(k / 5);
        const assigned = k % 5 < ASSIGNED_PER_5 && iface < interfaces.length;
        addresses.push({
          address: `10.${n}.${c}.${h}/24`,
          status: 'active',
          dns_name: `host-${n}-${c}-${h}.bench.example.net`,
          ...(assigned ? { assigned_object_type: 'dcim.interface', assigned_object_id: interfaces[iface]!.id } : {}),
        });
      }
    }
  }
  const ips = await create('/api/ipam/ip-addresses/', addresses, 'ip addresses', 2);

  // each device's first address sits on its mgmt0 (address k = device x interfaces x 5)
  const primaries = devices
    .map((dev, d) => ({ id: dev.id, k: d * size.interfacesPerDevice * 5 }))
    .filter((p) => p.k < ips.length)
    .map((p) => ({ id: p.id, primary_ip4: ips[p.k]!.id }));
  const t0 = performance.now();
  for (let i = 0; i < primaries.length; i += 1000)
    await call(api, 'PATCH', '/api/dcim/devices/', primaries.slice(i, i + 1000));
  const sec = (performance.now() - t0) / 1000;
  steps.push({
    what: 'primary IPv4 (PATCH)',
    objects: primaries.length,
    requests: Math.ceil(primaries.length / 1000),
    seconds: sec,
    objectsPerSec: primaries.length / sec,
  });
  report();

  const contexts = await seedContexts(api, sites, roles, create, log);
  await verifyCounts(api, {
    'dcim/devices': devices.length,
    'dcim/interfaces': interfaces.length,
    'ipam/prefixes': prefixes.length,
    'ipam/ip-addresses': addresses.length,
  });

  const filled = createdPrefixes.find((p) => p.prefix === `10.0.${Math.min(5, size.filledPer16 - 1)}.0/24`)!;
  const assignedCount = addresses.filter((a) => a.assigned_object_id).length;
  return {
    steps,
    ipIds: ips.map((i) => i.id),
    parent16: `10.${Math.min(3, size.slash16s - 1)}.0.0/16`,
    availablePrefix: { id: filled.id, prefix: String(filled.prefix) },
    searchQ: `10.${Math.min(7, size.slash16s - 1)}.${Math.min(3, size.filledPer16 - 1)}.1`,
    contexts,
    summary:
      `${devices.length.toLocaleString('en')} devices, ${interfaces.length.toLocaleString('en')} interfaces, ${prefixes.length.toLocaleString('en')} prefixes, ` +
      `${addresses.length.toLocaleString('en')} IP addresses (${assignedCount.toLocaleString('en')} assigned), ` +
      (contexts === null ? 'no config contexts (endpoint missing)' : `${contexts} config contexts`),
  };
}

type Create = (path: string, objects: Array<Record<string, unknown>>, what: string) => Promise<Obj[]>;

/** Config contexts through the API; null (and a message) while the endpoint does not exist yet. */
async function seedContexts(
  api: Api,
  sites: Obj[],
  roles: Obj[],
  create: Create,
  log: (s: string) => void,
): Promise<number | null> {
  const probe = await fetch(`${api.base}/api/extras/config-contexts/?limit=1`, {
    headers: { Authorization: `Token ${api.token}` },
  });
  if (probe.status === 404) {
    log(
      '  !! /api/extras/config-contexts/ answered 404: config contexts are not built yet; seeding continues without them,',
    );
    log('     so devices/?limit=1000 renders no merged contexts and measures less than it will once they exist');
    return null;
  }
  if (!probe.ok)
    throw new Error(`GET /api/extras/config-contexts/ answered ${probe.status}: ${(await probe.text()).slice(0, 500)}`);
  const bodies = contextPlans(sites.length).map((p, i) => ({
    name: p.name,
    weight: p.weight,
    description: `bench context ${i}`,
    is_active: true,
    ...(p.sites.length ? { sites: p.sites.map((s) => sites[s]!.id) } : {}),
    ...(p.roles.length ? { roles: p.roles.map((r) => roles[r]!.id) } : {}),
    data: contextData(i, p.name),
  }));
  return (await create('/api/extras/config-contexts/', bodies, 'config contexts')).length;
}

/** The API must count what was seeded; a short count means a broken seed, not a fast benchmark. */
export async function verifyCounts(api: Api, expected: Record<string, number>): Promise<void> {
  for (const [path, n] of Object.entries(expected)) {
    const got = await call<{ count: number }>(api, 'GET', `/api/${path}/?limit=1&brief=1`);
    if (got.count !== n)
      throw new Error(`expected ${n} objects at /api/${path}/ after seeding, the API counts ${got.count}`);
  }
}
