/**
 * IPAM services and service templates (NetBox 3.4): exactly one parent (device or VM), protocol
 * and port validation, addresses of the parent only, display, ordering, cascades, filters.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  makeDevice,
  makeInterface,
  type Json,
  make,
  makeVm,
  makeVmInterface,
  onVmInterface,
} from '../../factories/index.js';

let t: TestApp;
let device: Json;
let vm: Json;
let deviceIp: Json;
let vmIp: Json;
beforeAll(async () => {
  t = await makeTestApp();
  device = await makeDevice(t);
  vm = await makeVm(t);
  const eth = await makeInterface(t, device);
  deviceIp = await make(t, '/api/ipam/ip-addresses/', {
    address: '192.0.2.1/24',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: eth.id,
  });
  vmIp = await make(t, '/api/ipam/ip-addresses/', {
    address: '192.0.2.2/24',
    ...onVmInterface(await makeVmInterface(t, vm)),
  });
});
afterAll(async () => t.close());

const post = (body: Json) => t.post('/api/ipam/services/', body);
const svc = (extra: Json) =>
  make(t, '/api/ipam/services/', { name: uniq('svc'), protocol: 'tcp', ports: [22], ...extra });

describe('POST /api/ipam/services/', () => {
  it('creates a service on a device with its addresses, rendered nested', async () => {
    const s = await svc({ device: device.id, name: 'ssh', ports: [22, 2222], ipaddresses: [deviceIp.id] });
    expect(s).toMatchObject({
      display: 'ssh (TCP/22, 2222)',
      device: { id: device.id, name: device.name },
      virtual_machine: null,
      protocol: { value: 'tcp', label: 'TCP' },
      ports: [22, 2222],
      ipaddresses: [{ id: deviceIp.id, address: '192.0.2.1/24' }],
    });
    const brief = (await t.get(`/api/ipam/services/?id=${s.id}&brief=1`)).json().results[0];
    expect(brief).toEqual({
      id: s.id,
      url: s.url,
      display: s.display,
      name: 'ssh',
      protocol: { value: 'tcp', label: 'TCP' },
      ports: [22, 2222],
    });
  });

  it('needs exactly one parent', async () => {
    const neither = await post({ name: 'x', protocol: 'tcp', ports: [1] });
    expect(neither.statusCode).toBe(400);
    expect(neither.json()).toEqual({
      __all__: ['A service must be associated with either a device or a virtual machine.'],
    });
    const both = await post({ name: 'x', protocol: 'tcp', ports: [1], device: device.id, virtual_machine: vm.id });
    expect(both.json()).toEqual({
      __all__: ['A service cannot be associated with both a device and a virtual machine.'],
    });
    const s = await svc({ virtual_machine: vm.id });
    const moved = await t.patch(`/api/ipam/services/${s.id}/`, { device: device.id });
    expect(moved.json()).toEqual({
      __all__: ['A service cannot be associated with both a device and a virtual machine.'],
    });
    const swapped = await t.patch(`/api/ipam/services/${s.id}/`, { device: device.id, virtual_machine: null });
    expect(swapped.statusCode, swapped.body).toBe(200);
  });

  it('validates protocol and ports', async () => {
    const res = await post({ device: device.id, name: 'x', protocol: 'icmp', ports: [0, 70000] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      protocol: ['"icmp" is not a valid choice.'],
      ports: ['Ensure this value is greater than or equal to 1.'],
    });
    expect((await post({ device: device.id, name: 'x', protocol: 'udp', ports: [] })).json()).toEqual({
      ports: ['This field cannot be blank.'],
    });
    expect((await post({ device: device.id, name: 'x', protocol: 'udp', ports: 53 })).json()).toEqual({
      ports: ['Expected a list of items but got type "int".'],
    });
    expect((await post({ device: device.id, name: 'x', protocol: 'udp', ports: ['dns'] })).json()).toEqual({
      ports: ['A valid integer is required.'],
    });
    expect((await post({ device: device.id, name: 'x' })).json()).toEqual({
      protocol: ['This field is required.'],
      ports: ['This field is required.'],
    });
  });

  it("takes only addresses of the parent's interfaces", async () => {
    const res = await post({
      virtual_machine: vm.id,
      name: 'x',
      protocol: 'tcp',
      ports: [80],
      ipaddresses: [deviceIp.id, vmIp.id],
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      ipaddresses: ['IP address 192.0.2.1/24 is not assigned to an interface of this virtual machine.'],
    });
    const s = await svc({ virtual_machine: vm.id, ipaddresses: [vmIp.id] });
    // moving the service checks the addresses it keeps
    const moved = await t.patch(`/api/ipam/services/${s.id}/`, { device: device.id, virtual_machine: null });
    expect(moved.json()).toEqual({
      ipaddresses: ['IP address 192.0.2.2/24 is not assigned to an interface of this device.'],
    });
    const missing = await t.patch(`/api/ipam/services/${s.id}/`, { ipaddresses: [999999] });
    expect(missing.statusCode).toBe(400);
  });
});

describe('GET /api/ipam/services/', () => {
  it('filters by parent, port, protocol and address, and orders by protocol then ports', async () => {
    const other = await makeVm(t);
    const a = await svc({ virtual_machine: other.id, protocol: 'udp', ports: [53] });
    const b = await svc({ virtual_machine: other.id, protocol: 'tcp', ports: [443, 80] });
    const c = await svc({ virtual_machine: other.id, protocol: 'tcp', ports: [25], ipaddresses: [] });
    const list = async (q: string) => ids((await t.get(`/api/ipam/services/?${q}`)).json());
    expect(await list(`virtual_machine_id=${other.id}`)).toEqual([c.id, b.id, a.id]);
    expect(await list(`virtual_machine=${other.name}&port=80`)).toEqual([b.id]);
    expect(await list(`virtual_machine_id=${other.id}&port=53&port=25`)).toEqual([c.id, a.id]);
    expect(await list(`virtual_machine_id=${other.id}&protocol=udp`)).toEqual([a.id]);
    expect((await t.get('/api/ipam/services/?port=abc')).statusCode).toBe(400);
    const withIp = await svc({ device: device.id, ipaddresses: [deviceIp.id] });
    expect(await list(`ipaddress_id=${deviceIp.id}&device_id=${device.id}`)).toContain(withIp.id);
    expect(await list(`ipaddress=192.0.2.1/24&id=${withIp.id}`)).toEqual([withIp.id]);
    expect(await list(`device=${device.name}&id=${withIp.id}`)).toEqual([withIp.id]);
  });

  it('finds the rows a filter names through their indexes, one value as = $1', async () => {
    const lookups = async (query: string, table = 'ipam_ipaddress') => {
      const seen: string[] = [];
      const stop = t.db.observeStatements((_ms, _err, q) => {
        if (q.sql.includes(`from "${table}" where`)) seen.push(q.sql);
      });
      try {
        const res = await t.get(`/api/ipam/services/?${query}`);
        return { status: res.statusCode, body: res.json(), seen };
      } finally {
        stop();
      }
    };
    // compared as text, an id matched no index and every address was read
    const one = await lookups(`ipaddress_id=${deviceIp.id}`);
    expect(one.status).toBe(200);
    expect(one.seen).toEqual([expect.stringMatching(/where id = \$1::bigint$/)]);
    const two = await lookups(`ipaddress_id=${deviceIp.id}&ipaddress_id=${vmIp.id}`);
    expect(two.seen).toEqual([expect.stringMatching(/where id = any\(\$1::bigint\[\]\)$/)]);
    const unknown = await lookups('ipaddress_id=99999999');
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({
      ipaddress_id: ['Select a valid choice. 99999999 is not one of the available choices.'],
    });
    const byAddress = await lookups('ipaddress=192.0.2.1/24');
    expect(byAddress.status).toBe(200);
    expect(byAddress.seen).toEqual([expect.stringContaining('"address"::text = $1::text')]);
    // a foreign key named by its natural key (fkKeyCondition), the same way
    const byName = await lookups(`device=${encodeURIComponent(device.name)}`, 'dcim_device');
    expect(byName.status).toBe(200);
    expect(byName.seen).toEqual([expect.stringMatching(/where "name"::text = \$1::text$/)]);
  });
});

describe('deletion', () => {
  it('goes with its device or VM, and lets go of a deleted address', async () => {
    const d = await makeDevice(t);
    const v = await makeVm(t);
    const onDevice = await svc({ device: d.id });
    const onVm = await svc({ virtual_machine: v.id });
    const i = await makeVmInterface(t, v);
    const ip = await make(t, '/api/ipam/ip-addresses/', { address: '198.51.100.9/24', ...onVmInterface(i) });
    const keeps = await svc({ virtual_machine: v.id, ipaddresses: [ip.id] });
    expect((await t.del(`/api/ipam/ip-addresses/${ip.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/ipam/services/${keeps.id}/`)).json().ipaddresses).toEqual([]);
    expect((await t.del(`/api/dcim/devices/${d.id}/`)).statusCode).toBe(204);
    expect((await t.del(`/api/virtualization/virtual-machines/${v.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/ipam/services/${onDevice.id}/`)).statusCode).toBe(404);
    expect((await t.get(`/api/ipam/services/${onVm.id}/`)).statusCode).toBe(404);
  });
});

describe('service templates', () => {
  it('have unique names, a display with collapsed port runs, and a port filter', async () => {
    const tpl = await make(t, '/api/ipam/service-templates/', {
      name: uniq('web'),
      protocol: 'tcp',
      ports: [82, 80, 81, 443],
    });
    expect(tpl.display).toBe(`${tpl.name} (TCP/80-82, 443)`);
    const dup = await t.post('/api/ipam/service-templates/', { name: tpl.name, protocol: 'udp', ports: [1] });
    expect(dup.json()).toEqual({ name: ['service template with this Name already exists.'] });
    expect(ids((await t.get('/api/ipam/service-templates/?port=81')).json())).toEqual([tpl.id]);
    expect((await t.get(`/api/ipam/service-templates/?id=${tpl.id}&brief=1`)).json().results[0]).toEqual({
      id: tpl.id,
      url: tpl.url,
      display: tpl.display,
      name: tpl.name,
      protocol: { value: 'tcp', label: 'TCP' },
      ports: [82, 80, 81, 443],
    });
  });
});
