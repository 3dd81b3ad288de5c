/**
 * /api/extras/config-contexts/ (NetBox 3.4 ConfigContext): defaults, assignment m2ms rendered
 * nested and written as ids, assignment tags as slugs both ways, validation, filters and order.
 * How contexts render on devices: config-context-rendering.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  ids,
  type Json,
  make,
  makeRole,
  makeSite,
  makeRegion,
  makeTag,
  makeTenant,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const PATH = '/api/extras/config-contexts/';
const context = (extra: Json = {}) => make(t, PATH, { name: uniq('cc'), data: { k: 1 }, ...extra });
const ASSIGNMENTS = [
  'regions',
  'site_groups',
  'sites',
  'locations',
  'device_types',
  'roles',
  'platforms',
  'cluster_types',
  'cluster_groups',
  'clusters',
  'tenant_groups',
  'tenants',
  'tags',
];

describe('representation', () => {
  it("has the NetBox 3.7 fields (3.4's and the synced data ones, with auto_sync_enabled) and defaults", async () => {
    const cc = await context();
    const synced = ['data_source', 'data_path', 'data_file', 'data_synced', 'auto_sync_enabled'];
    expect(Object.keys(cc).sort()).toEqual(
      [
        'id',
        'url',
        'display',
        'name',
        'weight',
        'description',
        'is_active',
        ...ASSIGNMENTS,
        'data',
        ...synced,
        'created',
        'last_updated',
      ].sort(),
    );
    expect(cc).toMatchObject({
      data_source: null,
      data_path: '',
      data_file: null,
      data_synced: null,
      auto_sync_enabled: false,
    });
    expect(cc).toMatchObject({ display: cc.name, weight: 1000, description: '', is_active: true, data: { k: 1 } });
    for (const k of ASSIGNMENTS) expect(cc[k], k).toEqual([]);
    expect((await t.get(`${PATH}${cc.id}/?brief=1`)).json()).toEqual({
      id: cc.id,
      url: cc.url,
      display: cc.name,
      name: cc.name,
    });
  });

  it('renders assignments nested, written by id, and tags as slugs both ways', async () => {
    const site = await makeSite(t);
    const role = await makeRole(t);
    const tag = await makeTag(t);
    const cc = await context({ sites: [site.id], roles: [role.id], tags: [tag.slug] });
    expect(cc.sites).toEqual([{ id: site.id, url: site.url, display: site.name, name: site.name, slug: site.slug }]);
    expect(cc.roles).toEqual([expect.objectContaining({ id: role.id, slug: role.slug })]);
    expect(cc.tags).toEqual([tag.slug]);
    expect((await t.get(`${PATH}${cc.id}/`)).json().tags).toEqual([tag.slug]);
    const cleared = (await t.patch(`${PATH}${cc.id}/`, { sites: [], tags: [] })).json();
    expect([cleared.sites, cleared.tags, cleared.roles.length]).toEqual([[], [], 1]);
  });

  it('is ordered by weight, then name', async () => {
    const site = await makeSite(t);
    const n = uniq('order');
    const [b, a, c] = [
      await context({ name: `${n}-b`, weight: 10, sites: [site.id] }),
      await context({ name: `${n}-a`, weight: 10, sites: [site.id] }),
      await context({ name: `${n}-c`, weight: 5, sites: [site.id] }),
    ];
    expect(ids((await t.get(`${PATH}?site_id=${site.id}`)).json())).toEqual([c.id, a.id, b.id]);
  });
});

describe('validation', () => {
  it('requires name and data', async () => {
    const res = await t.post(PATH, {});
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ name: ['This field is required.'], data: ['This field is required.'] });
  });

  it('needs data to be a JSON object', async () => {
    for (const data of [[1, 2], 'text', 5, true]) {
      const res = await t.post(PATH, { name: uniq('cc'), data });
      expect(res.statusCode, JSON.stringify(data)).toBe(400);
      expect(res.json()).toEqual({ data: ['JSON data must be in object form.'] });
    }
    expect((await t.post(PATH, { name: uniq('cc'), data: null })).json()).toEqual({
      data: ['This field may not be null.'],
    });
    const cc = await context();
    expect((await t.patch(`${PATH}${cc.id}/`, { data: [] })).json()).toEqual({
      data: ['JSON data must be in object form.'],
    });
  });

  it('keeps weight within 0..32767', async () => {
    const over = await t.post(PATH, { name: uniq('cc'), data: {}, weight: 32768 });
    expect(over.statusCode).toBe(400);
    expect(over.json()).toEqual({ weight: ['Ensure this value is less than or equal to 32767.'] });
    const under = await t.post(PATH, { name: uniq('cc'), data: {}, weight: -1 });
    expect(under.json()).toEqual({ weight: ['Ensure this value is greater than or equal to 0.'] });
    expect((await t.post(PATH, { name: uniq('cc'), data: {}, weight: 'heavy' })).json()).toEqual({
      weight: ['A valid integer is required.'],
    });
    expect((await context({ weight: 32767 })).weight).toBe(32767);
  });

  it('keeps names unique', async () => {
    const cc = await context();
    const res = await t.post(PATH, { name: cc.name, data: {} });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ name: ['config context with this Name already exists.'] });
  });

  it('rejects unknown assignments and tags by their field', async () => {
    const bad = await t.post(PATH, { name: uniq('cc'), data: {}, sites: [987654321] });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ sites: ['Invalid pk "987654321" - object does not exist.'] });
    const slug = uniq('nope');
    const badTag = await t.post(PATH, { name: uniq('cc'), data: {}, tags: [slug] });
    expect(badTag.json()).toEqual({ tags: [`Object with slug=${slug} does not exist.`] });
    expect((await t.post(PATH, { name: uniq('cc'), data: {}, tags: [{ slug }] })).json()).toEqual({
      tags: ['Invalid value.'],
    });
    expect((await t.post(PATH, { name: uniq('cc'), data: {}, regions: 5 })).json()).toEqual({
      regions: ['Expected a list of items but got type "int".'],
    });
  });
});

describe('filters', () => {
  it('filters by region (by id and slug, without descendants), site, role, tag and tenant', async () => {
    const region = await makeRegion(t);
    const child = await makeRegion(t, { parent: region.id });
    const site = await makeSite(t);
    const role = await makeRole(t);
    const tag = await makeTag(t);
    const tenant = await makeTenant(t);
    const a = await context({ regions: [region.id], sites: [site.id], tags: [tag.slug] });
    const b = await context({ regions: [child.id], roles: [role.id], tenants: [tenant.id] });
    const q = async (query: string) => ids((await t.get(`${PATH}?${query}&ordering=id`)).json());
    expect(await q(`region_id=${region.id}`)).toEqual([a.id]);
    expect(await q(`region=${region.slug}&region=${child.slug}`)).toEqual([a.id, b.id]);
    expect(await q(`site_id=${site.id}`)).toEqual([a.id]);
    expect(await q(`site=${site.slug}`)).toEqual([a.id]);
    expect(await q(`role=${role.slug}`)).toEqual([b.id]);
    expect(await q(`role_id=${role.id}`)).toEqual([b.id]);
    expect(await q(`tag=${tag.slug}`)).toEqual([a.id]);
    expect(await q(`tag_id=${tag.id}`)).toEqual([a.id]);
    expect(await q(`tenant_id=${tenant.id}`)).toEqual([b.id]);
    expect(await q(`id=${a.id}&id=${b.id}&role_id__n=${role.id}`)).toEqual([a.id]);
    const unknown = await t.get(`${PATH}?site=${uniq('nope')}`);
    expect(unknown.statusCode).toBe(400);
    expect(Object.keys(unknown.json())).toEqual(['site']);
  });

  it('filters by is_active and finds by q in name, description and data', async () => {
    const needle = uniq('needle');
    const on = await context({ description: needle });
    const off = await context({ is_active: false, data: { text: needle } });
    const q = async (query: string) => ids((await t.get(`${PATH}?${query}&ordering=id`)).json());
    expect(await q(`q=${needle}`)).toEqual([on.id, off.id]);
    expect(await q(`q=${needle}&is_active=false`)).toEqual([off.id]);
    expect(await q(`q=${needle}&is_active=true`)).toEqual([on.id]);
  });
});
