import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { type Json, makeSite, makeVlan, makeVlanGroup, uniq } from '../../factories/index.js';

let t: TestApp;
let site: Json;
let otherSite: Json;
let group: Json;
let lastFreeVid = 1000;
beforeAll(async () => {
  t = await makeTestApp();
});
/** each test its own two sites and a group `grp` scoped to the first (names are unique per scope) */
beforeEach(async () => {
  site = await makeSite(t);
  otherSite = await makeSite(t);
  group = await makeVlanGroup(t, {
    name: 'grp',
    // the name repeats in every test's own site; the slug is unique so `?group=<slug>` finds this test's
    slug: uniq('grp'),
    scope_type: 'dcim.site',
    scope_id: site.id,
    min_vid: 100,
    max_vid: 199,
  });
});
afterAll(async () => t.close());

describe('VLAN groups', () => {
  it('renders the scope nested and counts VLANs', async () => {
    const body = (await t.get(`/api/ipam/vlan-groups/${group.id}/`)).json();
    expect(body).toMatchObject({
      scope_type: 'dcim.site',
      scope_id: site.id,
      scope: { id: site.id, name: site.name },
      min_vid: 100,
      max_vid: 199,
      vlan_count: 0,
    });
  });

  it('validates the scope pair, its type and the VID range', async () => {
    const half = await t.post('/api/ipam/vlan-groups/', { name: 'h', slug: 'h', scope_type: 'dcim.site' });
    expect(half.json()).toEqual({ scope_id: ['This field cannot be null.'] });
    const notAllowed = await t.post('/api/ipam/vlan-groups/', {
      name: 'h',
      slug: 'h',
      scope_type: 'tenancy.tenant',
      scope_id: 1,
    });
    expect(notAllowed.json()).toEqual({ scope_type: ['Invalid content type: tenancy.tenant'] });
    const missing = await t.post('/api/ipam/vlan-groups/', {
      name: 'h',
      slug: 'h',
      scope_type: 'dcim.region',
      scope_id: 999999,
    });
    expect(missing.json()).toEqual({ scope_id: ['Related object not found using the provided value: 999999.'] });
    const range = await t.post('/api/ipam/vlan-groups/', { name: 'h', slug: 'h', min_vid: 200, max_vid: 100 });
    expect(range.json()).toEqual({ max_vid: ['Maximum child VID must be greater than or equal to minimum child VID'] });
    expect((await t.post('/api/ipam/vlan-groups/', { name: 'h', slug: 'h', max_vid: 4095 })).json()).toEqual({
      max_vid: ['Ensure this value is less than or equal to 4094.'],
    });
  });

  it('keeps name and slug unique per scope', async () => {
    const dup = await t.post('/api/ipam/vlan-groups/', {
      name: 'grp',
      slug: 'grp2',
      scope_type: 'dcim.site',
      scope_id: site.id,
    });
    expect(dup.statusCode).toBe(400);
    expect(dup.json().__all__).toEqual(['VLAN group with this Scope type, Scope id and Name already exists.']);
    expect(
      (
        await t.post('/api/ipam/vlan-groups/', {
          name: 'grp',
          slug: 'grp',
          scope_type: 'dcim.site',
          scope_id: otherSite.id,
        })
      ).statusCode,
    ).toBe(201);
  });

  it('filters by scope', async () => {
    const onOther = await makeVlanGroup(t, { scope_type: 'dcim.site', scope_id: otherSite.id });
    const unscoped = await makeVlanGroup(t);
    const res = (await t.get(`/api/ipam/vlan-groups/?site=${site.id}`)).json();
    expect(res.results.map((g: { id: number }) => g.id)).toEqual([group.id]);
    const mine = `id=${group.id}&id=${onOther.id}&id=${unscoped.id}`;
    expect((await t.get(`/api/ipam/vlan-groups/?scope_type=dcim.site&${mine}`)).json().count).toBe(2);
  });
});

describe('VLANs', () => {
  it('renders status {value,label}, display and display_name', async () => {
    const res = await t.post('/api/ipam/vlans/', { vid: 100, name: 'users', group: group.id, site: site.id });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      vid: 100,
      name: 'users',
      display: 'users (100)',
      display_name: 'users (100)',
      status: { value: 'active', label: 'Active' },
    });
    expect(body.group).toEqual({
      id: group.id,
      url: expect.any(String),
      display: 'grp',
      name: 'grp',
      slug: group.slug,
    });
    expect((await t.get(`/api/ipam/vlans/${body.id}/?brief=1`)).json()).toEqual({
      id: body.id,
      url: body.url,
      display: 'users (100)',
      vid: 100,
      name: 'users',
    });
  });

  it('keeps vid in 1-4094 and inside the group range', async () => {
    expect((await t.post('/api/ipam/vlans/', { vid: 5000, name: 'bad' })).json()).toEqual({
      vid: ['Ensure this value is less than or equal to 4094.'],
    });
    expect((await t.post('/api/ipam/vlans/', { vid: 0, name: 'bad' })).json()).toEqual({
      vid: ['Ensure this value is greater than or equal to 1.'],
    });
    expect((await t.post('/api/ipam/vlans/', { vid: 300, name: 'bad', group: group.id })).json()).toEqual({
      vid: ['VID must be between 100 and 199 for VLANs in group grp'],
    });
  });

  it('keeps (group, vid) and (group, name) unique; ungrouped VLANs may repeat', async () => {
    await makeVlan(t, { vid: 100, name: 'users', group: group.id });
    const vid = await t.post('/api/ipam/vlans/', { vid: 100, name: 'other', group: group.id });
    expect(vid.json()).toEqual({ __all__: ['VLAN with this Group and ID already exists.'] });
    const name = await t.post('/api/ipam/vlans/', { vid: 101, name: 'users', group: group.id });
    expect(name.json()).toEqual({ __all__: ['VLAN with this Group and Name already exists.'] });
    expect(
      (
        await t.post('/api/ipam/vlans/', [
          { vid: 7, name: 'free' },
          { vid: 7, name: 'free' },
        ])
      ).statusCode,
    ).toBe(201);
  });

  it('refuses a site outside the group scope', async () => {
    const res = await t.post('/api/ipam/vlans/', { vid: 150, name: 'x', group: group.id, site: otherSite.id });
    expect(res.statusCode).toBe(400);
    expect(res.json().group[0]).toMatch(
      /^VLAN is assigned to group grp \(scope: .+\); cannot also assign to site .+\.$/,
    );
  });

  it('filters by group_id, group, vid and site_id', async () => {
    await makeVlan(t, { vid: 100, name: 'users', group: group.id, site: site.id });
    await makeVlan(t, { vid: 120, name: 'voice', group: group.id });
    // ungrouped VLANs may repeat; a VID no other test uses
    const free = ++lastFreeVid;
    for (let i = 0; i < 2; i++) await makeVlan(t, { vid: free, name: 'free' });
    const vids = async (q: string) =>
      (await t.get(`/api/ipam/vlans/?${q}`)).json().results.map((v: { vid: number }) => v.vid);
    expect(await vids(`group_id=${group.id}`)).toEqual([100, 120]);
    expect(await vids(`group=${group.slug}`)).toEqual([100, 120]);
    expect(await vids(`group_id=${group.id}&vid__gte=110`)).toEqual([120]);
    expect(await vids(`site_id=${site.id}`)).toEqual([100]);
    expect(await vids(`vid=${free}`)).toEqual([free, free]);
  });

  it('protects a group with VLANs and a site with VLANs from deletion', async () => {
    await makeVlan(t, { vid: 100, name: 'users', group: group.id, site: site.id });
    await makeVlan(t, { vid: 120, name: 'voice', group: group.id });
    const res = await t.del(`/api/ipam/vlan-groups/${group.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toMatch(/^Unable to delete object\. 2 dependent objects were found: /);
    expect((await t.del(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(409);
  });
});
