/**
 * NetBox 4.2's VLAN translation policies and rules, served in the 4.4 dialect only: a policy shows
 * its rules, a rule shows its policy as an id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Api44, ids, makeVlanTranslationPolicy } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let v44: Api44;
beforeAll(async () => {
  t = await makeTestApp();
  v44 = api44(t);
});
afterAll(async () => t.close());

const POLICIES = '/api/ipam/vlan-translation-policies/';
const RULES = '/api/ipam/vlan-translation-rules/';

describe('VLAN translation policies and rules', () => {
  it('creates a policy and its rules, showing them in the policy, and deletes them with it', async () => {
    const made = await v44.post(POLICIES, { name: 'edge', description: 'customer edge' });
    expect(made.statusCode, made.body).toBe(201);
    const policy = made.json();
    expect(policy).toMatchObject({ display: 'edge', rules: [] });
    const r2 = await v44.post(RULES, { policy: policy.id, local_vid: 200, remote_vid: 2000 });
    expect(r2.statusCode, r2.body).toBe(201);
    expect(r2.json()).toMatchObject({ policy: policy.id, display: '200 -> 2000 (edge)', description: '' });
    const r1 = (await v44.post(RULES, { policy: policy.id, local_vid: 100, remote_vid: 1000 })).json();
    const read = (await v44.get(`${POLICIES}${policy.id}/`)).json();
    expect(read.rules).toEqual([
      {
        id: r1.id,
        url: r1.url,
        display: '100 -> 1000 (edge)',
        policy: policy.id,
        local_vid: 100,
        remote_vid: 1000,
        description: '',
      },
      {
        id: r2.json().id,
        url: r2.json().url,
        display: '200 -> 2000 (edge)',
        policy: policy.id,
        local_vid: 200,
        remote_vid: 2000,
        description: '',
      },
    ]);
    const listed = (await v44.get(`${POLICIES}?id=${policy.id}`)).json().results[0];
    expect(listed.rules.map((r: { id: number }) => r.id)).toEqual([r1.id, r2.json().id]);
    const brief = (await v44.get(`${POLICIES}?brief=1&id=${policy.id}`)).json().results[0];
    expect(brief).toEqual({
      id: policy.id,
      url: policy.url,
      display: 'edge',
      name: 'edge',
      description: 'customer edge',
    });
    const patched = await v44.patch(`${RULES}${r1.id}/`, { remote_vid: 1001 });
    expect(patched.json().display).toBe('100 -> 1001 (edge)');
    expect((await v44.del(`${POLICIES}${policy.id}/`)).statusCode).toBe(204);
    expect((await v44.get(`${RULES}${r1.id}/`)).statusCode).toBe(404);
  });

  it('is not there in 3.4', async () => {
    const policy = await makeVlanTranslationPolicy(t);
    expect((await t.get(`${POLICIES}${policy.id}/`)).statusCode).toBe(404);
    expect((await t.get(RULES)).statusCode).toBe(404);
    expect(Object.keys((await t.get('/api/ipam/')).json())).not.toContain('vlan-translation-rules');
  });

  it('filters rules by policy, VIDs and q', async () => {
    const a = await makeVlanTranslationPolicy(t);
    const b = await makeVlanTranslationPolicy(t);
    const ra = (await v44.post(RULES, { policy: a.id, local_vid: 10, remote_vid: 20 })).json();
    const rb = (await v44.post(RULES, { policy: b.id, local_vid: 20, remote_vid: 30 })).json();
    const list = async (q: string) => ids((await v44.get(`${RULES}?policy_id=${a.id}&policy_id=${b.id}&${q}`)).json());
    expect(await list('ordering=id')).toEqual([ra.id, rb.id]);
    expect(await list(`policy=${b.name}`)).toEqual([rb.id]);
    expect(await list('local_vid__gte=15')).toEqual([rb.id]);
    expect(await list('q=20&ordering=id')).toEqual([ra.id, rb.id]);
    expect(await list(`q=${a.name}`)).toEqual([ra.id]);
  });

  it('refuses a VID used twice in a policy and one out of range, writing nothing', async () => {
    const policy = await makeVlanTranslationPolicy(t);
    const res = await v44.post(RULES, [
      { policy: policy.id, local_vid: 5, remote_vid: 50 },
      { policy: policy.id, local_vid: 6, remote_vid: 50 },
      { policy: policy.id, local_vid: 4095, remote_vid: 60 },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([
      {},
      { __all__: ['VLAN translation rule with this Policy and Remote VLAN ID already exists.'] },
      { local_vid: ['Ensure this value is less than or equal to 4094.'] },
    ]);
    expect((await v44.get(`${RULES}?policy_id=${policy.id}`)).json().count).toBe(0);
  });
});
