/**
 * Scopes (NetBox 4.2) of prefixes, clusters and wireless LANs: scope_type / scope_id / scope in
 * 4.4, where 4.4 hides a prefix's and a cluster's `site`; 3.4 keeps `site` as the scope's site
 * (apps/dcim/scope.ts). Either shape is written in either dialect, and NetBox's ScopedFilterSet
 * filters work.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Json,
  makeCluster,
  makeLocation,
  makeRegion,
  makeSite,
  makeSiteGroup,
  uniq,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get44 = async (url: string) => (await t.request('GET', url, { headers: V44 })).json();
const send44 = (method: string, url: string, body: unknown) => t.request(method, url, { body, headers: V44 });
let octet = 0;
const net = () => `10.${170 + Math.floor(octet / 250)}.${++octet % 250}.0/24`;

describe('a prefix scope', () => {
  it('shows the scope in 4.4 and the site in 3.4, written either way', async () => {
    const site = await makeSite(t);
    // 3.4 writes a site: 4.4 reads it as the scope
    const made = await t.post('/api/ipam/prefixes/', { prefix: net(), site: site.id });
    expect(made.statusCode, made.body).toBe(201);
    const p = made.json();
    expect(p.site.id).toBe(site.id);
    expect(p).not.toHaveProperty('scope');
    const now = await get44(`/api/ipam/prefixes/${p.id}/`);
    expect(now).not.toHaveProperty('site');
    expect(now).toMatchObject({ scope_type: 'dcim.site', scope_id: site.id, scope: { id: site.id, slug: site.slug } });
    const keys = Object.keys(now);
    expect(keys.slice(keys.indexOf('vrf'), keys.indexOf('vrf') + 5)).toEqual([
      'vrf',
      'scope_type',
      'scope_id',
      'scope',
      'tenant',
    ]);
    // 4.4 writes a location: 3.4 sees its site
    const loc = await makeLocation(t, { site: site.id });
    const moved = await send44('PATCH', `/api/ipam/prefixes/${p.id}/`, {
      scope_type: 'dcim.location',
      scope_id: loc.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().scope).toMatchObject({ id: loc.id, name: loc.name });
    expect((await t.get(`/api/ipam/prefixes/${p.id}/`)).json().site.id).toBe(site.id);
    // a 3.4 PUT writing the same site back leaves the location
    const put = await t.put(`/api/ipam/prefixes/${p.id}/`, { prefix: p.prefix, site: site.id, status: 'active' });
    expect(put.statusCode, put.body).toBe(200);
    expect((await get44(`/api/ipam/prefixes/${p.id}/`)).scope_type).toBe('dcim.location');
    // a region scope: 3.4 sees no site (lossy, as NetBox 3.4 could not say it)
    const region = await makeRegion(t);
    await t.patch(`/api/ipam/prefixes/${p.id}/`, { scope_type: 'dcim.region', scope_id: region.id });
    expect((await t.get(`/api/ipam/prefixes/${p.id}/`)).json().site).toBeNull();
    // another site written in 3.4 becomes the scope; null clears it
    const other = await makeSite(t);
    await t.patch(`/api/ipam/prefixes/${p.id}/`, { site: other.id });
    expect(await get44(`/api/ipam/prefixes/${p.id}/`)).toMatchObject({ scope_type: 'dcim.site', scope_id: other.id });
    await send44('PATCH', `/api/ipam/prefixes/${p.id}/`, { site: null });
    expect(await get44(`/api/ipam/prefixes/${p.id}/`)).toMatchObject({ scope_type: null, scope_id: null, scope: null });
    // the change log records the scope with the site
    const changes = (
      await t.get(`/api/extras/object-changes/?changed_object_type=ipam.prefix&changed_object_id=${p.id}&ordering=time`)
    ).json().results as Json[];
    expect(changes[2]!.postchange_data).toMatchObject({ scope_type: 'dcim.location', scope_id: loc.id, site: site.id });
  });

  it('refuses a scope of another type or a missing one, writing nothing', async () => {
    const site = await makeSite(t);
    const p = (await t.post('/api/ipam/prefixes/', { prefix: net(), site: site.id })).json();
    const bad = await send44('PATCH', `/api/ipam/prefixes/${p.id}/`, {
      scope_type: 'dcim.rack',
      scope_id: 1,
      description: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ scope_type: ['Invalid content type: dcim.rack'] });
    const missing = await send44('PATCH', `/api/ipam/prefixes/${p.id}/`, {
      scope_type: 'dcim.site',
      scope_id: 987654321,
    });
    expect(missing.json()).toEqual({ scope_id: ['Related object not found using the provided value: 987654321.'] });
    const half = await send44('POST', '/api/ipam/prefixes/', { prefix: net(), scope_type: 'dcim.site' });
    expect(half.json()).toEqual({ scope_id: ['This field cannot be null.'] });
    const now = await get44(`/api/ipam/prefixes/${p.id}/`);
    expect([now.scope_type, now.scope_id, now.description]).toEqual(['dcim.site', site.id, '']);
  });

  it('filters by region, site group, site and location through the scope', async () => {
    const [region, group] = [await makeRegion(t), await makeSiteGroup(t)];
    const site = await makeSite(t, { region: region.id, group: group.id });
    const loc = await makeLocation(t, { site: site.id });
    const tag = uniq('scoped');
    const make = (scope: Json) => send44('POST', '/api/ipam/prefixes/', { prefix: net(), description: tag, ...scope });
    await make({ scope_type: 'dcim.region', scope_id: region.id });
    await make({ scope_type: 'dcim.sitegroup', scope_id: group.id });
    await make({ scope_type: 'dcim.site', scope_id: site.id });
    await make({ scope_type: 'dcim.location', scope_id: loc.id });
    const count = async (query: string, v44 = true) => {
      const url = `/api/ipam/prefixes/?description=${tag}&${query}`;
      return (v44 ? await get44(url) : (await t.get(url)).json()).count;
    };
    expect(await count(`region_id=${region.id}`)).toBe(3);
    expect(await count(`region=${region.slug}`, false)).toBe(3);
    expect(await count(`site_group_id=${group.id}`)).toBe(3);
    expect(await count(`site_id=${site.id}`)).toBe(2);
    expect(await count(`site=${site.slug}`, false)).toBe(2);
    expect(await count(`location_id=${loc.id}`)).toBe(1);
    expect(await count(`location=${loc.slug}`)).toBe(1);
    expect(await count('scope_type=dcim.sitegroup')).toBe(1);
    expect(await count(`scope_type=dcim.site&scope_id=${site.id}`)).toBe(1);
    expect((await t.get('/api/ipam/prefixes/?location_id=987654321')).statusCode).toBe(400);
  });
});

describe('a cluster and a wireless LAN scope', () => {
  it('keeps a cluster site and scope in step, in both dialects', async () => {
    const site = await makeSite(t);
    const loc = await makeLocation(t, { site: site.id });
    const type = (await t.post('/api/virtualization/cluster-types/', { name: uniq('ct'), slug: uniq('ct') })).json();
    const made = await send44('POST', '/api/virtualization/clusters/', {
      name: uniq('c'),
      type: type.id,
      scope_type: 'dcim.location',
      scope_id: loc.id,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).not.toHaveProperty('site');
    expect((await t.get(`/api/virtualization/clusters/${made.json().id}/`)).json().site.id).toBe(site.id);
    const old = await makeCluster(t, { site: site.id });
    expect(await get44(`/api/virtualization/clusters/${old.id}/`)).toMatchObject({
      scope_type: 'dcim.site',
      scope_id: site.id,
    });
    expect((await get44(`/api/virtualization/clusters/?location_id=${loc.id}`)).count).toBe(1);
    expect((await t.get(`/api/virtualization/clusters/?site_id=${site.id}`)).json().count).toBe(2);
  });

  it('gives a wireless LAN a scope in 4.4 and nothing new in 3.4', async () => {
    const site = await makeSite(t);
    const ssid = uniq('ssid').slice(0, 30);
    const made = await send44('POST', '/api/wireless/wireless-lans/', {
      ssid,
      scope_type: 'dcim.site',
      scope_id: site.id,
    });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().scope).toMatchObject({ id: site.id });
    const old = (await t.get(`/api/wireless/wireless-lans/${made.json().id}/`)).json();
    expect(old).not.toHaveProperty('scope_type');
    expect(old).not.toHaveProperty('scope');
    expect((await get44(`/api/wireless/wireless-lans/?site_id=${site.id}`)).results.map((w: Json) => w.ssid)).toEqual([
      ssid,
    ]);
  });
});
