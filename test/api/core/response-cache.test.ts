/**
 * The response cache (core/cache/response-cache.ts, core/cache/cached-read.ts): a repeated GET is
 * served the stored body, and nothing a later request could observe is ever stale - writes
 * through the API, statements on the database handle, writes by another connection the service
 * is never told about, permission changes - nor shared between users, hosts or indentations.
 */
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createResponseCache } from '../../../src/core/cache/response-cache.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, grant, ids as idsOf, makeUser } from '../../factories/index.js';

const p = uniq('rc');
const LIST = `/api/tenancy/tenants/?q=${p}`;

describe('createResponseCache', () => {
  const body = (n: number) => ({ body: Buffer.alloc(n, 'x'), etag: null });

  it('serves an entry only at the version it was stored at', () => {
    const c = createResponseCache(1024);
    c.set('k', 'v1', body(10));
    expect(c.get('k', 'v1')?.body.length).toBe(10);
    expect(c.get('k', 'v2')).toBeUndefined();
    // a stale entry is dropped, not revived when the old version is asked again
    expect(c.get('k', 'v1')).toBeUndefined();
    expect(c.stats).toMatchObject({ hits: 1, misses: 2, entries: 0, bytes: 0 });
  });

  it('knows a key from its second request on, and still after its entry went stale', () => {
    const c = createResponseCache(1024);
    expect(c.seen('k')).toBe(false);
    expect(c.seen('k')).toBe(true);
    c.set('k', 'v1', body(10));
    expect(c.get('k', 'v2')).toBeUndefined();
    expect(c.seen('k')).toBe(true);
    expect(c.seen('other')).toBe(false);
    const long = 'x'.repeat(3000);
    expect(c.seen(long)).toBe(false);
    expect(c.seen(long)).toBe(false);
  });

  it('keeps within its byte budget, least recently used first out, and skips oversized bodies', () => {
    const c = createResponseCache(1000);
    c.set('a', 'v', body(100));
    c.set('b', 'v', body(100));
    expect(c.get('a', 'v')).toBeDefined(); // b is now the least recently used
    for (let i = 0; i < 8; i++) c.set(`k${i}`, 'v', body(100));
    expect(c.stats.bytes).toBeLessThanOrEqual(1000);
    expect(c.get('b', 'v')).toBeUndefined();
    expect(c.get('k7', 'v')).toBeDefined();
    c.set('big', 'v', body(200)); // more than an eighth of the budget
    expect(c.get('big', 'v')).toBeUndefined();
  });

  it('forgets entries after five seconds', () => {
    vi.useFakeTimers();
    try {
      const c = createResponseCache(1000);
      c.set('k', 'v', body(10));
      vi.advanceTimersByTime(4_000);
      expect(c.get('k', 'v')).toBeDefined();
      vi.advanceTimersByTime(1_500);
      expect(c.get('k', 'v')).toBeUndefined();
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('cached reads', () => {
  let t: TestApp;
  let ids: number[];
  const hits = () => t.app.inventory.responses!.stats.hits;
  const tenants = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => ({ name: `${p}-${tag}-${i}`, slug: `${p}-${tag}-${i}` }));
  const names = async (url = LIST, token?: string) => {
    const res = await t.get(url, token);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().results as Array<{ name: string }>).map((r) => r.name).sort();
  };

  beforeAll(async () => {
    t = await makeTestApp();
    const res = await t.post('/api/tenancy/tenants/', tenants(3, 'a'));
    expect(res.statusCode).toBe(201);
    ids = res.json().map((r: { id: number }) => r.id);
  });
  afterAll(async () => t.close());

  /**
   * GETs `url` twice until the second answer comes from the cache. On PostgreSQL the data version
   * is the server's snapshot, which any commit on the server moves - other test files write to
   * their own databases meanwhile - so a quiet moment may take a few tries; on PGlite the first.
   */
  async function repeatFromCache(url: string) {
    for (let i = 0; i < 100; i++) {
      const first = await t.get(url);
      const before = hits();
      const again = await t.get(url);
      if (hits() === before + 1) return { first, again };
    }
    throw new Error(`${url} was never served from the cache`);
  }

  it('serves a repeated list and detail the stored body, headers made afresh', async () => {
    for (const url of [LIST, `/api/tenancy/tenants/${ids[0]}/`]) {
      const { first, again } = await repeatFromCache(url);
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
      expect(again.headers['api-version']).toBe('3.4');
      const head = await t.request('HEAD', url);
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
    }
  });

  it('shows every write through the API at once: create, bulk create, update, delete', async () => {
    await names();
    const one = (await t.post('/api/tenancy/tenants/', tenants(1, 'b')[0])).json();
    expect(await names()).toContain(`${p}-b-0`);
    expect((await t.post('/api/tenancy/tenants/', tenants(2, 'c'))).statusCode).toBe(201);
    expect(await names()).toEqual(expect.arrayContaining([`${p}-c-0`, `${p}-c-1`]));
    const detail = `/api/tenancy/tenants/${one.id}/`;
    expect((await t.get(detail)).json().description).toBe('');
    expect((await t.patch(detail, { description: 'changed' })).statusCode).toBe(200);
    expect((await t.get(detail)).json().description).toBe('changed');
    expect((await t.del(detail)).statusCode).toBe(204);
    expect((await t.get(detail)).statusCode).toBe(404);
    expect(await names()).not.toContain(`${p}-b-0`);
  });

  it('shows statements run on the database handle outside the write path', async () => {
    await names();
    await sql`update tenancy_tenant set name = ${`${p}-a-renamed`} where id = ${ids[1]!}`.execute(t.db.kysely);
    expect(await names()).toContain(`${p}-a-renamed`);
  });

  it('shows a write committed by a connection the service never hears of, list total included', async () => {
    // PostgreSQL: a plain client of its own, no notification sent; PGlite is embedded, so the
    // only other writer there is a statement on the same handle
    const before = await names();
    const count = (await t.get(LIST)).json().count as number;
    // another page, known to the cache (asked twice), whose total comes from the count cache
    const page = `${LIST}&limit=1&offset=1`;
    for (let i = 0; i < 2; i++) expect((await t.get(page)).json().count).toBe(count);
    const name = `${p}-outside`;
    if (t.databaseUrl) {
      const c = new pg.Client({ connectionString: t.databaseUrl });
      await c.connect();
      try {
        await c.query('insert into tenancy_tenant (name, slug) values ($1, $1)', [name]);
      } finally {
        await c.end();
      }
    } else {
      await sql`insert into tenancy_tenant (name, slug) values (${name}, ${name})`.execute(t.db.kysely);
    }
    expect(await names()).toEqual([...before, name].sort());
    // its total must not come from a count taken before the write
    expect((await t.get(page)).json().count).toBe(count + 1);
  });

  it('keeps users apart, and shows a permission change at once', async () => {
    const u = await makeUser(t);
    const perm = await grant(t, {
      object_types: ['tenancy.tenant'],
      actions: ['view'],
      users: [u.id],
      constraints: { id: ids[0] },
    });
    const all = await t.get(LIST);
    const scoped = await t.get(LIST, u.token);
    expect(idsOf(scoped.json())).toEqual([ids[0]]);
    expect(idsOf(all.json()).length).toBeGreaterThan(1);
    // repeated: each user still gets their own body
    expect(idsOf((await t.get(LIST, u.token)).json())).toEqual([ids[0]]);
    expect((await t.get(LIST)).body).toBe(all.body);
    expect((await t.patch(`/api/users/permissions/${perm}/`, { constraints: { id: ids[2] } })).statusCode).toBe(200);
    expect(idsOf((await t.get(LIST, u.token)).json())).toEqual([ids[2]]);
    expect((await t.get(`/api/tenancy/tenants/${ids[0]}/`, u.token)).statusCode).toBe(404);
  });

  it('keeps hosts and indentations apart', async () => {
    const url = `/api/tenancy/tenants/${ids[0]}/`;
    const plain = await t.get(url);
    const other = await t.request('GET', url, { headers: { host: 'inventory.example.net' } });
    expect(other.json().url).toBe(`http://inventory.example.net${url}`);
    expect((await t.get(url)).json().url).toBe(plain.json().url);
    const indented = await t.request('GET', url, { headers: { accept: 'application/json; indent=4' } });
    expect(indented.body).toBe(JSON.stringify(plain.json(), null, 4));
    expect((await t.get(url)).body).toBe(plain.body);
  });

  it('does not keep errors', async () => {
    const bad = `/api/tenancy/tenants/?id=${p}`;
    expect((await t.get(bad)).statusCode).toBe(400);
    const { stats } = t.app.inventory.responses!;
    expect((await t.get(bad)).statusCode).toBe(400);
    expect(t.app.inventory.responses!.stats).toMatchObject({ hits: stats.hits, entries: stats.entries });
  });
});

describe('with RESPONSE_CACHE_MB=0', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ RESPONSE_CACHE_MB: '0' });
  });
  afterAll(async () => t.close());

  it('renders every read', async () => {
    expect(t.app.inventory.responses).toBeNull();
    const first = await t.get('/api/tenancy/tenants/');
    expect(first.statusCode).toBe(200);
    expect((await t.get('/api/tenancy/tenants/')).body).toBe(first.body);
  });
});
