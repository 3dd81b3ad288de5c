/**
 * NetBox 4.0 (#9627): a VLAN group's VIDs are a list of ranges. 4.4 shows and takes `vid_ranges`;
 * 3.4 keeps `min_vid` / `max_vid` as their outer bounds, and writing those sets one range. A VLAN
 * in a group must lie in one of its ranges, and `available-vlans` hands out only those VIDs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Json, makeVlan, makeVlanGroup, make44 } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const group44 = (id: number) => api44(t).get(`/api/ipam/vlan-groups/${id}/`);

describe('VLAN group vid_ranges', () => {
  it('4.4 shows the ranges and not the bounds; 3.4 the bounds and not the ranges', async () => {
    const g = await makeVlanGroup(t, { min_vid: 10, max_vid: 20 });
    expect(g.min_vid).toBe(10);
    expect(g.max_vid).toBe(20);
    expect(g).not.toHaveProperty('vid_ranges');
    const shown = (await group44(g.id)).json();
    expect(shown.vid_ranges).toEqual([[10, 20]]);
    expect(shown).not.toHaveProperty('min_vid');
    const plain = await makeVlanGroup(t);
    expect((await group44(plain.id)).json().vid_ranges).toEqual([[1, 4094]]);
  });

  it('written ranges are stored sorted and set the 3.4 bounds', async () => {
    const g = await make44(t, '/api/ipam/vlan-groups/', {
      name: 'ranges',
      slug: 'ranges',
      vid_ranges: [
        [300, 400],
        [100, 199],
      ],
    });
    expect(g.vid_ranges).toEqual([
      [100, 199],
      [300, 400],
    ]);
    const old = (await t.get(`/api/ipam/vlan-groups/${g.id}/`)).json();
    expect([old.min_vid, old.max_vid]).toEqual([100, 400]);
    // a 3.4 PUT of what it read keeps the ranges; a 3.4 write that moves a bound makes one range
    const { id: _id, url: _url, display: _display, ...read } = old;
    const put = await t.put(`/api/ipam/vlan-groups/${g.id}/`, { ...read, scope_type: null, scope_id: null });
    expect(put.statusCode, put.body).toBe(200);
    expect((await group44(g.id)).json().vid_ranges).toEqual([
      [100, 199],
      [300, 400],
    ]);
    expect((await t.patch(`/api/ipam/vlan-groups/${g.id}/`, { max_vid: 500 })).statusCode).toBe(200);
    expect((await group44(g.id)).json().vid_ranges).toEqual([[100, 500]]);
  });

  it.each([
    ['not pairs', [[1, 2, 3]], 'Ranges must be specified in the form (lower, upper).'],
    ['not integers', [['a', 5]], 'Range boundaries must be defined as integers.'],
    ['below 1', [[0, 5]], 'Starting VLAN ID in range (0) cannot be less than 1'],
    ['above 4094', [[5, 4095]], 'Ending VLAN ID in range (4095) cannot exceed 4094'],
    ['reversed', [[9, 5]], 'Ending VLAN ID in range must be greater than or equal to the starting VLAN ID (9-5)'],
    [
      'overlapping',
      [
        [1, 10],
        [10, 20],
      ],
      'Ranges cannot overlap.',
    ],
    ['empty', [], 'This field cannot be blank.'],
  ])('refuses ranges %s with a 400', async (_what, vid_ranges, message) => {
    const res = await api44(t).post('/api/ipam/vlan-groups/', { name: 'bad', slug: 'bad', vid_ranges });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toEqual({ vid_ranges: [message] });
  });

  it('a VLAN must lie in one of the ranges, worded per dialect', async () => {
    const g = await make44(t, '/api/ipam/vlan-groups/', {
      name: 'gaps',
      slug: 'gaps',
      vid_ranges: [
        [10, 19],
        [30, 39],
      ],
    });
    await makeVlan(t, { group: g.id, vid: 35 });
    const gap = await t.post('/api/ipam/vlans/', { group: g.id, vid: 25, name: 'in-gap' });
    expect(gap.statusCode).toBe(400);
    expect(gap.json().vid).toEqual(['VID must be in ranges 10-19,30-39 for VLANs in group gaps']);
    const one = await makeVlanGroup(t, { min_vid: 10, max_vid: 20 });
    const out = await t.post('/api/ipam/vlans/', { group: one.id, vid: 25, name: 'out' });
    expect(out.json().vid).toEqual([`VID must be between 10 and 20 for VLANs in group ${one.name}`]);
  });

  it('available-vlans lists and hands out the VIDs of the ranges only', async () => {
    const g = await make44(t, '/api/ipam/vlan-groups/', {
      name: 'small',
      slug: 'small',
      vid_ranges: [
        [5, 6],
        [9, 9],
      ],
    });
    await makeVlan(t, { group: g.id, vid: 6 });
    const list = await t.get(`/api/ipam/vlan-groups/${g.id}/available-vlans/`);
    expect((list.json() as Json[]).map((v) => v.vid)).toEqual([5, 9]);
    const made = await t.post(`/api/ipam/vlan-groups/${g.id}/available-vlans/`, [{ name: 'a' }, { name: 'b' }]);
    expect(made.statusCode, made.body).toBe(201);
    expect((made.json() as Json[]).map((v) => v.vid)).toEqual([5, 9]);
    const none = await t.post(`/api/ipam/vlan-groups/${g.id}/available-vlans/`, { name: 'c' });
    expect(none.statusCode).toBe(409);
  });

  it('contains_vid: groups one of whose ranges holds the VID', async () => {
    const g = await make44(t, '/api/ipam/vlan-groups/', {
      name: 'cv',
      slug: 'cv',
      vid_ranges: [
        [3000, 3009],
        [3020, 3029],
      ],
    });
    const ids = async (q: string) =>
      ((await t.get(`/api/ipam/vlan-groups/?id=${g.id}&${q}`)).json().results as Json[]).map((r) => r.id);
    expect(await ids('contains_vid=3025')).toEqual([g.id]);
    expect(await ids('contains_vid=3015')).toEqual([]);
    expect((await t.get('/api/ipam/vlan-groups/?contains_vid=abc')).statusCode).toBe(400);
  });
});
