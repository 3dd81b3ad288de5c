/**
 * The objects the hostile sweep aims at: a few of each of 19 endpoints, created through the API
 * with the bench token (bench/http.ts fails loudly on any non-2xx answer).
 */
import { type Api, call } from './http.js';

type Obj = { id: number };

/** list path -> ids of existing objects */
export type Pool = Map<string, number[]>;

/** ids of the objects the others hang on, for bodies that must be valid but for one thing (hostile-unique.ts) */
export const seeded: Record<string, number> = {};

let n = 0;
const uniq = (p: string) => `${p}-${process.pid}-${++n}`;
const named = (p: string) => {
  const v = uniq(p);
  return { name: v, slug: v };
};

async function make(api: Api, pool: Pool, path: string, bodies: unknown[]): Promise<Obj[]> {
  const created = await call<Obj[]>(api, 'POST', path, bodies);
  pool.set(path, [...(pool.get(path) ?? []), ...created.map((o) => o.id)]);
  return created;
}

/** Creates `per` objects on each endpoint (interfaces: two per cable). */
export async function seedPool(api: Api, per = 3): Promise<Pool> {
  const pool: Pool = new Map();
  const times = <T>(f: (i: number) => T) => Array.from({ length: per }, (_, i) => f(i));
  await make(
    api,
    pool,
    '/api/dcim/regions/',
    times(() => named('region')),
  );
  const [vrf] = await call<Obj[]>(api, 'POST', '/api/ipam/vrfs/', [{ name: uniq('vrf') }]);
  seeded.vrf = vrf!.id;
  const sites = await make(
    api,
    pool,
    '/api/dcim/sites/',
    times(() => named('site')),
  );
  await make(
    api,
    pool,
    '/api/tenancy/tenants/',
    times(() => named('tenant')),
  );
  await make(
    api,
    pool,
    '/api/extras/tags/',
    times(() => named('tag')),
  );
  await make(
    api,
    pool,
    '/api/ipam/roles/',
    times(() => named('role')),
  );
  const groups = await make(
    api,
    pool,
    '/api/ipam/vlan-groups/',
    times(() => named('vgroup')),
  );
  seeded.vlanGroup = groups[0]!.id;
  await make(
    api,
    pool,
    '/api/ipam/vlans/',
    times((i) => ({ name: uniq('vlan'), vid: 100 + i })),
  );
  await make(
    api,
    pool,
    '/api/ipam/prefixes/',
    times((i) => ({ prefix: `10.${i}.0.0/16` })),
  );
  await make(
    api,
    pool,
    '/api/ipam/ip-addresses/',
    times((i) => ({ address: `10.0.0.${i + 1}/24` })),
  );
  const [rir] = await call<Obj[]>(api, 'POST', '/api/ipam/rirs/', [named('rir')]);
  await make(
    api,
    pool,
    '/api/ipam/aggregates/',
    times((i) => ({ prefix: `172.${16 + i}.0.0/16`, rir: rir!.id })),
  );
  const providers = await make(
    api,
    pool,
    '/api/circuits/providers/',
    times(() => named('provider')),
  );
  const [ctype] = await call<Obj[]>(api, 'POST', '/api/circuits/circuit-types/', [named('ctype')]);
  const [location] = await call<Obj[]>(api, 'POST', '/api/dcim/locations/', [{ ...named('loc'), site: sites[0]!.id }]);
  Object.assign(seeded, { rir: rir!.id, provider: providers[0]!.id, circuitType: ctype!.id, site: sites[0]!.id });
  seeded.location = location!.id;
  await make(
    api,
    pool,
    '/api/circuits/circuits/',
    times(() => ({ cid: uniq('cid'), provider: providers[0]!.id, type: ctype!.id })),
  );
  await make(
    api,
    pool,
    '/api/dcim/racks/',
    times(() => ({ name: uniq('rack'), site: sites[0]!.id })),
  );
  const [mfr] = await call<Obj[]>(api, 'POST', '/api/dcim/manufacturers/', [named('mfr')]);
  const model = uniq('type');
  const [type] = await call<Obj[]>(api, 'POST', '/api/dcim/device-types/', [
    { model, slug: model, manufacturer: mfr!.id },
  ]);
  const [role] = await call<Obj[]>(api, 'POST', '/api/dcim/device-roles/', [named('drole')]);
  Object.assign(seeded, { manufacturer: mfr!.id, deviceType: type!.id, deviceRole: role!.id });
  const devices = await make(
    api,
    pool,
    '/api/dcim/devices/',
    times(() => ({ name: uniq('dev'), site: sites[0]!.id, device_type: type!.id, device_role: role!.id })),
  );
  const nics = await make(
    api,
    pool,
    '/api/dcim/interfaces/',
    Array.from({ length: 2 * per }, () => ({ device: devices[0]!.id, name: uniq('eth'), type: '1000base-t' })),
  );
  seeded.device = devices[0]!.id;
  const end = (i: number) => [{ object_type: 'dcim.interface', object_id: nics[i]!.id }];
  await make(
    api,
    pool,
    '/api/dcim/cables/',
    times((i) => ({ a_terminations: end(2 * i), b_terminations: end(2 * i + 1) })),
  );
  const [ktype] = await call<Obj[]>(api, 'POST', '/api/virtualization/cluster-types/', [named('ktype')]);
  const [cluster] = await call<Obj[]>(api, 'POST', '/api/virtualization/clusters/', [
    { name: uniq('cluster'), type: ktype!.id },
  ]);
  seeded.cluster = cluster!.id;
  await make(
    api,
    pool,
    '/api/virtualization/virtual-machines/',
    times(() => ({ name: uniq('vm'), cluster: cluster!.id })),
  );
  await make(
    api,
    pool,
    '/api/users/tokens/',
    times(() => ({ description: uniq('token') })),
  );
  // read-only: hostile reads and refused writes only
  pool.set('/api/extras/object-changes/', []);
  return pool;
}
