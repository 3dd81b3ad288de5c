/**
 * An upgrade across the NetBox 4 migrations (0156 on) of a database that already holds 3.4-era data:
 * the migrations that convert data (VM disk units, MAC address objects, scopes, service parents,
 * circuit termination terminations) must carry every row over, and both dialects must then read
 * it as before and as NetBox 4.4 would. A database made before those migrations is built here by
 * applying only the earlier ones, as the runner does (db/migrate.ts), and filling it in their SQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type UpgradedApp, upgradedApp } from '../../helpers/upgraded-app.js';

/** the first migration written for the NetBox 4.4 dialect (the token's api_dialect) */
const FIRST_NETBOX4 = '0156';

let u: UpgradedApp;
let app: UpgradedApp['app'];
let token: string;

/** the rows a 3.4-era database holds, in the schema of the migrations before FIRST_NETBOX4 */
const OLD_DATA = `
insert into dcim_site (id, name, slug) values (901, 'Upgrade site', 'upgrade-site');
insert into dcim_manufacturer (id, name, slug) values (901, 'Upgrade maker', 'upgrade-maker');
insert into dcim_devicetype (id, manufacturer_id, model, slug) values (901, 901, 'U1', 'u1');
insert into dcim_devicerole (id, name, slug) values (901, 'Upgrade role', 'upgrade-role');
insert into dcim_device (id, name, site_id, device_type_id, role_id) values (901, 'upgrade-dev', 901, 901, 901);
insert into dcim_interface (id, device_id, name, type, mac_address) values
  (901, 901, 'eth0', '1000base-t', 'AA:BB:CC:00:00:01'), (902, 901, 'eth1', '1000base-t', null);
insert into virtualization_clustertype (id, name, slug) values (901, 'Upgrade type', 'upgrade-type');
insert into virtualization_cluster (id, name, type_id, site_id) values (901, 'upgrade-cluster', 901, 901);
insert into virtualization_virtualmachine (id, name, cluster_id, site_id, disk) values (901, 'upgrade-vm', 901, 901, 20);
insert into virtualization_vminterface (id, virtual_machine_id, name, mac_address) values
  (901, 901, 'veth0', 'AA:BB:CC:00:00:02');
insert into virtualization_virtualdisk (id, virtual_machine_id, name, size) values (901, 901, 'root', 3);
insert into virtualization_virtualmachine (id, name, cluster_id, disk) values (902, 'upgrade-vm-2', 901, 20);
insert into ipam_prefix (id, prefix, site_id) values (901, '10.90.0.0/16', 901), (902, '10.91.0.0/16', null);
insert into ipam_service (id, name, protocol, ports, device_id) values (901, 'ssh', 'tcp', '{22}', 901);
insert into ipam_service (id, name, protocol, ports, virtual_machine_id) values (902, 'dns', 'udp', '{53}', 901);
insert into circuits_provider (id, name, slug) values (901, 'Upgrade carrier', 'upgrade-carrier');
insert into circuits_circuittype (id, name, slug) values (901, 'Upgrade transit', 'upgrade-transit');
insert into circuits_providernetwork (id, provider_id, name) values (901, 901, 'Upgrade cloud');
insert into circuits_circuit (id, cid, provider_id, type_id) values (901, 'UPG-1', 901, 901);
insert into circuits_circuittermination (id, circuit_id, term_side, site_id) values (901, 901, 'A', 901);
insert into circuits_circuittermination (id, circuit_id, term_side, provider_network_id) values (902, 901, 'Z', 901);
`;

beforeAll(async () => {
  u = await upgradedApp(FIRST_NETBOX4, OLD_DATA);
  ({ app, token } = u);
}, 120_000);
afterAll(async () => u?.close());

async function get(url: string, dialect: '3.4' | '4.4') {
  const res = await app.inject({
    url,
    headers: { authorization: `Token ${token}`, accept: `application/json; version=${dialect}` },
  });
  expect(res.statusCode, `${url} ${res.body}`).toBe(200);
  return res.json();
}

describe('an upgrade across the NetBox 4 migrations, with data', () => {
  it('makes each MAC address an object, assigned to its interface as the primary', async () => {
    const iface = await get('/api/dcim/interfaces/901/', '4.4');
    expect(iface.mac_address).toBe('AA:BB:CC:00:00:01');
    expect(iface.primary_mac_address).toMatchObject({ mac_address: 'AA:BB:CC:00:00:01' });
    expect(iface.mac_addresses).toHaveLength(1);
    const mac = await get(`/api/dcim/mac-addresses/${iface.primary_mac_address.id}/`, '4.4');
    expect(mac).toMatchObject({ assigned_object_type: 'dcim.interface', assigned_object_id: 901 });
    expect((await get('/api/dcim/interfaces/902/', '4.4')).primary_mac_address).toBeNull();
    const vmIface = await get('/api/virtualization/interfaces/901/', '4.4');
    expect(vmIface.primary_mac_address).toMatchObject({ mac_address: 'AA:BB:CC:00:00:02' });
    // and 3.4 reads the interface as it always did
    expect((await get('/api/dcim/interfaces/901/', '3.4')).mac_address).toBe('AA:BB:CC:00:00:01');
  });

  it('keeps disk sizes, now counted in MB', async () => {
    // a machine with virtual disks counts their total (migration 0136)
    expect((await get('/api/virtualization/virtual-machines/901/', '4.4')).disk).toBe(3_000);
    expect((await get('/api/virtualization/virtual-machines/902/', '4.4')).disk).toBe(20_000);
    expect((await get('/api/virtualization/virtual-machines/902/', '3.4')).disk).toBe(20);
    expect((await get('/api/virtualization/virtual-disks/901/', '4.4')).size).toBe(3_000);
    expect((await get('/api/virtualization/virtual-disks/901/', '3.4')).size).toBe(3);
  });

  it('scopes each prefix and cluster to the site it had', async () => {
    expect(await get('/api/ipam/prefixes/901/', '4.4')).toMatchObject({
      scope_type: 'dcim.site',
      scope_id: 901,
      scope: { id: 901, name: 'Upgrade site' },
    });
    expect(await get('/api/ipam/prefixes/902/', '4.4')).toMatchObject({ scope_type: null, scope_id: null });
    expect((await get('/api/ipam/prefixes/901/', '3.4')).site).toMatchObject({ id: 901 });
    expect(await get('/api/virtualization/clusters/901/', '4.4')).toMatchObject({
      scope_type: 'dcim.site',
      scope_id: 901,
    });
    const scoped = await get('/api/ipam/prefixes/?site_id=901', '4.4');
    expect(scoped.results.map((p: { id: number }) => p.id)).toEqual([901]);
  });

  it('gives each service its device or virtual machine as parent', async () => {
    expect(await get('/api/ipam/services/901/', '4.4')).toMatchObject({
      parent_object_type: 'dcim.device',
      parent_object_id: 901,
      parent: { id: 901, name: 'upgrade-dev' },
    });
    expect(await get('/api/ipam/services/902/', '4.4')).toMatchObject({
      parent_object_type: 'virtualization.virtualmachine',
      parent_object_id: 901,
    });
  });

  it('terminates each circuit termination on its site or provider network', async () => {
    expect(await get('/api/circuits/circuit-terminations/901/', '4.4')).toMatchObject({
      termination_type: 'dcim.site',
      termination_id: 901,
      termination: { id: 901, name: 'Upgrade site' },
    });
    expect(await get('/api/circuits/circuit-terminations/902/', '4.4')).toMatchObject({
      termination_type: 'circuits.providernetwork',
      termination_id: 901,
    });
    expect((await get('/api/circuits/circuit-terminations/902/', '3.4')).provider_network).toMatchObject({ id: 901 });
  });
});
