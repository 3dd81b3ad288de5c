/**
 * NetBox 4.4's names of the reverse relations on GraphQL types (Django's related_name): an
 * interface's `bridge_interfaces`, `child_interfaces`, `member_interfaces` and `mac_addresses`, a
 * VM interface's too, a device's `consoleports`, a tree's `children`. 4.4 offers them beside the
 * names derived from REST paths; 3.4's schema has none of them. Loaded per batch, as every list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Json,
  make44,
  makeDevice,
  makeInterface,
  makeRegion,
  makeVm,
  makeVmInterface,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { fewestStatements } from '../../helpers/statements.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
}, 60_000);
afterAll(async () => t?.close());

async function gql(query: string, dialect: '3.4' | '4.4' = '4.4') {
  const headers = { accept: `application/json; version=${dialect}` };
  const res = await t.request('POST', '/graphql/', { body: { query }, headers });
  return { status: res.statusCode, body: res.json() as Json };
}
async function data(query: string): Promise<Json> {
  const { status, body } = await gql(query);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data;
}
const names = (list: Json[]) => list.map((x) => x.name).sort();
const mac = (owner: string, id: number, address: string) =>
  make44(t, '/api/dcim/mac-addresses/', { mac_address: address, assigned_object_type: owner, assigned_object_id: id });

describe("4.4's reverse relation names", () => {
  it("give an interface's bridge, child and member interfaces and its MAC addresses", async () => {
    const device = await makeDevice(t);
    const bridge = await makeInterface(t, device, { type: 'bridge' });
    const lag = await makeInterface(t, device, { type: 'lag' });
    const parent = await makeInterface(t, device, { type: 'virtual' });
    const a = await makeInterface(t, device, { bridge: bridge.id, lag: lag.id });
    const b = await makeInterface(t, device, { bridge: bridge.id });
    const c = await makeInterface(t, device, { type: 'virtual', parent: parent.id });
    await mac('dcim.interface', bridge.id, '00:00:00:00:00:02');
    await mac('dcim.interface', bridge.id, '00:00:00:00:00:01');
    const d = await data(`{ device(id: ${device.id}) { interfaces(ordering: ["name"]) {
      id bridge_interfaces { name } member_interfaces { name } child_interfaces { name } mac_addresses { mac_address } } } }`);
    const byId = new Map(d.device.interfaces.map((i: Json) => [Number(i.id), i]));
    const of = (i: Json) => byId.get(i.id) as Json;
    expect(names(of(bridge).bridge_interfaces)).toEqual(names([a, b]));
    expect(names(of(lag).member_interfaces)).toEqual([a.name]);
    expect(names(of(parent).child_interfaces)).toEqual([c.name]);
    expect(of(a).bridge_interfaces).toEqual([]);
    expect(
      of(bridge)
        .mac_addresses.map((m: Json) => m.mac_address)
        .sort(),
    ).toEqual(['00:00:00:00:00:01', '00:00:00:00:00:02']);
    // the REST-derived names stay, the same lists
    const same = await data(`{ interface(id: ${bridge.id}) { interfaces_by_bridge { name } } }`);
    expect(names(same.interface.interfaces_by_bridge)).toEqual(names([a, b]));
  });

  it("give a VM interface's bridge and child interfaces and MAC addresses, and a VM's interfaces", async () => {
    const vm = await makeVm(t);
    const bridge = await makeVmInterface(t, vm);
    const member = await makeVmInterface(t, vm, { bridge: bridge.id, parent: bridge.id });
    await mac('virtualization.vminterface', member.id, '00:00:00:00:01:01');
    const d = await data(`{ virtual_machine(id: ${vm.id}) { interfaces { name } }
      vm_interface(id: ${bridge.id}) { bridge_interfaces { name } child_interfaces { name mac_addresses { mac_address } } } }`);
    expect(names(d.virtual_machine.interfaces)).toEqual(names([bridge, member]));
    expect(d.vm_interface.bridge_interfaces).toEqual([{ name: member.name }]);
    expect(d.vm_interface.child_interfaces).toEqual([
      { name: member.name, mac_addresses: [{ mac_address: '00:00:00:00:01:01' }] },
    ]);
  });

  it("give a device's components under Django's names and a tree's children", async () => {
    const device = await makeDevice(t);
    const port = await make44(t, '/api/dcim/console-ports/', { device: device.id, name: 'con0' });
    const region = await makeRegion(t);
    const child = await makeRegion(t, { parent: region.id });
    const d = await data(
      `{ device(id: ${device.id}) { consoleports { id } frontports { id } } region(id: ${region.id}) { children { id } } }`,
    );
    expect(d.device).toEqual({ consoleports: [{ id: String(port.id) }], frontports: [] });
    expect(d.region.children).toEqual([{ id: String(child.id) }]);
  });

  it('are not in the 3.4 schema', async () => {
    for (const [type, field] of [
      ['interface_list', 'bridge_interfaces { id }'],
      ['interface_list', 'mac_addresses { id }'],
      ['device_list', 'consoleports { id }'],
      ['region_list', 'children { id }'],
    ]) {
      const res = await gql(`{ ${type} { ${field} } }`, '3.4');
      expect(res.status, field).toBe(400);
      expect(res.body.errors[0].message).toContain('Cannot query field');
    }
  });

  it('load once per level, whatever the number of interfaces', async () => {
    const device = await makeDevice(t);
    const bridge = await makeInterface(t, device, { type: 'bridge' });
    const query = `{ device(id: ${device.id}) { interfaces { bridge_interfaces { name mac_addresses { id } } mac_addresses { id } } } }`;
    await makeInterface(t, device, { bridge: bridge.id });
    const few = await fewestStatements(t.db, () => data(query));
    for (let i = 0; i < 6; i++) await makeInterface(t, device, { bridge: bridge.id });
    const many = await fewestStatements(t.db, () => data(query));
    expect(many.result.device.interfaces).toHaveLength(8);
    expect(many.n).toBe(few.n);
  });
});
