import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  make,
  makeDevice,
  makeInterface,
  makeTunnel,
  makeVm,
  makeVmInterface,
  onInterface,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();

describe('tunnels and their terminations', () => {
  it('terminates a tunnel on a device interface and a VM interface, rendering the ends nested', async () => {
    const group = await make(t, '/api/vpn/tunnel-groups/', { name: uniq('tg'), slug: uniq('tg') });
    const tun = await makeTunnel(t, { group: group.id, encapsulation: 'ipsec-tunnel', tunnel_id: 42 });
    expect(tun).toMatchObject({
      status: { value: 'active', label: 'Active' },
      encapsulation: { value: 'ipsec-tunnel', label: 'IPsec - Tunnel' },
      tunnel_id: 42,
    });
    expect(tun.group).toMatchObject({ id: group.id, slug: group.slug });
    expect((await get(`/api/vpn/tunnel-groups/${group.id}/`)).tunnel_count).toBe(1);
    const dev = await makeDevice(t);
    const i = await makeInterface(t, dev, { name: 'tun0', type: 'virtual' });
    const vmi = await makeVmInterface(t, await makeVm(t));
    const address = await make(t, '/api/ipam/ip-addresses/', { address: '192.0.2.1/32' });
    const a = await make(t, '/api/vpn/tunnel-terminations/', {
      tunnel: tun.id,
      role: 'hub',
      ...onInterface(i),
      outside_ip: address.id,
    });
    const b = await make(t, '/api/vpn/tunnel-terminations/', {
      tunnel: tun.id,
      role: 'spoke',
      ...onInterface(vmi, 'virtualization.vminterface'),
    });
    expect(a).toMatchObject({
      display: `${tun.name}: Termination ${a.id}`,
      role: { value: 'hub', label: 'Hub' },
      termination_type: 'dcim.interface',
      termination_id: i.id,
    });
    expect(a.termination).toMatchObject({ id: i.id, name: 'tun0', device: { id: dev.id } });
    expect(a.outside_ip).toMatchObject({ id: address.id, address: '192.0.2.1/32' });
    expect(b.termination).toMatchObject({
      id: vmi.id,
      virtual_machine: expect.objectContaining({ id: vmi.virtual_machine.id }),
    });
    // filters of NetBox 3.7's TunnelTerminationFilterSet
    expect(ids(await get(`/api/vpn/tunnel-terminations/?tunnel_id=${tun.id}`)).sort()).toEqual([a.id, b.id].sort());
    expect(ids(await get(`/api/vpn/tunnel-terminations/?interface_id=${i.id}`))).toEqual([a.id]);
    expect(ids(await get(`/api/vpn/tunnel-terminations/?vminterface_id=${vmi.id}`))).toEqual([b.id]);
    expect(ids(await get(`/api/vpn/tunnel-terminations/?tunnel=${tun.name}&role=spoke`))).toEqual([b.id]);
    expect(ids(await get(`/api/vpn/tunnel-terminations/?outside_ip_id=${address.id}`))).toEqual([a.id]);
    expect(
      ids(await get(`/api/vpn/tunnel-terminations/?tunnel_id=${tun.id}&termination_type=virtualization.vminterface`)),
    ).toEqual([b.id]);
    expect((await t.get('/api/vpn/tunnel-terminations/?interface_id=999999')).statusCode).toBe(400);
    expect(ids(await get(`/api/vpn/tunnels/?group=${group.slug}`))).toEqual([tun.id]);
    expect(ids(await get(`/api/vpn/tunnels/?group_id=${group.id}&encapsulation=gre`))).toEqual([]);
    // the change log names the tunnel as the termination's related object (NetBox to_objectchange)
    const changes = await get(
      `/api/extras/object-changes/?changed_object_type=vpn.tunneltermination&changed_object_id=${a.id}`,
    );
    expect(changes.results[0]).toMatchObject({ related_object_type: 'vpn.tunnel', related_object_id: tun.id });
  });

  it('attaches an interface to one tunnel at a time, in one request too', async () => {
    const [t1, t2] = [await makeTunnel(t), await makeTunnel(t)];
    const i = await makeInterface(t, await makeDevice(t), { name: 'gre1', type: 'virtual' });
    await make(t, '/api/vpn/tunnel-terminations/', { tunnel: t1.id, ...onInterface(i) });
    const again = await t.post('/api/vpn/tunnel-terminations/', { tunnel: t2.id, ...onInterface(i) });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ termination: [`gre1 is already attached to a tunnel (${t1.name}).`] });
    const j = await makeInterface(t, await makeDevice(t), { name: 'gre2', type: 'virtual' });
    const bulk = await t.post('/api/vpn/tunnel-terminations/', [
      { tunnel: t1.id, ...onInterface(j) },
      { tunnel: t2.id, ...onInterface(j) },
    ]);
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual([{}, { termination: [`gre2 is already attached to a tunnel (${t1.name}).`] }]);
    expect((await get(`/api/vpn/tunnel-terminations/?interface_id=${j.id}`)).count).toBe(0);
  });

  it('refuses other termination types, missing objects, and cascades from the interface and the tunnel', async () => {
    const tun = await makeTunnel(t);
    const dev = await makeDevice(t);
    const wrongType = await t.post('/api/vpn/tunnel-terminations/', {
      tunnel: tun.id,
      termination_type: 'dcim.device',
      termination_id: dev.id,
    });
    expect(wrongType.json()).toEqual({ termination_type: ['Invalid content type: dcim.device'] });
    const missing = await t.post('/api/vpn/tunnel-terminations/', {
      tunnel: tun.id,
      termination_type: 'dcim.interface',
      termination_id: 999999,
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toHaveProperty('termination_id');
    const i = await makeInterface(t, dev, { type: 'virtual' });
    const term = await make(t, '/api/vpn/tunnel-terminations/', { tunnel: tun.id, ...onInterface(i) });
    expect((await t.del(`/api/dcim/interfaces/${i.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/vpn/tunnel-terminations/${term.id}/`)).statusCode).toBe(404);
    const j = await makeInterface(t, dev, { type: 'virtual' });
    const term2 = await make(t, '/api/vpn/tunnel-terminations/', { tunnel: tun.id, ...onInterface(j) });
    expect((await t.del(`/api/vpn/tunnels/${tun.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/vpn/tunnel-terminations/${term2.id}/`)).statusCode).toBe(404);
  });

  it('keeps a tunnel group in use and an outside address in use', async () => {
    const group = await make(t, '/api/vpn/tunnel-groups/', { name: uniq('tg'), slug: uniq('tg') });
    const tun = await makeTunnel(t, { group: group.id });
    expect((await t.del(`/api/vpn/tunnel-groups/${group.id}/`)).statusCode).toBe(409);
    const address = await make(t, '/api/ipam/ip-addresses/', { address: '198.51.100.7/32' });
    const i = await makeInterface(t, await makeDevice(t), { type: 'virtual' });
    await make(t, '/api/vpn/tunnel-terminations/', { tunnel: tun.id, ...onInterface(i), outside_ip: address.id });
    expect((await t.del(`/api/ipam/ip-addresses/${address.id}/`)).statusCode).toBe(409);
    const dup = await t.post('/api/vpn/tunnels/', { name: tun.name, encapsulation: 'gre' });
    expect(dup.json()).toEqual({ name: ['tunnel with this Name already exists.'] });
    const bad = await t.post('/api/vpn/tunnels/', { name: uniq('tun'), encapsulation: 'vxlan' });
    expect(bad.json()).toEqual({ encapsulation: ['"vxlan" is not a valid choice.'] });
  });
});
