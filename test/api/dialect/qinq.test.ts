/**
 * Q-in-Q (IEEE 802.1ad, NetBox 4.2 #9102): a VLAN's `qinq_role` and `qinq_svlan`, an interface's
 * mode `q-in-q` and `qinq_svlan` (apps/ipam/vlan-qinq.ts, apps/dcim/interface-qinq.ts). The fields
 * are 4.4's; the mode is shown in both dialects, and a 3.4 answer holding it is valid against the
 * 3.4 document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api44,
  type Api44,
  ids,
  type Json,
  makeDevice,
  makeInterface,
  makeVlan,
  makeVm,
  makeVmInterface,
  uniq,
} from '../../factories/index.js';
import type { TestApp } from '../../helpers/app.js';
import { makeContractApp } from '../../contract/harness.js';

let t: TestApp;
let v44: Api44;
beforeAll(async () => {
  // every answer checked against the document of its dialect (3.4 unless the request asks 4.4)
  t = await makeContractApp();
  v44 = api44(t);
});
afterAll(async () => t.close());

const VLANS = '/api/ipam/vlans/';
const svlan = (vid = 100) => makeVlan(t, { vid, qinq_role: 'svlan' });
const cvlan = (s: Json, vid = 10, extra: Json = {}) =>
  makeVlan(t, { vid, qinq_role: 'cvlan', qinq_svlan: s.id, ...extra });
/** a VLAN's nested form in 4.4 (NetBox's NestedVLANSerializer) */
const nested = (v: Json) => ({ id: v.id, url: v.url, display: v.display, vid: v.vid, name: v.name, description: '' });

describe('a VLAN in Q-in-Q', () => {
  it('shows its role and service VLAN in 4.4 only, and no display_name there', async () => {
    const s = await svlan();
    const c = await cvlan(s);
    const shown = (await v44.get(`${VLANS}${c.id}/`)).json();
    expect(shown.qinq_role).toEqual({ value: 'cvlan', label: 'Customer' });
    expect(shown.qinq_svlan).toEqual(nested(s));
    expect(shown).not.toHaveProperty('display_name');
    expect((await v44.get(`${VLANS}${s.id}/`)).json()).toMatchObject({
      qinq_role: { value: 'svlan', label: 'Service' },
      qinq_svlan: null,
    });
    expect((await v44.get(`${VLANS}${(await makeVlan(t)).id}/`)).json().qinq_role).toBeNull();
    const old = (await t.get(`${VLANS}${c.id}/`)).json();
    expect(old).not.toHaveProperty('qinq_role');
    expect(old).not.toHaveProperty('qinq_svlan');
    expect(old.display_name).toBe(old.display);
  });

  it("refuses NetBox's broken rules, and a service VLAN that is not one", async () => {
    const s = await svlan();
    const plain = await makeVlan(t);
    const cases: Array<[Json, Json]> = [
      [{ qinq_svlan: s.id }, { qinq_svlan: ['Only Q-in-Q customer VLANs maybe assigned to a service VLAN.'] }],
      [
        { qinq_role: 'svlan', qinq_svlan: s.id },
        { qinq_svlan: ['Only Q-in-Q customer VLANs maybe assigned to a service VLAN.'] },
      ],
      [{ qinq_role: 'cvlan' }, { qinq_role: ['A Q-in-Q customer VLAN must be assigned to a service VLAN.'] }],
      [
        { qinq_role: 'cvlan', qinq_svlan: plain.id },
        { qinq_svlan: [`VLAN ${plain.name} (100) is not a Q-in-Q service VLAN.`] },
      ],
      [{ qinq_role: '' }, { qinq_role: ['"" is not a valid choice.'] }],
    ];
    for (const [extra, errors] of cases) {
      const res = await v44.post(VLANS, { vid: 7, name: uniq('c'), ...extra });
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json()).toEqual(errors);
    }
  });

  it("keeps a customer VLAN's VID and name unique per service VLAN only", async () => {
    const [s1, s2] = [await svlan(), await svlan()];
    const c = await cvlan(s1, 20);
    const again = await v44.post(VLANS, { vid: 20, name: uniq('c'), qinq_role: 'cvlan', qinq_svlan: s1.id });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toEqual({ __all__: ['VLAN with this Qinq svlan and VLAN ID already exists.'] });
    const sameName = await v44.post(VLANS, { vid: 21, name: c.name, qinq_role: 'cvlan', qinq_svlan: s1.id });
    expect(sameName.json()).toEqual({ __all__: ['VLAN with this Qinq svlan and Name already exists.'] });
    await cvlan(s2, 20, { name: c.name });
    await makeVlan(t, { vid: 20, name: c.name });
  });

  it('filters by role, by service VLAN and by its VID, and ignores qinq_svlan=', async () => {
    const s1 = await svlan(3001);
    const s2 = await svlan(3002);
    const [c1, c2] = [await cvlan(s1, 11), await cvlan(s2, 12)];
    const scope = `id=${s1.id}&id=${s2.id}&id=${c1.id}&id=${c2.id}&ordering=id`;
    const list = async (q: string) => ids((await v44.get(`${VLANS}?${scope}&${q}`)).json());
    expect(await list('qinq_role=svlan')).toEqual([s1.id, s2.id]);
    expect(await list('qinq_role=cvlan&qinq_role=svlan')).toEqual([s1.id, s2.id, c1.id, c2.id]);
    expect(await list(`qinq_svlan_id=${s2.id}`)).toEqual([c2.id]);
    expect(await list('qinq_svlan_vid=3001')).toEqual([c1.id]);
    expect(await list('qinq_svlan_vid__n=3001')).toEqual([s1.id, s2.id, c2.id]);
    expect(await list('qinq_svlan_vid__gte=3002')).toEqual([c2.id]);
    expect(await list(`qinq_svlan=${s2.id}`)).toEqual([s1.id, s2.id, c1.id, c2.id]);
    const bad = await v44.get(`${VLANS}?qinq_role=bogus`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toHaveProperty('qinq_role');
  });

  it('keeps a service VLAN in use: its customer VLANs protect it, and its role stays', async () => {
    const s = await svlan();
    const c = await cvlan(s);
    const gone = await v44.del(`${VLANS}${s.id}/`);
    expect(gone.statusCode).toBe(409);
    expect(gone.json().detail).toMatch(/^Unable to delete object\. 1 dependent objects were found: /);
    const demoted = await v44.patch(`${VLANS}${s.id}/`, { qinq_role: null });
    expect(demoted.statusCode).toBe(400);
    expect(demoted.json()).toEqual({
      qinq_role: ['This service VLAN is in use (1 customer VLAN); it must stay a service VLAN.'],
    });
    expect((await v44.patch(`${VLANS}${c.id}/`, { qinq_role: null, qinq_svlan: null })).statusCode).toBe(200);
    expect((await v44.patch(`${VLANS}${s.id}/`, { qinq_role: null })).statusCode).toBe(200);
  });
});

/** device and VM interfaces: how to make one on a new owner, and their list path */
const KINDS: Array<[string, string, (extra?: Json) => Promise<Json>]> = [
  ['dcim.interface', '/api/dcim/interfaces/', async (extra = {}) => makeInterface(t, await makeDevice(t), extra)],
  [
    'virtualization.vminterface',
    '/api/virtualization/interfaces/',
    async (extra = {}) => makeVmInterface(t, await makeVm(t), extra),
  ],
];

describe.each(KINDS)('a %s in mode q-in-q', (_model, path, makeOne) => {
  it('shows its service VLAN in 4.4, and its mode as it is in 3.4, valid against 3.4’s document', async () => {
    const s = await svlan();
    const i = await makeOne({ mode: 'q-in-q', qinq_svlan: s.id });
    const mode = { value: 'q-in-q', label: 'Q-in-Q (802.1ad)' };
    const shown = (await v44.get(`${path}${i.id}/`)).json();
    expect(shown.mode).toEqual(mode);
    expect(shown.qinq_svlan).toEqual(nested(s));
    // the contract app has checked this answer against the 3.4 document
    const old = (await t.get(`${path}${i.id}/`)).json();
    expect(old.mode).toEqual(mode);
    expect(old).not.toHaveProperty('qinq_svlan');
    expect(ids((await t.get(`${path}?id=${i.id}&mode=q-in-q`)).json())).toEqual([i.id]);
  });

  it('takes a service VLAN only in mode q-in-q, and only a service VLAN', async () => {
    const s = await svlan();
    const other = await makeVlan(t);
    const access = await makeOne({ mode: 'access' });
    const res = await v44.patch(`${path}${access.id}/`, { qinq_svlan: s.id });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ qinq_svlan: ['Interface mode does not support q-in-q service vlan'] });
    const notService = await v44.patch(`${path}${access.id}/`, { mode: 'q-in-q', qinq_svlan: other.id });
    expect(notService.statusCode).toBe(400);
    expect(notService.json()).toEqual({
      qinq_svlan: [`VLAN ${other.name} (100) is not a Q-in-Q service VLAN.`],
    });
    expect((await v44.patch(`${path}${access.id}/`, { mode: 'q-in-q', qinq_svlan: s.id })).statusCode).toBe(200);
  });

  it('keeps its service VLAN through other changes, and loses it leaving the mode', async () => {
    const s = await svlan();
    const untagged = await makeVlan(t);
    const i = await makeOne({ mode: 'q-in-q', qinq_svlan: s.id, untagged_vlan: untagged.id });
    const kept = await t.patch(`${path}${i.id}/`, { description: 'edge' });
    expect(kept.statusCode, kept.body).toBe(200);
    const read = (await v44.get(`${path}${i.id}/`)).json();
    expect(read.qinq_svlan?.id).toBe(s.id);
    expect(read.untagged_vlan?.id).toBe(untagged.id);
    // a 3.4 client changes the mode it sees, knowing nothing of the service VLAN
    const left = await t.patch(`${path}${i.id}/`, { mode: 'access' });
    expect(left.statusCode, left.body).toBe(200);
    expect((await v44.get(`${path}${i.id}/`)).json()).toMatchObject({
      qinq_svlan: null,
      untagged_vlan: { id: untagged.id },
    });
  });

  it('is found by vlan_id and vlan through its service VLAN, as through its other VLANs', async () => {
    const s = await svlan(3100);
    const u = await makeVlan(t, { vid: 3101 });
    const byService = await makeOne({ mode: 'q-in-q', qinq_svlan: s.id });
    const byUntagged = await makeOne({ mode: 'access', untagged_vlan: u.id });
    const find = async (q: string) => ids((await t.get(`${path}?${q}&ordering=id`)).json());
    expect(await find(`vlan_id=${s.id}`)).toEqual([byService.id]);
    expect(await find(`vlan_id=${u.id}`)).toEqual([byUntagged.id]);
    expect(await find('vlan=3100')).toEqual([byService.id]);
    expect(await find(`qinq_svlan_id=${s.id}`)).toEqual([byService.id]);
  });

  it('loses its service VLAN when that VLAN is deleted', async () => {
    const s = await svlan();
    const i = await makeOne({ mode: 'q-in-q', qinq_svlan: s.id });
    expect((await v44.del(`${VLANS}${s.id}/`)).statusCode).toBe(204);
    expect((await v44.get(`${path}${i.id}/`)).json()).toMatchObject({ mode: { value: 'q-in-q' }, qinq_svlan: null });
  });
});
