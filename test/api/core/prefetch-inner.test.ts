/**
 * Parents of nested objects (represent/prefetch.ts `inner:`): the device of an address's interface,
 * the manufacturer of a device's type, come with the page's own statement, so a page of assigned
 * addresses costs what a page of unassigned ones does, and shows the same as the interface's own GET.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { getStatements } from '../../helpers/statements.js';
import { uniq, make, makeDevice, makeDeviceType, type Json } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  // every GET renders: the statements counted are the render's, not a cached answer's
  t = await makeTestApp({ RESPONSE_CACHE_MB: '0' });
});
afterAll(async () => t.close());

const statements = (url: string): Promise<{ n: number; body: Json }> => getStatements(t, url);

describe('parents of nested objects', () => {
  it('come with the page: assigned addresses cost what unassigned ones do', async () => {
    const device = await makeDevice(t);
    const ifaces = [
      await make(t, '/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' }),
      await make(t, '/api/dcim/interfaces/', { device: device.id, name: 'eth1', type: '1000base-t' }),
    ];
    const [assigned, loose] = [uniq('asg'), uniq('lse')];
    const res = await t.post('/api/ipam/ip-addresses/', [
      ...ifaces.map((i, n) => ({
        address: `192.0.2.${n + 1}/24`,
        dns_name: `${assigned}.example.net`,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: i.id,
      })),
      ...ifaces.map((_, n) => ({ address: `198.51.100.${n + 1}/24`, dns_name: `${loose}.example.net` })),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const withParents = await statements(`/api/ipam/ip-addresses/?q=${assigned}`);
    const without = await statements(`/api/ipam/ip-addresses/?q=${loose}`);
    expect(withParents.n).toBe(without.n);
    expect(withParents.body.results).toHaveLength(2);
    for (const a of withParents.body.results as Json[]) {
      const own = (await t.get(`/api/dcim/interfaces/${a.assigned_object.id}/`)).json();
      expect(a.assigned_object.device).toEqual(own.device);
      expect(a.assigned_object.device.id).toBe(device.id);
    }
  });

  it("show a device type and its manufacturer in a device as the type's own GET does", async () => {
    const device = await makeDevice(t);
    const { body } = await statements(`/api/dcim/devices/${device.id}/`);
    const type = (await t.get(`/api/dcim/device-types/${body.device_type.id}/`)).json();
    expect(body.device_type.manufacturer).toEqual(type.manufacturer);
    expect(body.device_type.manufacturer.id).toBeGreaterThan(0);
  });
});

describe('rows a represent hook reads (ModelDef.representRows)', () => {
  it("come with the page: a device detail is one statement, its type's manufacturer and the bay holding it included", async () => {
    const device = await makeDevice(t);
    const { n, body } = await statements(`/api/dcim/devices/${device.id}/`);
    expect(body.parent_device).toBeNull();
    expect(n).toBe(1);
  });

  it('still give the parent of a device in a bay, as the bay shows it', async () => {
    const chassis = await makeDevice(t, { device_type: (await makeDeviceType(t, { subdevice_role: 'parent' })).id });
    const blade = await makeDevice(t, {
      device_type: (await makeDeviceType(t, { subdevice_role: 'child', u_height: 0 })).id,
    });
    const bay = await make(t, '/api/dcim/device-bays/', {
      device: chassis.id,
      name: 'bay1',
      installed_device: blade.id,
    });
    const { body } = await statements(`/api/dcim/devices/${blade.id}/`);
    expect(body.parent_device).toMatchObject({
      id: chassis.id,
      name: chassis.name,
      device_bay: { id: bay.id, name: 'bay1' },
    });
    const list = await statements(`/api/dcim/devices/?id=${blade.id}&id=${chassis.id}`);
    const byId = new Map((list.body.results as Json[]).map((d) => [d.id, d]));
    expect(byId.get(blade.id)!.parent_device).toEqual(body.parent_device);
    expect(byId.get(chassis.id)!.parent_device).toBeNull();
  });
});

describe('an address page and an interface page', () => {
  it('read the NAT outside addresses with the page', async () => {
    const tag = uniq('nat');
    const inside = await make(t, '/api/ipam/ip-addresses/', {
      address: '10.231.9.1/24',
      dns_name: `${tag}-in.example.net`,
    });
    const outside = await make(t, '/api/ipam/ip-addresses/', {
      address: '203.0.113.91/32',
      dns_name: `${tag}-out.example.net`,
      nat_inside: inside.id,
    });
    const { n, body } = await statements(`/api/ipam/ip-addresses/?id=${inside.id}&id=${outside.id}&ordering=id`);
    expect(n).toBe(1);
    expect(body.results.map((a: Json) => a.id)).toEqual([inside.id, outside.id]);
    expect(body.results[0].nat_outside).toEqual(
      (await t.get(`/api/ipam/ip-addresses/${inside.id}/`)).json().nat_outside,
    );
    expect(body.results[0].nat_outside).toMatchObject({ id: outside.id, address: '203.0.113.91/32' });
    expect(body.results[1].nat_outside).toBeNull();
    expect(body.results[1].nat_inside).toMatchObject({ id: inside.id });
  });

  it('read the L2VPN terminations of interfaces with the page (rendering one nested still loads what it shows)', async () => {
    const device = await makeDevice(t);
    const [a, b] = [
      await make(t, '/api/dcim/interfaces/', { device: device.id, name: 'xe-0', type: '10gbase-x-sfpp' }),
      await make(t, '/api/dcim/interfaces/', { device: device.id, name: 'xe-1', type: '10gbase-x-sfpp' }),
    ];
    const page = `/api/dcim/interfaces/?id=${a.id}&id=${b.id}&ordering=name`;
    // none terminated: the page's statement found that out
    expect((await statements(page)).n).toBe(1);
    const vpn = await make(t, '/api/vpn/l2vpns/', {
      name: uniq('vpn'),
      slug: uniq('vpn'),
      type: 'vxlan',
      identifier: 5001,
    });
    const term = await make(t, '/api/vpn/l2vpn-terminations/', {
      l2vpn: vpn.id,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: a.id,
    });
    const { body } = await statements(page);
    expect(body.results[0].l2vpn_termination).toMatchObject({ id: term.id, l2vpn: { id: vpn.id, identifier: 5001 } });
    expect(body.results[0].l2vpn_termination).toEqual(
      (await t.get(`/api/dcim/interfaces/${a.id}/`)).json().l2vpn_termination,
    );
    expect(body.results[1].l2vpn_termination).toBeNull();
  });
});
