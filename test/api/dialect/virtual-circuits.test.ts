/**
 * NetBox 4.2's virtual circuits, their types and terminations, served in the 4.4 dialect only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api44,
  type Api44,
  ids,
  makeDevice,
  makeInterface,
  makeProvider,
  makeProviderNetwork,
  makeVirtualCircuit,
  makeVirtualCircuitType,
  make,
  uniq,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let v44: Api44;
beforeAll(async () => {
  t = await makeTestApp();
  v44 = api44(t);
});
afterAll(async () => t.close());

const TERMS = '/api/circuits/virtual-circuit-terminations/';

describe('/api/circuits/virtual-circuit-types/', () => {
  it('creates, reads, updates and deletes a type in 4.4, counting its circuits; 404 in 3.4', async () => {
    const type = await makeVirtualCircuitType(t, { color: 'aa1409' });
    expect(type).toMatchObject({ color: 'aa1409', virtual_circuit_count: 0 });
    await makeVirtualCircuit(t, { type: type.id });
    const brief = (await v44.get(`/api/circuits/virtual-circuit-types/?brief=1&id=${type.id}`)).json().results[0];
    expect(Object.keys(brief)).toEqual([
      'id',
      'url',
      'display',
      'name',
      'slug',
      'description',
      'virtual_circuit_count',
    ]);
    expect(brief.virtual_circuit_count).toBe(1);
    expect((await t.get(`/api/circuits/virtual-circuit-types/${type.id}/`)).statusCode).toBe(404);
    const bad = await v44.patch(`/api/circuits/virtual-circuit-types/${type.id}/`, { color: 'red' });
    expect(bad.json()).toEqual({ color: ['Enter a valid hexadecimal RGB color code.'] });
    const inUse = await v44.del(`/api/circuits/virtual-circuit-types/${type.id}/`);
    expect(inUse.statusCode).toBe(409);
  });
});

describe('/api/circuits/virtual-circuits/', () => {
  it('creates, reads, filters, updates and deletes a virtual circuit in 4.4', async () => {
    const network = await makeProviderNetwork(t);
    const account = await make(t, '/api/circuits/provider-accounts/', {
      provider: network.provider.id,
      account: uniq('acct'),
    });
    const vc = await makeVirtualCircuit(t, { provider_network: network.id, provider_account: account.id });
    expect(vc).toMatchObject({ display: vc.cid, status: { value: 'active', label: 'Active' } });
    expect(Object.keys(vc.provider_network)).toEqual(['id', 'url', 'display', 'name', 'description']);
    const list = async (q: string) => ids((await v44.get(`/api/circuits/virtual-circuits/?${q}`)).json());
    expect(await list(`provider_id=${network.provider.id}`)).toEqual([vc.id]);
    expect(await list(`provider=${network.provider.slug}`)).toEqual([vc.id]);
    expect(await list(`provider_account=${account.account}`)).toEqual([vc.id]);
    expect(await list(`provider_network_id=${network.id}&status=active`)).toEqual([vc.id]);
    expect(await list(`type_id=${vc.type.id}&q=${vc.cid}`)).toEqual([vc.id]);
    const patched = await v44.patch(`/api/circuits/virtual-circuits/${vc.id}/`, { status: 'planned' });
    expect(patched.json().status.value).toBe('planned');
    expect((await t.get('/api/circuits/virtual-circuits/')).statusCode).toBe(404);
    expect((await v44.del(`/api/circuits/virtual-circuits/${vc.id}/`)).statusCode).toBe(204);
  });

  it('refuses an account of another provider and a cid taken on the network, writing nothing', async () => {
    const network = await makeProviderNetwork(t);
    const other = await make(t, '/api/circuits/provider-accounts/', {
      provider: (await makeProvider(t)).id,
      account: uniq('acct'),
    });
    const type = await makeVirtualCircuitType(t);
    const res = await v44.post('/api/circuits/virtual-circuits/', [
      { cid: 'vc-1', provider_network: network.id, type: type.id },
      { cid: 'vc-2', provider_network: network.id, type: type.id, provider_account: other.id },
      { cid: 'vc-1', provider_network: network.id, type: type.id },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([
      {},
      { provider_account: ['The assigned account must belong to the provider of the assigned network.'] },
      { __all__: ['Virtual circuit with this Provider network and Circuit ID already exists.'] },
    ]);
    expect((await v44.get(`/api/circuits/virtual-circuits/?provider_network_id=${network.id}`)).json().count).toBe(0);
  });
});

describe('/api/circuits/virtual-circuit-terminations/', () => {
  it('terminates a virtual circuit on virtual interfaces, as hub and spoke', async () => {
    const vc = await makeVirtualCircuit(t);
    const device = await makeDevice(t);
    const hubIf = await makeInterface(t, device, { type: 'virtual' });
    const spokeIf = await makeInterface(t, device, { type: 'virtual' });
    const hub = await v44.post(TERMS, { virtual_circuit: vc.id, role: 'hub', interface: hubIf.id });
    expect(hub.statusCode, hub.body).toBe(201);
    expect(hub.json()).toMatchObject({
      display: `${vc.cid}: Hub termination`,
      role: { value: 'hub', label: 'Hub' },
      interface: { id: hubIf.id, name: hubIf.name },
      virtual_circuit: { id: vc.id, cid: vc.cid },
    });
    const spoke = await v44.post(TERMS, { virtual_circuit: vc.id, role: 'spoke', interface: spokeIf.id });
    expect(spoke.json().display).toBe(`${vc.cid}: Spoke termination`);
    const list = async (q: string) => ids((await v44.get(`${TERMS}?virtual_circuit_id=${vc.id}&${q}`)).json());
    expect(await list('ordering=id')).toEqual([hub.json().id, spoke.json().id]);
    expect(await list('role=spoke')).toEqual([spoke.json().id]);
    expect(await list(`interface_id=${hubIf.id}`)).toEqual([hub.json().id]);
    expect(await list(`provider_network_id=${vc.provider_network.id}&role=hub`)).toEqual([hub.json().id]);
    const brief = (await v44.get(`${TERMS}?brief=1&id=${hub.json().id}`)).json().results[0];
    expect(Object.keys(brief)).toEqual(['id', 'url', 'display', 'virtual_circuit', 'role', 'interface', 'description']);
    expect((await t.get(`${TERMS}${hub.json().id}/`)).statusCode).toBe(404);
    // a pass-through port as NetBox 4.2 has it: no cable path crosses a virtual circuit here
    const paths = await v44.get(`${TERMS}${hub.json().id}/paths/`);
    expect([paths.statusCode, paths.json()]).toEqual([200, []]);
    expect((await v44.get(`${TERMS}987654321/paths/`)).statusCode).toBe(404);
    expect((await t.get(`${TERMS}${hub.json().id}/paths/`)).statusCode).toBe(404);
    // deleting the interface deletes its termination
    expect((await t.del(`/api/dcim/interfaces/${spokeIf.id}/`)).statusCode).toBe(204);
    expect(await list('')).toEqual([hub.json().id]);
    expect((await v44.del(`${TERMS}${hub.json().id}/`)).statusCode).toBe(204);
  });

  it('refuses a physical interface and an interface terminated already, writing nothing', async () => {
    const vc = await makeVirtualCircuit(t);
    const device = await makeDevice(t);
    const phys = await makeInterface(t, device);
    const virt = await makeInterface(t, device, { type: 'virtual' });
    const res = await v44.post(TERMS, [
      { virtual_circuit: vc.id, interface: virt.id },
      { virtual_circuit: vc.id, interface: phys.id },
      { virtual_circuit: vc.id, interface: virt.id },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([
      {},
      { __all__: ['Virtual circuits may be terminated only to virtual interfaces.'] },
      { interface: ['virtual circuit termination with this interface already exists.'] },
    ]);
    expect((await v44.get(`${TERMS}?virtual_circuit_id=${vc.id}`)).json().count).toBe(0);
  });
});
