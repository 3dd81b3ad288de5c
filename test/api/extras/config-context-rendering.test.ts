/**
 * The rendered `config_context` of devices (NetBox 3.4 get_config_context): matching active
 * contexts merged by weight then name, deep, then local_context_data; which assignments match;
 * where it is shown and left out; a constant number of SQL statements per page.
 *
 * A context without assignments matches every device, so each test assigns its contexts to
 * objects of its own (a new site, role, tag ...), and the one test that needs an unassigned
 * context removes it again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  type Json,
  make,
  makeDevice,
  makeInterface,
  makeRole,
  makeSite,
  named,
  makeClusterGroup,
  makeClusterType,
  makePlatform,
  makeRegion,
  makeSiteGroup,
  makeTag,
  makeTenant,
  makeTenantGroup,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const context = (extra: Json) => make(t, '/api/extras/config-contexts/', { name: uniq('cc'), data: {}, ...extra });
const rendered = async (device: Json) => (await t.get(`/api/dcim/devices/${device.id}/`)).json().config_context;

describe('merging', () => {
  it('merges matching contexts by weight, then name, deeply; later values win', async () => {
    const site = await makeSite(t);
    const n = uniq('m');
    await context({ name: `${n}-b`, weight: 200, sites: [site.id], data: { a: 2, nested: { y: 2, z: 2 }, list: [2] } });
    await context({ name: `${n}-c`, weight: 200, sites: [site.id], data: { c: 3, nested: { z: 3 } } });
    await context({
      name: `${n}-a`,
      weight: 100,
      sites: [site.id],
      data: { a: 1, nested: { x: 1, y: 1 }, list: [1], emptied: {} },
    });
    await context({ name: `${n}-z`, weight: 50, sites: [site.id], data: { a: 0, only: 'low', emptied: { k: 1 } } });
    const d = await makeDevice(t, { site: site.id });
    // NetBox 3.4 deepmerge: objects merge key by key, lists and empty objects replace
    expect(d.config_context).toEqual({ a: 2, only: 'low', emptied: {}, nested: { x: 1, y: 2, z: 3 }, list: [2], c: 3 });
    expect(await rendered(d)).toEqual(d.config_context);
  });

  it('merges local_context_data last, deeply', async () => {
    const site = await makeSite(t);
    await context({ sites: [site.id], data: { a: 1, nested: { x: 1, y: 1 } } });
    const d = await makeDevice(t, { site: site.id, local_context_data: { nested: { y: 'local' }, own: true } });
    expect(d.config_context).toEqual({ a: 1, nested: { x: 1, y: 'local' }, own: true });
    expect(d.local_context_data).toEqual({ nested: { y: 'local' }, own: true });
  });

  it('is {} for a device nothing matches, or its local data alone', async () => {
    const site = await makeSite(t);
    expect((await makeDevice(t, { site: site.id })).config_context).toEqual({});
    expect((await makeDevice(t, { site: site.id, local_context_data: { k: 'v' } })).config_context).toEqual({ k: 'v' });
  });

  it('ignores inactive contexts', async () => {
    const site = await makeSite(t);
    await context({ sites: [site.id], data: { on: 1 } });
    const off = await context({ sites: [site.id], data: { off: 1 }, is_active: false });
    const d = await makeDevice(t, { site: site.id });
    expect(d.config_context).toEqual({ on: 1 });
    await t.patch(`/api/extras/config-contexts/${off.id}/`, { is_active: true });
    expect(await rendered(d)).toEqual({ on: 1, off: 1 });
  });

  it('reflects contexts written after the device, at once', async () => {
    const site = await makeSite(t);
    const d = await makeDevice(t, { site: site.id });
    expect(await rendered(d)).toEqual({});
    const cc = await context({ sites: [site.id], data: { late: 1 } });
    expect(await rendered(d)).toEqual({ late: 1 });
    await t.patch(`/api/extras/config-contexts/${cc.id}/`, { data: { late: 2 } });
    expect(await rendered(d)).toEqual({ late: 2 });
    await t.del(`/api/extras/config-contexts/${cc.id}/`);
    expect(await rendered(d)).toEqual({});
  });

  it('applies a context without assignments to every device', async () => {
    const d = await makeDevice(t);
    const cc = await context({ data: { everywhere: uniq('x') } });
    try {
      expect(await rendered(d)).toEqual({ everywhere: cc.data.everywhere });
    } finally {
      await t.del(`/api/extras/config-contexts/${cc.id}/`);
    }
  });
});

describe('assignments', () => {
  it('matches the site region and its ancestors, not other regions', async () => {
    const top = await makeRegion(t);
    const child = await makeRegion(t, { parent: top.id });
    const other = await makeRegion(t);
    const d = await makeDevice(t, { site: (await makeSite(t, { region: child.id })).id });
    await context({ regions: [top.id], data: { top: 1 } });
    await context({ regions: [child.id], data: { child: 1 } });
    await context({ regions: [other.id], data: { other: 1 } });
    expect(await rendered(d)).toEqual({ top: 1, child: 1 });
  });

  it('matches the site group and its ancestors', async () => {
    const top = await makeSiteGroup(t);
    const child = await makeSiteGroup(t, { parent: top.id });
    const d = await makeDevice(t, { site: (await makeSite(t, { group: child.id })).id });
    await context({ site_groups: [top.id], data: { top: 1 } });
    await context({ site_groups: [(await makeSiteGroup(t)).id], data: { other: 1 } });
    expect(await rendered(d)).toEqual({ top: 1 });
  });

  it('matches site, role, platform, device type and location, each excluding others', async () => {
    const site = await makeSite(t);
    const role = await makeRole(t);
    const platform = await makePlatform(t);
    const location = await make(t, '/api/dcim/locations/', { ...named('loc'), site: site.id });
    const d = await makeDevice(t, { site: site.id, role: role.id, platform: platform.id, location: location.id });
    const other = await makeDevice(t, { site: (await makeSite(t)).id });
    await context({ sites: [site.id], data: { site: 1 } });
    await context({ roles: [role.id], data: { role: 1 } });
    await context({ platforms: [platform.id], data: { platform: 1 } });
    await context({ device_types: [d.device_type.id], data: { device_type: 1 } });
    await context({ locations: [location.id], data: { location: 1 } });
    expect(await rendered(d)).toEqual({ site: 1, role: 1, platform: 1, device_type: 1, location: 1 });
    expect(await rendered(other)).toEqual({});
  });

  it('matches the tenant and (exactly) its group', async () => {
    const parent = await makeTenantGroup(t);
    const group = await makeTenantGroup(t, { parent: parent.id });
    const tenant = await makeTenant(t, { group: group.id });
    const d = await makeDevice(t, { tenant: tenant.id });
    const other = await makeDevice(t, { tenant: (await makeTenant(t)).id });
    await context({ tenants: [tenant.id], data: { tenant: 1 } });
    await context({ tenant_groups: [group.id], data: { group: 1 } });
    // NetBox 3.4 compares the tenant's own group only
    await context({ tenant_groups: [parent.id], data: { parent: 1 } });
    expect(await rendered(d)).toEqual({ tenant: 1, group: 1 });
    expect(await rendered(other)).toEqual({});
  });

  it('matches a device carrying any of the context tags', async () => {
    const [red, blue, green] = [await makeTag(t), await makeTag(t), await makeTag(t)];
    const d = await makeDevice(t, { tags: [red.id] });
    await context({ tags: [red.slug, blue.slug], data: { red_or_blue: 1 } });
    await context({ tags: [green.slug], data: { green: 1 } });
    expect(await rendered(d)).toEqual({ red_or_blue: 1 });
    await t.patch(`/api/dcim/devices/${d.id}/`, { tags: [green.id] });
    expect(await rendered(d)).toEqual({ green: 1 });
  });

  it('matches the cluster, its type and its group', async () => {
    const type = await makeClusterType(t);
    const group = await makeClusterGroup(t);
    const site = await makeSite(t);
    const cluster = await make(t, '/api/virtualization/clusters/', {
      name: uniq('cluster'),
      type: type.id,
      group: group.id,
      site: site.id,
    });
    const d = await makeDevice(t, { site: site.id, cluster: cluster.id });
    const other = await makeDevice(t, { site: site.id });
    await context({ clusters: [cluster.id], data: { cluster: 1 } });
    await context({ cluster_types: [type.id], data: { type: 1 } });
    await context({ cluster_groups: [group.id], data: { group: 1 } });
    expect(await rendered(d)).toEqual({ cluster: 1, type: 1, group: 1 });
    expect(await rendered(other)).toEqual({});
  });

  it('needs every assigned kind to match (values of one kind are alternatives)', async () => {
    const [s1, s2] = [await makeSite(t), await makeSite(t)];
    const role = await makeRole(t);
    const a = await makeDevice(t, { site: s1.id, role: role.id });
    const b = await makeDevice(t, { site: s2.id });
    await context({ sites: [s1.id, s2.id], roles: [role.id], data: { both: 1 } });
    expect(await rendered(a)).toEqual({ both: 1 });
    expect(await rendered(b)).toEqual({});
  });
});

describe('where config_context is shown', () => {
  it('is in the full form of list and detail, and left out with ?exclude=config_context', async () => {
    const site = await makeSite(t);
    await context({ sites: [site.id], data: { k: 1 } });
    const d = await makeDevice(t, { site: site.id });
    expect((await t.get(`/api/dcim/devices/?id=${d.id}`)).json().results[0].config_context).toEqual({ k: 1 });
    const detail = (await t.get(`/api/dcim/devices/${d.id}/?exclude=config_context`)).json();
    expect(detail).not.toHaveProperty('config_context');
    expect(detail.name).toBe(d.name);
    const list = (await t.get(`/api/dcim/devices/?id=${d.id}&exclude=config_context`)).json();
    expect(list.results[0]).not.toHaveProperty('config_context');
  });

  it('is not in the brief form nor in nested devices', async () => {
    const d = await makeDevice(t);
    expect((await t.get(`/api/dcim/devices/${d.id}/?brief=1`)).json()).not.toHaveProperty('config_context');
    expect((await t.get(`/api/dcim/devices/?id=${d.id}&brief=1`)).json().results[0]).not.toHaveProperty(
      'config_context',
    );
    expect((await makeInterface(t, d)).device).not.toHaveProperty('config_context');
  });

  it('is read-only: a written config_context is ignored', async () => {
    const d = await makeDevice(t);
    const res = await t.patch(`/api/dcim/devices/${d.id}/`, { config_context: { x: 1 } });
    expect(res.statusCode).toBe(200);
    expect(res.json().config_context).toEqual({});
  });
});

describe('SQL statements of a device list', () => {
  it('stay constant as the page grows, and drop with ?exclude=config_context', async () => {
    const site = await makeSite(t);
    const role = await makeRole(t);
    const tag = await makeTag(t);
    const n = uniq('page');
    await context({ sites: [site.id], data: { site: 1, nested: { a: 1 } } });
    await context({ roles: [role.id], weight: 2000, data: { role: 1, nested: { b: 1 } } });
    await context({ tags: [tag.slug], data: { tagged: 1 } });
    const first = await makeDevice(t, { site: site.id, role: role.id, name: `${n}-0`, tags: [tag.id] });
    const rest = Array.from({ length: 20 }, (_, i) => ({
      name: `${n}-${i + 1}`,
      site: site.id,
      device_type: first.device_type.id,
      role: role.id,
      ...(i % 2 ? { tags: [tag.id] } : { local_context_data: { own: i } }),
    }));
    expect((await t.post('/api/dcim/devices/', rest)).statusCode).toBe(201);
    const cost = async (limit: number, extra = '', merged = true) => {
      const before = t.db.stats.queries;
      // a parameter no filter knows makes each URL new, so the page is rendered, not served from the response cache
      const res = await t.get(
        `/api/dcim/devices/?site_id=${site.id}&limit=${limit}&offset=1${extra}&render=${uniq('r')}`,
      );
      const results = res.json().results as Json[];
      expect(results).toHaveLength(limit);
      if (!extra && merged)
        for (const r of results) expect(r.config_context).toMatchObject({ site: 1, role: 1, nested: { a: 1, b: 1 } });
      return t.db.stats.queries - before;
    };
    // a cache may reload (TTL) or the token's last use be recorded during one call, the likelier the
    // slower the host: each size takes its cheapest of three runs (as helpers/statements.ts does)
    const cheapest = async (limit: number, extra = '', merged = true) =>
      Math.min(await cost(limit, extra, merged), await cost(limit, extra, merged), await cost(limit, extra, merged));
    const small = await cheapest(2);
    expect(await cheapest(20)).toBe(small);
    // the page's values, then the matched contexts' data (the active contexts are cached per process)
    expect(await cheapest(20, '&exclude=config_context')).toBe(small - 2);

    // with no active context at all, a config context is the local data and costs no statement
    const active = (await t.get('/api/extras/config-contexts/?is_active=true&limit=1000')).json().results as Json[];
    expect(
      (
        await t.patch(
          '/api/extras/config-contexts/',
          active.map((c) => ({ id: c.id, is_active: false })),
        )
      ).statusCode,
    ).toBe(200);
    expect(await cheapest(20, '', false)).toBe(await cheapest(20, '&exclude=config_context', false));
    const page = (await t.get(`/api/dcim/devices/?site_id=${site.id}&limit=3&ordering=name&render=${uniq('r')}`)).json()
      .results as Json[];
    expect(page.map((d) => d.config_context)).toEqual([{}, { own: 0 }, {}]);
  });
});

describe('virtual machines', () => {
  const vm = (extra: Json) => make(t, '/api/virtualization/virtual-machines/', { name: uniq('vm'), ...extra });
  const renderedVm = async (v: Json, query = '') =>
    (await t.get(`/api/virtualization/virtual-machines/${v.id}/${query}`)).json();

  it('match on region, site, cluster and its type and group, role, platform, tenant and tags; local data last', async () => {
    const region = await makeRegion(t);
    const site = await makeSite(t, { region: region.id });
    const type = await makeClusterType(t);
    const group = await makeClusterGroup(t);
    const cluster = await make(t, '/api/virtualization/clusters/', {
      name: uniq('cluster'),
      type: type.id,
      group: group.id,
      site: site.id,
    });
    const role = await makeRole(t);
    const platform = await makePlatform(t);
    const tenant = await makeTenant(t);
    const tag = await makeTag(t);
    const v = await vm({
      site: site.id,
      cluster: cluster.id,
      role: role.id,
      platform: platform.id,
      tenant: tenant.id,
      tags: [tag.id],
      local_context_data: { own: 1, site: 'local' },
    });
    const other = await vm({
      cluster: (await make(t, '/api/virtualization/clusters/', { name: uniq('cluster'), type: type.id })).id,
    });
    await context({ regions: [region.id], data: { region: 1 } });
    await context({ sites: [site.id], data: { site: 1 } });
    await context({ clusters: [cluster.id], data: { cluster: 1 } });
    await context({ cluster_groups: [group.id], data: { group: 1 } });
    await context({ roles: [role.id], data: { role: 1 } });
    await context({ platforms: [platform.id], data: { platform: 1 } });
    await context({ tenants: [tenant.id], data: { tenant: 1 } });
    await context({ tags: [tag.slug], data: { tag: 1 } });
    expect((await renderedVm(v)).config_context).toEqual({
      region: 1,
      site: 'local',
      cluster: 1,
      group: 1,
      role: 1,
      platform: 1,
      tenant: 1,
      tag: 1,
      own: 1,
    });
    const typeOnly = await context({ cluster_types: [type.id], data: { type: 1 } });
    expect((await renderedVm(other)).config_context).toEqual({ type: 1 });
    await t.del(`/api/extras/config-contexts/${typeOnly.id}/`);
  });

  it('never match contexts assigned locations or device types (NetBox 3.4)', async () => {
    const site = await makeSite(t);
    const location = await make(t, '/api/dcim/locations/', { ...named('loc'), site: site.id });
    const v = await vm({ site: site.id });
    await context({ sites: [site.id], data: { site: 1 } });
    await context({ sites: [site.id], locations: [location.id], data: { location: 1 } });
    expect((await renderedVm(v)).config_context).toEqual({ site: 1 });
  });

  it('leave config_context out with ?exclude=config_context and in the brief form', async () => {
    const v = await vm({ site: (await makeSite(t)).id });
    expect(await renderedVm(v)).toHaveProperty('config_context', {});
    expect(await renderedVm(v, '?exclude=config_context')).not.toHaveProperty('config_context');
    expect(await renderedVm(v, '?brief=1')).not.toHaveProperty('config_context');
    const list = (await t.get(`/api/virtualization/virtual-machines/?id=${v.id}&exclude=config_context`)).json();
    expect(list.results[0]).not.toHaveProperty('config_context');
  });
});
