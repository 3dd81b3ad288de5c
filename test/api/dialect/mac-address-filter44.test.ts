/**
 * Interfaces' `mac_address` filter in the 4.4 dialect: an interface (device or VM) having any MAC
 * address object of that value, as NetBox 4.4 filters `mac_addresses__mac_address`; 3.4 keeps
 * matching the interface's own (primary) `mac_address`. REST and GraphQL alike.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, make44, makeDevice, makeInterface, makeVm, makeVmInterface, V44 } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

const IFACES = '/api/dcim/interfaces/';
let t: TestApp;
let device: Json;
/** a: primary 02:..:0A and also 02:..:0B; b: primary 02:..:0C; c: no MAC objects */
let a: Json, b: Json, c: Json;

const mac = (owner: string, id: number, address: string) =>
  make44(t, '/api/dcim/mac-addresses/', { mac_address: address, assigned_object_type: owner, assigned_object_id: id });

beforeAll(async () => {
  t = await makeTestApp();
  device = await makeDevice(t);
  a = await makeInterface(t, device, { mac_address: '02:00:00:00:00:0a' });
  b = await makeInterface(t, device, { mac_address: '02:00:00:00:00:0c' });
  c = await makeInterface(t, device);
  await mac('dcim.interface', a.id, '02:00:00:00:00:0b');
}, 60_000);
afterAll(async () => t?.close());

async function ids(query: string, dialect: '3.4' | '4.4'): Promise<number[]> {
  const headers = dialect === '4.4' ? V44 : undefined;
  const res = await t.request('GET', `${IFACES}?device_id=${device.id}&${query}`, { headers });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().results as Json[]).map((r) => r.id).sort((x, y) => x - y);
}

describe('interfaces mac_address filter', () => {
  it('matches any of the MAC address objects in 4.4, the primary only in 3.4', async () => {
    expect(await ids('mac_address=02-00-00-00-00-0B', '4.4')).toEqual([a.id]);
    expect(await ids('mac_address=02:00:00:00:00:0b', '3.4')).toEqual([]);
    expect(await ids('mac_address=02:00:00:00:00:0a', '3.4')).toEqual([a.id]);
    expect(await ids('mac_address=02:00:00:00:00:0a&mac_address=02:00:00:00:00:0c', '4.4')).toEqual([a.id, b.id]);
  });

  it('takes the lookups, negated ones keeping interfaces with no matching object', async () => {
    expect(await ids('mac_address__ic=00:0B', '4.4')).toEqual([a.id]);
    expect(await ids('mac_address__isw=02:00', '4.4')).toEqual([a.id, b.id]);
    // a has 0A as well, so "not 0B" leaves it out; c has no MAC objects and stays
    expect(await ids('mac_address__n=02:00:00:00:00:0b', '4.4')).toEqual([b.id, c.id]);
    expect(await ids('mac_address__nic=0c', '4.4')).toEqual([a.id, c.id]);
    expect(await ids('mac_address__empty=true', '4.4')).toEqual([c.id]);
    expect(await ids('mac_address__empty=false', '4.4')).toEqual([a.id, b.id]);
  });

  it('answers a bad value with a 400 naming the parameter', async () => {
    const res = await t.request('GET', `${IFACES}?mac_address=nonsense`, { headers: V44 });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['mac_address']);
  });

  it('applies to VM interfaces and to GraphQL 4.4 filters', async () => {
    const vm = await makeVm(t);
    const vi = await makeVmInterface(t, vm);
    await makeVmInterface(t, vm);
    await mac('virtualization.vminterface', vi.id, '02:00:00:00:01:0b');
    const res = await t.request(
      'GET',
      `/api/virtualization/interfaces/?virtual_machine_id=${vm.id}&mac_address=02:00:00:00:01:0b`,
      {
        headers: V44,
      },
    );
    expect((res.json().results as Json[]).map((r) => r.id)).toEqual([vi.id]);
    const query = `{ interface_list(filters: {device_id: ${device.id}, mac_address: {i_contains: "00:0b"}}) { id } }`;
    const gql = await t.request('POST', '/graphql/', { body: { query }, headers: V44 });
    expect(gql.json()).toEqual({ data: { interface_list: [{ id: String(a.id) }] } });
  });
});
