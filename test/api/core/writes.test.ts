import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, makeTenant } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('related objects written by id or by attributes', () => {
  it('accepts an id, a numeric string, and an attribute dict', async () => {
    const tenant = await makeTenant(t);
    for (const ref of [tenant.id, String(tenant.id), { slug: tenant.slug }, { name: tenant.name }]) {
      const n = uniq('rs');
      const res = await t.post('/api/dcim/sites/', { name: n, slug: n, tenant: ref });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().tenant).toMatchObject({
        id: tenant.id,
        slug: tenant.slug,
        url: `http://localhost:80/api/tenancy/tenants/${tenant.id}/`,
      });
    }
  });

  it('resolves nested attribute dicts across relations', async () => {
    const g = uniq('grp');
    const group = (await t.post('/api/tenancy/tenant-groups/', { name: g, slug: g })).json();
    const n = uniq('nt');
    await t.post('/api/tenancy/tenants/', { name: n, slug: n, group: { slug: g } });
    const s = uniq('ns');
    const res = await t.post('/api/dcim/sites/', {
      name: s,
      slug: s,
      tenant: { name: n, group: { slug: group.slug } },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().tenant.name).toBe(n);
  });

  it('answers zero or several matches with a 400 naming the field', async () => {
    const s = uniq('bad');
    const none = await t.post('/api/dcim/sites/', { name: s, slug: s, tenant: { slug: 'nope' } });
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({
      tenant: ["Related object not found using the provided attributes: {'slug': 'nope'}"],
    });
    const shared = uniq('shared');
    await t.post('/api/tenancy/tenants/', [
      { name: `${shared}-1`, slug: `${shared}-1`, description: shared },
      { name: `${shared}-2`, slug: `${shared}-2`, description: shared },
    ]);
    const many = await t.post('/api/dcim/sites/', { name: s, slug: s, tenant: { description: shared } });
    expect(many.json()).toEqual({
      tenant: [`Multiple objects match the provided attributes: {'description': '${shared}'}`],
    });
    const missing = await t.post('/api/dcim/sites/', { name: s, slug: s, tenant: 999999 });
    expect(missing.json()).toEqual({ tenant: ['Related object not found using the provided numeric ID: 999999'] });
    const junk = await t.post('/api/dcim/sites/', { name: s, slug: s, tenant: [1] });
    expect(junk.json().tenant[0]).toMatch(
      /^Related objects must be referenced by numeric ID or by dictionary of attributes/,
    );
    const unknownAttr = await t.post('/api/dcim/sites/', { name: s, slug: s, tenant: { colour: 'x' } });
    expect(unknownAttr.statusCode).toBe(400);
  });
});

describe('field validation', () => {
  it('reports required, blank, length, slug, choice and uniqueness errors by field', async () => {
    const res = await t.post('/api/dcim/sites/', {
      name: '',
      slug: 'has space',
      status: 'bogus',
      facility: 'x'.repeat(51),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      name: ['This field may not be blank.'],
      slug: ['Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.'],
      status: ['"bogus" is not a valid choice.'],
      facility: ['Ensure this field has no more than 50 characters.'],
    });
    expect((await t.post('/api/dcim/sites/', {})).json()).toEqual({
      name: ['This field is required.'],
      slug: ['This field is required.'],
    });
    const n = uniq('dup');
    await t.post('/api/dcim/sites/', { name: n, slug: n });
    expect((await t.post('/api/dcim/sites/', { name: n, slug: n })).json()).toEqual({
      name: ['site with this Name already exists.'],
      slug: ['site with this Slug already exists.'],
    });
  });

  it('rejects a choice given as an object, and nulls on non-nullable fields', async () => {
    const n = uniq('ch');
    const res = await t.post('/api/dcim/sites/', { name: n, slug: n, status: { value: 'active' }, facility: null });
    expect(res.json()).toEqual({
      status: ['Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.'],
      facility: ['This field may not be null.'],
    });
  });

  it('detects duplicates inside one bulk create', async () => {
    const n = uniq('twin');
    const res = await t.post('/api/dcim/sites/', [
      { name: n, slug: n },
      { name: n, slug: `${n}-b` },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json()[1].name).toEqual(['site with this Name already exists.']);
    expect((await t.get(`/api/dcim/sites/?slug=${n}`)).json().count).toBe(0);
  });

  it('requires required fields on PUT but not on PATCH', async () => {
    const n = uniq('put');
    const s = (await t.post('/api/dcim/sites/', { name: n, slug: n })).json();
    expect((await t.put(`/api/dcim/sites/${s.id}/`, { description: 'x' })).json()).toEqual({
      name: ['This field is required.'],
      slug: ['This field is required.'],
    });
    expect((await t.patch(`/api/dcim/sites/${s.id}/`, { description: 'x' })).statusCode).toBe(200);
  });
});

describe('trees', () => {
  it('computes _depth and refuses a node as its own ancestor', async () => {
    const a = uniq('ra');
    const root = (await t.post('/api/dcim/regions/', { name: a, slug: a })).json();
    const child = (await t.post('/api/dcim/regions/', { name: `${a}-c`, slug: `${a}-c`, parent: root.id })).json();
    const grand = (await t.post('/api/dcim/regions/', { name: `${a}-g`, slug: `${a}-g`, parent: child.id })).json();
    expect([root._depth, child._depth, grand._depth]).toEqual([0, 1, 2]);
    expect(grand.parent).toMatchObject({ id: child.id, _depth: 1 });
    const loop = await t.patch(`/api/dcim/regions/${root.id}/`, { parent: grand.id });
    expect(loop.statusCode).toBe(400);
    expect(loop.json().parent).toBeDefined();
  });

  it('keeps names unique among siblings and at the top level', async () => {
    const a = uniq('top');
    const root = (await t.post('/api/dcim/regions/', { name: a, slug: a })).json();
    const dupTop = await t.post('/api/dcim/regions/', { name: a, slug: `${a}-2` });
    expect(dupTop.json().__all__).toEqual(['A top-level region with this name already exists.']);
    expect((await t.post('/api/dcim/regions/', { name: a, slug: `${a}-3`, parent: root.id })).statusCode).toBe(201);
  });

  it('counts sites cumulatively and deletes a subtree with its root', async () => {
    const a = uniq('cnt');
    const root = (await t.post('/api/dcim/regions/', { name: a, slug: a })).json();
    const child = (await t.post('/api/dcim/regions/', { name: `${a}-c`, slug: `${a}-c`, parent: root.id })).json();
    const s = uniq('cs');
    const siteRes = await t.post('/api/dcim/sites/', { name: s, slug: s, region: child.id });
    expect((await t.get(`/api/dcim/regions/${root.id}/`)).json().site_count).toBe(1);
    expect((await t.del(`/api/dcim/regions/${root.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/dcim/regions/${child.id}/`)).statusCode).toBe(404);
    // NetBox: the site's region is cleared, not the site deleted
    expect((await t.get(`/api/dcim/sites/${siteRes.json().id}/`)).json().region).toBeNull();
  });
});

describe('deletion', () => {
  it('answers 409 naming dependents when a protected reference blocks it', async () => {
    const tenant = await makeTenant(t);
    const s = uniq('prot');
    const site = (await t.post('/api/dcim/sites/', { name: s, slug: s, tenant: tenant.id })).json();
    const res = await t.del(`/api/tenancy/tenants/${tenant.id}/`);
    expect(res.statusCode).toBe(409);
    expect(res.json().detail).toBe(`Unable to delete object. 1 dependent objects were found: ${s} (${site.id})`);
  });

  it('aborts a whole bulk delete when one object is protected', async () => {
    const free = await makeTenant(t);
    const used = await makeTenant(t);
    const s = uniq('prot2');
    await t.post('/api/dcim/sites/', { name: s, slug: s, tenant: used.id });
    const res = await t.del('/api/tenancy/tenants/', [{ id: free.id }, { id: used.id }]);
    expect(res.statusCode).toBe(409);
    expect((await t.get(`/api/tenancy/tenants/${free.id}/`)).statusCode).toBe(200);
  });

  it('rejects bulk items without an id', async () => {
    const res = await t.del('/api/tenancy/tenants/', [{ name: 'x' }]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ id: ['This field is required.'] }]);
    expect((await t.patch('/api/tenancy/tenants/', { id: 1 })).statusCode).toBe(400);
  });
});
