import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { type Json, make, makeDevice } from '../../factories/index.js';

let t: TestApp;
let device: Json;
let other: Json;
let v4: Json;
let v6: Json;
let elsewhere: Json;
let loose: Json;
beforeAll(async () => {
  t = await makeTestApp();
});
// each test its own devices and addresses: one deletes an address, others set primaries
beforeEach(async () => {
  device = await makeDevice(t);
  other = await makeDevice(t);
  const eth = await make(t, '/api/dcim/interfaces/', { device: device.id, name: 'eth0', type: '1000base-t' });
  const otherEth = await make(t, '/api/dcim/interfaces/', { device: other.id, name: 'eth0', type: '1000base-t' });
  const on = (iface: Json) => ({ assigned_object_type: 'dcim.interface', assigned_object_id: iface.id });
  v4 = await make(t, '/api/ipam/ip-addresses/', { address: '192.0.2.10/24', ...on(eth) });
  v6 = await make(t, '/api/ipam/ip-addresses/', { address: '2001:db8::10/64', ...on(eth) });
  elsewhere = await make(t, '/api/ipam/ip-addresses/', { address: '192.0.2.20/24', ...on(otherEth) });
  loose = await make(t, '/api/ipam/ip-addresses/', { address: '192.0.2.30/24' });
});
afterAll(async () => t.close());

describe('device primary addresses', () => {
  it('accepts addresses on the device and renders primary_ip (IPv6 first)', async () => {
    const res = await t.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: v4.id, primary_ip6: v6.id });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.primary_ip4).toMatchObject({ id: v4.id, address: '192.0.2.10/24' });
    expect(body.primary_ip6).toMatchObject({ id: v6.id, address: '2001:db8::10/64' });
    expect(body.primary_ip.id).toBe(v6.id);
    expect((await t.get(`/api/dcim/devices/?has_primary_ip=true&id=${device.id}`)).json().count).toBe(1);
  });

  it('refuses an address that is not on the device, or of the wrong family', async () => {
    const notHere = await t.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: elsewhere.id });
    expect(notHere.statusCode).toBe(400);
    expect(notHere.json()).toEqual({
      primary_ip4: ['The specified IP address (192.0.2.20/24) is not assigned to this device.'],
    });
    const unassigned = await t.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: loose.id });
    expect(unassigned.json().primary_ip4[0]).toMatch(/is not assigned to this device/);
    const family = await t.patch(`/api/dcim/devices/${device.id}/`, { primary_ip6: v4.id });
    expect(family.json()).toEqual({ primary_ip6: ['192.0.2.10/24 is not an IPv6 address.'] });
  });

  it('clears the primary address when the address is deleted', async () => {
    const set = await t.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: v4.id, primary_ip6: v6.id });
    expect(set.statusCode, set.body).toBe(200);
    expect((await t.del(`/api/ipam/ip-addresses/${v4.id}/`)).statusCode).toBe(204);
    const body = (await t.get(`/api/dcim/devices/${device.id}/`)).json();
    expect(body.primary_ip4).toBeNull();
    expect(body.primary_ip.id).toBe(v6.id);
  });

  it('stores local context data as an object only', async () => {
    const ok = await t.patch(`/api/dcim/devices/${other.id}/`, { local_context_data: { ntp: ['192.0.2.1'] } });
    expect(ok.json().local_context_data).toEqual({ ntp: ['192.0.2.1'] });
    const bad = await t.patch(`/api/dcim/devices/${other.id}/`, { local_context_data: [1] });
    expect(bad.json()).toEqual({ local_context_data: ['JSON data must be in object form.'] });
  });
});
