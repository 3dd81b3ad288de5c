/**
 * The list total cache (core/cache/count-cache.ts, db/change-watch.ts): a repeated list is served
 * its total from the cache, and every way data can change moves the total at once - writes through
 * the API (single, bulk, failed bulk), statements run on the database handle outside the write
 * path, and writes made by another service process on the same database.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { openDatabase } from '../../../src/db/client.js';
import { mayWrite } from '../../../src/db/statement-writes.js';
import { createCountCache } from '../../../src/core/cache/count-cache.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

const p = uniq('cc');
const LIST = `/api/tenancy/tenants/?q=${p}`;

describe('mayWrite', () => {
  it('treats reads as reads and everything else, CTE writes included, as a write', () => {
    for (const s of [
      'select 1',
      '  SELECT * from x',
      'with a as (select 1) select * from a',
      'begin',
      'show x',
      '(select 1)',
      '/* a comment */ with p as (select 1) select * from p',
    ])
      expect(mayWrite(s), s).toBe(false);
    for (const s of [
      'insert into x values (1)',
      'update x set a = 1',
      'delete from x',
      'commit',
      'rollback',
      'with a as (delete from x returning id) select * from a',
      'create table y ()',
      'notify c',
      '/* x */ delete from y',
    ])
      expect(mayWrite(s), s).toBe(true);
  });
});

describe('createCountCache', () => {
  it('serves an entry only at the generation it was counted at', () => {
    const c = createCountCache();
    c.set('k', 'g3', 42);
    expect(c.get('k', 'g3')).toBe(42);
    expect(c.get('k', 'g4')).toBeUndefined();
    // a stale entry is dropped, not revived when the generation is asked again
    expect(c.get('k', 'g3')).toBeUndefined();
    expect(c.stats.hits).toBe(1);
  });
});

// with the response cache a read's total is cached against its data version, without it against
// the data generation: both must hold
describe.each<{ mode: string; env: Record<string, string> }>([
  { mode: 'response cache on', env: {} },
  { mode: 'response cache off', env: { RESPONSE_CACHE_MB: '0' } },
])('list totals ($mode)', ({ env }) => {
  let t: TestApp;
  const count = async (url = LIST) => {
    const res = await t.get(url);
    expect(res.statusCode).toBe(200);
    return res.json().count as number;
  };
  const tenants = (n: number, tag: string) =>
    Array.from({ length: n }, (_, i) => ({ name: `${p}-${tag}-${i}`, slug: `${p}-${tag}-${i}` }));

  beforeAll(async () => {
    t = await makeTestApp(env);
    expect((await t.post('/api/tenancy/tenants/', tenants(3, 'a'))).statusCode).toBe(201);
  });
  afterAll(async () => t.close());

  it('serves a repeated list its total from the cache', async () => {
    expect(await count()).toBe(3);
    const hits = t.app.inventory.counts.stats.hits;
    // another page of the same list (a repeat of one page may be served whole by the response cache)
    expect(await count(`${LIST}&limit=2`)).toBe(3);
    expect(t.app.inventory.counts.stats.hits).toBe(hits + 1);
  });

  it('moves the total after a single create, a bulk create, an update and deletes', async () => {
    expect(await count()).toBe(3);
    const one = (await t.post('/api/tenancy/tenants/', tenants(1, 'b')[0])).json();
    expect(await count()).toBe(4);
    expect((await t.post('/api/tenancy/tenants/', tenants(5, 'c'))).statusCode).toBe(201);
    expect(await count()).toBe(9);
    // renamed out of the filter
    expect(
      (await t.patch(`/api/tenancy/tenants/${one.id}/`, { name: uniq('elsewhere'), slug: uniq('elsewhere') }))
        .statusCode,
    ).toBe(200);
    expect(await count()).toBe(8);
    const ids = (await t.get(`${LIST}&limit=2`)).json().results.map((r: { id: number }) => ({ id: r.id }));
    expect((await t.del('/api/tenancy/tenants/', ids)).statusCode).toBe(204);
    expect(await count()).toBe(6);
  });

  it('keeps the total when a bulk create fails and nothing is written', async () => {
    const before = await count();
    const bad = [...tenants(2, 'd'), { name: '', slug: '' }];
    expect((await t.post('/api/tenancy/tenants/', bad)).statusCode).toBe(400);
    expect(await count()).toBe(before);
  });

  it('sees statements run on the database handle outside the write path', async () => {
    const before = await count();
    await sql`insert into tenancy_tenant (name, slug) values (${`${p}-raw`}, ${`${p}-raw`})`.execute(t.db.kysely);
    expect(await count()).toBe(before + 1);
  });

  it('keeps totals of different filters and pages apart', async () => {
    const all = await count();
    expect(await count(`${LIST}&name__isw=${p}-c`)).toBe(5);
    expect(await count(`${LIST}&offset=2&limit=2`)).toBe(all);
  });

  it('sees writes made by another service process on the same database', async () => {
    // PostgreSQL: a second process with its own connections (LISTEN/NOTIFY carries the change);
    // PGlite is embedded, so a second service can only share the database handle
    const db = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl, dataDir: '', poolSize: 2 }) : t.db;
    const other = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db });
    try {
      const before = await count();
      const res = await other.inject({
        method: 'POST',
        url: '/api/tenancy/tenants/',
        headers: { authorization: `Token ${t.token}`, 'content-type': 'application/json' },
        payload: JSON.stringify(tenants(2, 'other')),
      });
      expect(res.statusCode).toBe(201);
      // the notification arrives a few milliseconds after the commit
      let seen = await count();
      for (let i = 0; i < 50 && seen !== before + 2; i++) {
        await new Promise((r) => setTimeout(r, 20));
        seen = await count();
      }
      expect(seen).toBe(before + 2);
    } finally {
      await other.close();
      if (db !== t.db) await db.close();
    }
  });
});

describe('with LIST_COUNT_CACHE=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp({ LIST_COUNT_CACHE: 'false' });
  });
  afterAll(async () => t.close());

  it('counts every list', async () => {
    for (let i = 0; i < 3; i++) expect((await t.get(LIST)).json().count).toBe(0);
    expect(t.app.inventory.counts.stats.hits).toBe(0);
  });
});

describe('a total counted by several requests at once', () => {
  it('gives each of them the right total, and the next request reads it from the cache', async () => {
    const t = await makeTestApp();
    try {
      const tag = uniq('flight');
      const made = await t.post(
        '/api/dcim/sites/',
        Array.from({ length: 7 }, (_, i) => ({ name: `${tag}-${i}`, slug: `${tag}-${i}`, description: tag })),
      );
      expect(made.statusCode).toBe(201);
      const pages = await Promise.all(
        Array.from({ length: 8 }, (_, i) => t.get(`/api/dcim/sites/?description=${tag}&limit=2&offset=${i}`)),
      );
      for (const p of pages) expect(p.json().count).toBe(7);
      // past the end, the total still comes from the one count
      expect(pages[7]!.json().results).toEqual([]);
      const before = t.db.stats.queries;
      // a URL not asked before: the response cache asks no data version for it (and an equality
      // filter keeps the page one statement: crud/read.ts plannedPerValue)
      expect((await t.get(`/api/dcim/sites/?description=${tag}&limit=3&offset=1`)).json().count).toBe(7);
      expect(t.db.stats.queries - before).toBe(1);
    } finally {
      await t.close();
    }
  });
});
