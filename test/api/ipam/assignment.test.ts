/**
 * IP addresses assigned to device interfaces (spec: Generic relations), once dcim provides them:
 * nested assigned_object, the interface/device filters and the cascade when an interface goes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { makeDevice, makeInterface, type Json } from '../../factories/index.js';

let t: TestApp;
let device: Json;
let eth0: Json;
let eth1: Json;
let ip: Json;
/** this test's own /24: the filters count every address in it */
let net: string;
let nets = 0;
beforeAll(async () => {
  t = await makeTestApp();
});
// each test its own device, interfaces and addresses: one moves the address, one deletes an interface
beforeEach(async () => {
  net = `10.60.${++nets}`;
  device = await makeDevice(t);
  eth0 = await makeInterface(t, device);
  eth1 = await makeInterface(t, device);
  const res = await t.post('/api/ipam/ip-addresses/', {
    address: `${net}.1/24`,
    assigned_object_type: 'dcim.interface',
    assigned_object_id: eth0.id,
  });
  expect(res.statusCode, res.body).toBe(201);
  ip = res.json();
  await t.post('/api/ipam/ip-addresses/', { address: `${net}.2/24` });
});
afterAll(async () => t.close());

const addrs = async (q: string) =>
  (await t.get(`/api/ipam/ip-addresses/?parent=${net}.0/24&${q}`)).json().results.map((r: Json) => r.address);

describe('assignment to a device interface', () => {
  it('renders the interface nested', () => {
    expect(ip.assigned_object_type).toBe('dcim.interface');
    expect(ip.assigned_object).toMatchObject({
      id: eth0.id,
      url: eth0.url,
      name: eth0.name,
      device: expect.objectContaining({ id: device.id }),
    });
  });

  it('refuses a missing interface', async () => {
    const res = await t.post('/api/ipam/ip-addresses/', {
      address: `${net}.9/24`,
      assigned_object_type: 'dcim.interface',
      assigned_object_id: 999999,
    });
    expect(res.json()).toEqual({ assigned_object_id: ['Related object not found using the provided value: 999999.'] });
  });

  it('filters by assigned_to_interface, device, interface', async () => {
    expect(await addrs('assigned_to_interface=true')).toEqual([`${net}.1/24`]);
    expect(await addrs('assigned_to_interface=false')).toEqual([`${net}.2/24`]);
    expect(await addrs(`device_id=${device.id}`)).toEqual([`${net}.1/24`]);
    expect(await addrs(`device=${device.name}`)).toEqual([`${net}.1/24`]);
    expect(await addrs(`interface_id=${eth0.id}`)).toEqual([`${net}.1/24`]);
    expect(await addrs(`interface_id=${eth1.id}`)).toEqual([]);
    expect(await addrs(`interface_id__n=${eth0.id}`)).toEqual([`${net}.2/24`]);
    expect(await addrs(`interface=${eth0.name}`)).toEqual([`${net}.1/24`]);
    expect(await addrs('device_id=999999')).toEqual([]);
  });

  it('moves to another interface and clears with both fields null', async () => {
    const moved = await t.patch(`/api/ipam/ip-addresses/${ip.id}/`, { assigned_object_id: eth1.id });
    expect(moved.json().assigned_object.id).toBe(eth1.id);
    const cleared = await t.patch(`/api/ipam/ip-addresses/${ip.id}/`, {
      assigned_object_type: null,
      assigned_object_id: null,
    });
    expect(cleared.json()).toMatchObject({
      assigned_object_type: null,
      assigned_object_id: null,
      assigned_object: null,
    });
  });

  it('deletes the addresses of a deleted interface with it (NetBox GenericRelation)', async () => {
    const other = (
      await t.post('/api/ipam/ip-addresses/', {
        address: `${net}.3/24`,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: eth1.id,
      })
    ).json();
    expect((await t.del(`/api/dcim/interfaces/${eth1.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/ipam/ip-addresses/${other.id}/`)).statusCode).toBe(404);
  });
});
