/**
 * `ETag` and `If-Match` (NetBox 4.6, #21356; crud/etag.ts): a weak tag from `last_updated` on a
 * detail GET (from the response cache too), a single create and a single update; a PUT, PATCH or
 * DELETE whose If-Match lists another tag is 412 `{"detail": ...}` with the current tag, and writes
 * nothing; `*` holds any object; bulk writes and models without timestamps are not held back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTenant, uniq } from '../../factories/index.js';
import { makeContractApp } from '../../contract/harness.js';
import type { TestApp } from '../../helpers/app.js';

let t: TestApp;
const V44 = 'application/json; version=4.4';

beforeAll(async () => {
  // every answer is checked against the OpenAPI document of its dialect (the contract suite's app)
  t = await makeContractApp();
});
afterAll(async () => t.close());

/** Python isoformat of a representation's timestamp, as NetBox 4.6 writes it into the tag */
const tagOf = (ts: string) => {
  const [, base, frac] = /^(.*?)(?:\.(\d+))?Z$/.exec(ts)!;
  return `W/"${base}${frac ? `.${frac.padEnd(6, '0')}` : ''}+00:00"`;
};

const patch = (id: number, body: unknown, ifMatch?: string) =>
  t.request('PATCH', `/api/tenancy/tenants/${id}/`, { body, headers: ifMatch ? { 'if-match': ifMatch } : {} });

describe('ETag', () => {
  it('is the weak tag of last_updated on a detail, a create and an update, in both dialects', async () => {
    const name = uniq('tenant');
    const created = await t.post('/api/tenancy/tenants/', { name, slug: name });
    const body = created.json();
    expect(created.headers.etag).toBe(tagOf(body.last_updated));
    const got = await t.get(`/api/tenancy/tenants/${body.id}/`);
    expect(got.headers.etag).toBe(created.headers.etag);
    // every form of the object carries the object's tag, the brief one (no timestamp shown) too
    const brief = await t.request('GET', `/api/tenancy/tenants/${body.id}/?brief=1`, { headers: { accept: V44 } });
    expect(brief.json()).not.toHaveProperty('last_updated');
    expect(brief.headers.etag).toBe(created.headers.etag);
    const updated = await patch(body.id, { description: 'moved' });
    expect(updated.headers.etag).toBe(tagOf(updated.json().last_updated));
    expect(updated.headers.etag).not.toBe(created.headers.etag);
    // lists carry none
    expect((await t.get('/api/tenancy/tenants/')).headers.etag).toBeUndefined();
  });

  it('comes with a cached detail, and moves when the object does', async () => {
    const tenant = await makeTenant(t);
    const url = `/api/tenancy/tenants/${tenant.id}/`;
    const first = await t.get(url);
    // GET until an answer comes from the cache (on PostgreSQL another database's commit may move
    // the data version between two requests: crud tests of other files run meanwhile)
    const hits = () => t.app.inventory.responses!.stats.hits;
    let cached: Awaited<ReturnType<TestApp['get']>> | null = null;
    for (let i = 0; i < 100 && !cached; i++) {
      const before = hits();
      const res = await t.get(url);
      if (hits() === before + 1) cached = res;
    }
    expect(cached, 'never served from the cache').not.toBeNull();
    expect(cached!.headers.etag).toBe(first.headers.etag);
    const updated = await patch(tenant.id, { description: 'again' });
    const fresh = await t.get(url);
    expect(fresh.headers.etag).toBe(updated.headers.etag);
    expect(fresh.headers.etag).not.toBe(first.headers.etag);
  });
});

describe('If-Match', () => {
  it('lets a write through with the current tag, a list holding it, or *', async () => {
    const tenant = await makeTenant(t);
    const etag = (await t.get(`/api/tenancy/tenants/${tenant.id}/`)).headers.etag as string;
    const ok = await patch(tenant.id, { description: 'one' }, etag);
    expect(ok.statusCode, ok.body).toBe(200);
    const listed = await patch(tenant.id, { description: 'two' }, `W/"other", ${ok.headers.etag}`);
    expect(listed.statusCode, listed.body).toBe(200);
    const star = await patch(tenant.id, { description: 'three' }, '*');
    expect(star.statusCode, star.body).toBe(200);
  });

  it('answers 412 with the current tag to a stale one, and writes nothing', async () => {
    const tenant = await makeTenant(t);
    const stale = (await t.get(`/api/tenancy/tenants/${tenant.id}/`)).headers.etag as string;
    const moved = await patch(tenant.id, { description: 'first writer' }, stale);
    expect(moved.statusCode).toBe(200);
    const lost = await patch(tenant.id, { description: 'second writer' }, stale);
    expect(lost.statusCode).toBe(412);
    expect(lost.json()).toEqual({ detail: 'Precondition failed.' });
    expect(lost.headers.etag).toBe(moved.headers.etag);
    const put = await t.request('PUT', `/api/tenancy/tenants/${tenant.id}/`, {
      body: { name: tenant.name, slug: tenant.slug, description: 'put' },
      headers: { 'if-match': stale, accept: V44 },
    });
    expect(put.statusCode).toBe(412);
    const del = await t.request('DELETE', `/api/tenancy/tenants/${tenant.id}/`, { headers: { 'if-match': stale } });
    expect(del.statusCode).toBe(412);
    const now = await t.get(`/api/tenancy/tenants/${tenant.id}/`);
    expect(now.json().description).toBe('first writer');
    const changes = await t.get(
      `/api/extras/object-changes/?changed_object_type=tenancy.tenant&changed_object_id=${tenant.id}`,
    );
    expect(changes.json().count).toBe(2);
  });

  it('is checked after the object is found (404 first) and before the body (412 before 400)', async () => {
    const tenant = await makeTenant(t);
    expect((await patch(999_999_999, { description: 'x' }, 'W/"x"')).statusCode).toBe(404);
    expect((await patch(tenant.id, { name: '' }, 'W/"x"')).statusCode).toBe(412);
  });

  it('deletes with the current tag', async () => {
    const tenant = await makeTenant(t);
    const etag = (await t.get(`/api/tenancy/tenants/${tenant.id}/`)).headers.etag as string;
    const del = await t.request('DELETE', `/api/tenancy/tenants/${tenant.id}/`, { headers: { 'if-match': etag } });
    expect(del.statusCode).toBe(204);
  });

  it('does not hold back bulk writes (NetBox checks single objects only)', async () => {
    const tenant = await makeTenant(t);
    const res = await t.request('PATCH', '/api/tenancy/tenants/', {
      body: [{ id: tenant.id, description: 'bulk' }],
      headers: { 'if-match': 'W/"stale"' },
    });
    expect(res.statusCode, res.body).toBe(200);
  });
});
