/**
 * `inventory demo-data`: loads a small but realistic network through the REST API's own write
 * path (so change records, validation and permissions behave as for any client): regions, sites,
 * racks, device types with component templates, devices with their ports, patch panels, console
 * and power cabling and line cards (demo-physical.ts), VRFs, aggregates, prefixes, addresses on interfaces,
 * VLAN groups and VLANs, a cluster of virtual machines with interfaces, addresses and services,
 * providers and circuits. Progress goes to the console. Into a running service over HTTP
 * (`--url`, `--token`), or in this process (a stopped service, and `serve --demo` at its start):
 * demo-data-client.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from './db/client.js';
import { type DemoRequest, demoApi, withInProcessApi } from './demo-data-client.js';
import { loadDeviceTypes, loadPower, loadSiteInfrastructure } from './demo-physical.js';

type Json = Record<string, unknown>;

const SITES = [
  { region: 'Europe', child: 'Germany', name: 'FRA1', city: 'Frankfurt' },
  { region: 'Europe', child: 'Netherlands', name: 'AMS1', city: 'Amsterdam' },
  { region: 'North America', child: 'United States', name: 'NYC1', city: 'New York' },
  { region: 'North America', child: 'Canada', name: 'YYZ1', city: 'Toronto' },
];
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');

/**
 * Loads the demo network through `request` (demo-data-client.ts: in this process or over HTTP).
 * A database that already holds the demo network (its site FRA1) is left as it is.
 */
export async function loadDemoNetwork(request: DemoRequest, log: (line: string) => void): Promise<void> {
  const { post, get, patch } = demoApi(request);
  const step = async <T>(what: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = Date.now();
    const out = await fn();
    log(`  ${what.padEnd(44)} ${Array.isArray(out) ? `${out.length} objects` : ''} (${Date.now() - t0} ms)`);
    return out;
  };
  if ((await get(`dcim/sites/?slug=${slug(SITES[0]!.name)}&brief=1`)).length > 0) {
    log(`The demo network is already there (site ${SITES[0]!.name}): nothing loaded.`);
    return;
  }
  log('Loading demo data:');
  const tenants = await step('tenants', () =>
    post(
      'tenancy/tenants',
      ['Acme Corp', 'Globex'].map((n) => ({ name: n, slug: slug(n) })),
    ),
  );
  const tags = await step('tags', () =>
    post(
      'extras/tags',
      [
        ['Production', '4caf50'],
        ['Lab', 'ff9800'],
      ].map(([n, c]) => ({ name: n, slug: slug(n!), color: c })),
    ),
  );
  const parents = await step('regions', () =>
    post(
      'dcim/regions',
      [...new Set(SITES.map((s) => s.region))].map((n) => ({ name: n, slug: slug(n) })),
    ),
  );
  const children = await step('child regions', () =>
    post(
      'dcim/regions',
      SITES.map((s) => ({
        name: s.child,
        slug: slug(s.child),
        parent: parents.find((p: Json) => p.name === s.region).id,
      })),
    ),
  );
  const sites = await step('sites', () =>
    post(
      'dcim/sites',
      SITES.map((s, i) => ({
        name: s.name,
        slug: slug(s.name),
        status: 'active',
        region: children[i].id,
        tenant: tenants[i % 2].id,
        facility: `${s.city} DC`,
        time_zone: 'UTC',
        tags: [tags[0].id],
      })),
    ),
  );
  const role = await step('rack role', () =>
    post('dcim/rack-roles', { name: 'Network', slug: 'network', color: '2196f3' }),
  );
  const racks = await step('racks', () =>
    post(
      'dcim/racks',
      sites.flatMap((s: Json) =>
        [1, 2].map((n) => ({ name: `${s.name}-R${n}`, site: s.id, role: role.id, status: 'active', u_height: 42 })),
      ),
    ),
  );
  const types = await loadDeviceTypes(post, step);
  const [coreRole, accessRole, infraRole] = await step('device roles', () =>
    post('dcim/device-roles', [
      { name: 'Core Router', slug: 'core-router', color: 'f44336' },
      { name: 'Access Switch', slug: 'access-switch', color: '3f51b5' },
      { name: 'Infrastructure', slug: 'infrastructure', color: '607d8b' },
    ]),
  );
  const platform = await step('platform', () =>
    post('dcim/platforms', { name: 'Junos', slug: 'junos', manufacturer: types.core.manufacturer.id }),
  );
  // each device gets its interfaces, console and power ports and bays from its type's templates
  const devices = await step('devices (components from their types)', () =>
    post(
      'dcim/devices',
      sites.flatMap((s: Json, i: number) => [
        {
          name: `${s.name}-core1`,
          site: s.id,
          rack: racks[i * 2].id,
          position: 20,
          face: 'front',
          device_type: types.core.id,
          role: coreRole.id,
          platform: platform.id,
          status: 'active',
          tenant: tenants[i % 2].id,
        },
        ...[1, 2, 3].map((n) => ({
          name: `${s.name}-sw${n}`,
          site: s.id,
          rack: racks[i * 2 + 1].id,
          position: 20 + n,
          face: 'front',
          device_type: types.access.id,
          role: accessRole.id,
          platform: platform.id,
          status: 'active',
        })),
      ]),
    ),
  );
  const interfaces = await get(`dcim/interfaces/?${devices.map((d: Json) => `device_id=${d.id}`).join('&')}&limit=0`);
  const ifaceOf = (device: Json, name: string) =>
    interfaces.find((x: Json) => (x.device as Json).id === device.id && x.name === name);
  const pdus = await loadSiteInfrastructure(post, get, step, types, sites, racks, devices, infraRole);
  await loadPower(post, get, step, sites, pdus);
  const vrf = await step('VRF', () => post('ipam/vrfs', { name: 'CORP', rd: '65000:1', enforce_unique: true }));
  const rir = await step('RIR', () => post('ipam/rirs', { name: 'RFC 1918', slug: 'rfc-1918', is_private: true }));
  await step('aggregate', () => post('ipam/aggregates', { prefix: '10.0.0.0/8', rir: rir.id }));
  await step('prefixes', () =>
    post(
      'ipam/prefixes',
      sites.flatMap((s: Json, i: number) => [
        { prefix: `10.${i}.0.0/16`, site: s.id, vrf: vrf.id, status: 'container' },
        { prefix: `10.${i}.1.0/24`, site: s.id, vrf: vrf.id, status: 'active', description: 'loopbacks' },
        { prefix: `10.${i}.10.0/24`, site: s.id, vrf: vrf.id, status: 'active', description: 'users' },
      ]),
    ),
  );
  await step('IP addresses on loopbacks', () =>
    post(
      'ipam/ip-addresses',
      devices.map((d: Json, n: number) => {
        const site = sites.findIndex((s: Json) => s.id === (d.site as Json).id);
        return {
          address: `10.${site}.1.${(n % 4) + 1}/32`,
          vrf: vrf.id,
          status: 'active',
          role: 'loopback',
          assigned_object_type: 'dcim.interface',
          assigned_object_id: ifaceOf(d, 'lo0')!.id,
          dns_name: `${String(d.name).toLowerCase()}.example.net`,
        };
      }),
    ),
  );
  const groups = await step('VLAN groups', () =>
    post(
      'ipam/vlan-groups',
      sites.map((s: Json) => ({
        name: `${s.name} VLANs`,
        slug: `${slug(String(s.name))}-vlans`,
        scope_type: 'dcim.site',
        scope_id: s.id,
      })),
    ),
  );
  await step('VLANs', () =>
    post(
      'ipam/vlans',
      groups.flatMap((g: Json) =>
        [
          [10, 'users'],
          [20, 'voice'],
          [99, 'mgmt'],
        ].map(([vid, name]) => ({ vid, name, group: g.id, status: 'active' })),
      ),
    ),
  );
  const clusterType = await step('cluster type', () =>
    post('virtualization/cluster-types', { name: 'VMware ESXi', slug: 'vmware-esxi' }),
  );
  const cluster = await step('cluster', () =>
    post('virtualization/clusters', {
      name: 'FRA1-vSphere',
      type: clusterType.id,
      site: sites[0].id,
      status: 'active',
    }),
  );
  const vmRole = await step('VM role', () =>
    post('dcim/device-roles', { name: 'Server', slug: 'server', color: '9c27b0', vm_role: true }),
  );
  const vms = await step('virtual machines', () =>
    post(
      'virtualization/virtual-machines',
      ['dns1', 'dns2', 'web1'].map((n) => ({
        name: `fra1-${n}`,
        cluster: cluster.id,
        site: sites[0].id,
        role: vmRole.id,
        status: 'active',
        vcpus: 2,
        memory: 4096,
        disk: 40,
        tenant: tenants[0].id,
      })),
    ),
  );
  const vmIfaces = await step('VM interfaces', () =>
    post(
      'virtualization/interfaces',
      vms.map((vm: Json) => ({ virtual_machine: vm.id, name: 'eth0' })),
    ),
  );
  const vmIps = await step('IP addresses on VM interfaces', () =>
    post(
      'ipam/ip-addresses',
      vmIfaces.map((i: Json, n: number) => ({
        address: `10.0.10.${10 + n}/24`,
        vrf: vrf.id,
        status: 'active',
        assigned_object_type: 'virtualization.vminterface',
        assigned_object_id: i.id,
      })),
    ),
  );
  await step('VM primary addresses', async () => {
    for (const [n, vm] of (vms as Json[]).entries())
      await patch(`virtualization/virtual-machines/${vm.id}/`, { primary_ip4: vmIps[n].id });
    return vms;
  });
  await step('services', () =>
    post(
      'ipam/services',
      vms.map((vm: Json, n: number) =>
        String(vm.name).includes('dns')
          ? { virtual_machine: vm.id, name: 'dns', protocol: 'udp', ports: [53], ipaddresses: [vmIps[n].id] }
          : { virtual_machine: vm.id, name: 'https', protocol: 'tcp', ports: [80, 443], ipaddresses: [vmIps[n].id] },
      ),
    ),
  );
  const provider = await step('provider', () => post('circuits/providers', { name: 'Level 3', slug: 'level-3' }));
  const ctype = await step('circuit type', () =>
    post('circuits/circuit-types', { name: 'Internet Transit', slug: 'internet-transit' }),
  );
  const circuits = await step('circuits', () =>
    post(
      'circuits/circuits',
      sites.map((_site: Json, i: number) => ({
        cid: `L3-${1000 + i}`,
        provider: provider.id,
        type: ctype.id,
        status: 'active',
        commit_rate: 10_000_000,
      })),
    ),
  );
  await step('circuit terminations', () =>
    post(
      'circuits/circuit-terminations',
      circuits.map((c: Json, i: number) => ({
        circuit: c.id,
        term_side: 'A',
        site: sites[i].id,
        port_speed: 10_000_000,
      })),
    ),
  );
  log('Done.');
}

/** `inventory demo-data` on a stopped service, and `serve --demo`: in this process */
export function loadDemoData(app: FastifyInstance, db: Database, log: (line: string) => void): Promise<void> {
  return withInProcessApi(app, db, (request) => loadDemoNetwork(request, log));
}
