/**
 * NetBox 4.1's circuit groups and their assignments (4.2's shape: a circuit or a virtual circuit
 * as the member), served in the 4.4 dialect only.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api44,
  type Api44,
  ids,
  makeCircuit,
  makeCircuitGroup,
  makeTenant,
  makeVirtualCircuit,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let v44: Api44;
beforeAll(async () => {
  t = await makeTestApp();
  v44 = api44(t);
});
afterAll(async () => t.close());

const ASSIGNMENTS = '/api/circuits/circuit-group-assignments/';

describe('/api/circuits/circuit-groups/', () => {
  it('creates, reads, updates and deletes a group in 4.4, and is 404 in 3.4', async () => {
    const tenant = await makeTenant(t);
    const g = await makeCircuitGroup(t, { tenant: tenant.id, description: 'backbone' });
    expect(g).toMatchObject({ circuit_count: 0, description: 'backbone', tenant: { id: tenant.id } });
    expect((await t.get(`/api/circuits/circuit-groups/${g.id}/`)).statusCode).toBe(404);
    expect(Object.keys((await t.get('/api/circuits/')).json())).not.toContain('circuit-groups');
    const brief = (await v44.get(`/api/circuits/circuit-groups/?brief=1&id=${g.id}`)).json().results[0];
    expect(brief).toEqual({ id: g.id, url: g.url, display: g.name, name: g.name });
    const filtered = await v44.get(`/api/circuits/circuit-groups/?tenant_id=${tenant.id}&q=backbone`);
    expect(ids(filtered.json())).toEqual([g.id]);
    expect((await v44.patch(`/api/circuits/circuit-groups/${g.id}/`, { slug: 'bb' })).json().slug).toBe('bb');
    expect((await v44.del(`/api/circuits/circuit-groups/${g.id}/`)).statusCode).toBe(204);
  });
});

describe('/api/circuits/circuit-group-assignments/', () => {
  it('assigns a circuit and a virtual circuit, shows the member, and counts them', async () => {
    const g = await makeCircuitGroup(t);
    const c = await makeCircuit(t);
    const vc = await makeVirtualCircuit(t);
    const a = await v44.post(ASSIGNMENTS, {
      group: g.id,
      member_type: 'circuits.circuit',
      member_id: c.id,
      priority: 'primary',
    });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json()).toMatchObject({
      display: `${g.name} (Primary)`,
      member_type: 'circuits.circuit',
      member: { id: c.id, cid: c.cid },
      priority: { value: 'primary', label: 'Primary' },
    });
    const b = await v44.post(ASSIGNMENTS, { group: g.id, member_type: 'circuits.virtualcircuit', member_id: vc.id });
    expect(b.statusCode, b.body).toBe(201);
    expect(b.json()).toMatchObject({ display: g.name, priority: null, member: { id: vc.id, cid: vc.cid } });
    expect((await v44.get(`/api/circuits/circuit-groups/${g.id}/`)).json().circuit_count).toBe(2);
    const list = async (q: string) => ids((await v44.get(`${ASSIGNMENTS}?group_id=${g.id}&${q}`)).json());
    expect(await list(`circuit_id=${c.id}`)).toEqual([a.json().id]);
    expect(await list(`virtual_circuit=${vc.cid}`)).toEqual([b.json().id]);
    expect(await list(`provider_id=${c.provider.id}`)).toEqual([a.json().id]);
    expect(await list('priority=primary')).toEqual([a.json().id]);
    expect(await list(`q=${vc.cid}`)).toEqual([b.json().id]);
    expect(await list('member_type=circuits.virtualcircuit')).toEqual([b.json().id]);
    const changed = await v44.patch(`${ASSIGNMENTS}${b.json().id}/`, { priority: 'secondary' });
    expect(changed.json().display).toBe(`${g.name} (Secondary)`);
    // deleting the member deletes its assignments
    expect((await v44.del(`/api/circuits/circuits/${c.id}/`)).statusCode).toBe(204);
    expect(await list('')).toEqual([b.json().id]);
    expect((await t.get(ASSIGNMENTS)).statusCode).toBe(404);
  });

  it('refuses another type of member and an assignment twice, writing nothing', async () => {
    const g = await makeCircuitGroup(t);
    const c = await makeCircuit(t);
    const res = await v44.post(ASSIGNMENTS, [
      { group: g.id, member_type: 'circuits.circuit', member_id: c.id },
      { group: g.id, member_type: 'dcim.site', member_id: 1 },
      { group: g.id, member_type: 'circuits.circuit', member_id: c.id },
    ]);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body[0]).toEqual({});
    expect(Object.keys(body[1])).toEqual(['member_type']);
    expect(body[2]).toEqual({
      __all__: ['Circuit group assignment with this Member type, Member ID and Group already exists.'],
    });
    expect((await v44.get(`${ASSIGNMENTS}?group_id=${g.id}`)).json().count).toBe(0);
  });
});
