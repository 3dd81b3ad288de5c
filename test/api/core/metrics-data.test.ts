/**
 * What /metrics reports of the data (http/metrics/): writes per model and action once committed
 * (a rolled-back write counts nothing), database statements, their errors and the pool, objects
 * per model from PostgreSQL's estimates in one statement, and response-cache hits and misses.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { ENGINE } from '../../helpers/engine.js';
import { type Exposition, parseExposition } from '../../helpers/prometheus.js';
import { uniq, grant, makeUser } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

async function scrape(): Promise<Exposition> {
  const res = await t.request('GET', '/metrics', { token: null });
  expect(res.statusCode, res.body).toBe(200);
  return parseExposition(res.body);
}

/** how far each named series moved while `action` ran */
async function movement(action: () => Promise<void>) {
  const before = await scrape();
  await action();
  const after = await scrape();
  return (name: string, labels: Record<string, string> = {}) => after.value(name, labels) - before.value(name, labels);
}

const sites = (n: number) => Array.from({ length: n }, () => uniq('site')).map((s) => ({ name: s, slug: s }));

describe('model writes', () => {
  it('counts creates, updates and deletes per model, under NetBox names and the full identity', async () => {
    let ids: number[] = [];
    const moved = await movement(async () => {
      const res = await t.post('/api/dcim/sites/', sites(3));
      expect(res.statusCode).toBe(201);
      ids = res.json().map((s: { id: number }) => s.id);
      expect((await t.patch(`/api/dcim/sites/${ids[0]}/`, { description: 'x' })).statusCode).toBe(200);
      expect(
        (
          await t.patch(
            '/api/dcim/sites/',
            ids.map((id) => ({ id, description: 'y' })),
          )
        ).statusCode,
      ).toBe(200);
      expect((await t.del(`/api/dcim/sites/${ids[2]}/`)).statusCode).toBe(204);
      const tenant = uniq('tenant');
      expect((await t.post('/api/tenancy/tenants/', { name: tenant, slug: tenant })).statusCode).toBe(201);
    });
    expect(moved('django_model_inserts_total', { model: 'site' })).toBe(3);
    expect(moved('django_model_updates_total', { model: 'site' })).toBe(4);
    expect(moved('django_model_deletes_total', { model: 'site' })).toBe(1);
    expect(moved('django_model_inserts_total', { model: 'tenant' })).toBe(1);
    expect(moved('inventory_model_writes_total', { model: 'dcim.site', action: 'create' })).toBe(3);
    expect(moved('inventory_model_writes_total', { model: 'dcim.site', action: 'update' })).toBe(4);
    expect(moved('inventory_model_writes_total', { model: 'dcim.site', action: 'delete' })).toBe(1);
    expect(moved('inventory_model_writes_total', { model: 'tenancy.tenant', action: 'create' })).toBe(1);
    // the change log itself is written by the write path, not counted as a model write
    expect(moved('django_model_inserts_total', { model: 'objectchange' })).toBe(0);
  });

  it('counts the objects a delete cascades to, each under its own model', async () => {
    const [site] = (await t.post('/api/dcim/sites/', sites(1))).json() as Array<{ id: number }>;
    const location = uniq('loc');
    const res = await t.post('/api/dcim/locations/', { name: location, slug: location, site: site!.id });
    expect(res.statusCode, res.body).toBe(201);
    const moved = await movement(async () => {
      expect((await t.del(`/api/dcim/sites/${site!.id}/`)).statusCode).toBe(204);
    });
    expect(moved('django_model_deletes_total', { model: 'site' })).toBe(1);
    expect(moved('django_model_deletes_total', { model: 'location' })).toBe(1);
    expect(moved('inventory_model_writes_total', { model: 'dcim.location', action: 'delete' })).toBe(1);
  });

  it('counts nothing of a write that was rolled back after its change records were written', async () => {
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['add'],
      users: [u.id],
      constraints: { status: 'planned' },
    });
    const moved = await movement(async () => {
      // the constraint is checked after the insert and the change records: 403, all rolled back
      const [a, b] = sites(2);
      const res = await t.post(
        '/api/dcim/sites/',
        [
          { ...a, status: 'planned' },
          { ...b, status: 'active' },
        ],
        u.token,
      );
      expect(res.statusCode).toBe(403);
      expect((await t.post('/api/dcim/sites/', [{ name: '' }])).statusCode).toBe(400);
    });
    expect(moved('django_model_inserts_total', { model: 'site' })).toBe(0);
    expect(moved('inventory_model_writes_total', { model: 'dcim.site' })).toBe(0);
  });
});

describe('database', () => {
  it('counts every statement the process runs, with its duration', async () => {
    let statements = 0;
    const moved = await movement(async () => {
      const q0 = t.db.stats.queries;
      for (let i = 0; i < 3; i++) expect((await t.get(`/api/dcim/sites/?q=${uniq('x')}`)).statusCode).toBe(200);
      await sql`select 1`.execute(t.db.kysely);
      statements = t.db.stats.queries - q0;
    });
    expect(statements).toBeGreaterThanOrEqual(4); // at least one per list, and the select
    // plus the statements of the two scrapes (object estimates) that ran around the action
    const labels = { alias: 'default', vendor: 'postgresql' };
    expect(moved('django_db_execute_total', labels)).toBeGreaterThanOrEqual(statements);
    expect(moved('django_db_execute_total', labels)).toBeLessThanOrEqual(statements + 4);
    const after = await scrape();
    expect(after.value('django_db_query_duration_seconds_count', labels)).toBe(
      after.value('django_db_execute_total', labels),
    );
    expect(after.value('django_db_query_duration_seconds_sum', labels)).toBeGreaterThan(0);
    expect(after.value('inventory_db_statement_duration_seconds_count', { engine: ENGINE })).toBe(
      after.value('django_db_execute_total', labels),
    );
  });

  it('counts failed statements by the type Django would raise', async () => {
    const moved = await movement(async () => {
      await expect(sql`select 1 / 0`.execute(t.db.kysely)).rejects.toThrow();
      await expect(sql`select * from no_such_table`.execute(t.db.kysely)).rejects.toThrow();
    });
    expect(moved('django_db_errors_total', { type: 'DataError' })).toBe(1);
    expect(moved('django_db_errors_total', { type: 'ProgrammingError' })).toBe(1);
  });

  it('reports the pool: PGlite its one connection, PostgreSQL the pool of the process', async () => {
    const m = await scrape();
    const engine = { engine: ENGINE };
    const max = m.value('inventory_db_connections_max', engine);
    expect(max).toBe(ENGINE === 'pglite' ? 1 : 4); // test/helpers/app.ts opens PostgreSQL with 4
    const inUse = m.value('inventory_db_connections', { ...engine, state: 'in_use' });
    const idle = m.value('inventory_db_connections', { ...engine, state: 'idle' });
    expect(inUse + idle).toBeGreaterThanOrEqual(1);
    expect(inUse + idle).toBeLessThanOrEqual(max);
    expect(m.value('inventory_db_connections_waiting', engine)).toBe(0);
    expect(m.value('django_db_new_connections_total')).toBeGreaterThanOrEqual(1);
  });
});

describe('objects per model', () => {
  const objects = (m: Exposition, model: string) => m.value('inventory_model_objects', { model });

  it('follows writes, from one statement for every model (no count per model)', { timeout: 30_000 }, async () => {
    expect(
      (
        await t.post(
          '/api/circuits/providers/',
          Array.from({ length: 4 }, () => ({ name: uniq('p'), slug: uniq('p') })),
        )
      ).statusCode,
    ).toBe(201);
    const total = (await t.get('/api/circuits/providers/?limit=1')).json().count as number;
    // PostgreSQL's statistics take up to a few seconds to include other connections' commits
    let seen = -1;
    for (let i = 0; i < 60 && seen !== total; i++) {
      if (i) await new Promise((r) => setTimeout(r, 250));
      seen = objects(await scrape(), 'circuits.provider');
    }
    expect(seen).toBe(total);
    const q0 = t.db.stats.queries;
    const m = await scrape();
    // PGlite flushes its pending statistics first (its only backend is this process)
    expect(t.db.stats.queries - q0).toBe(ENGINE === 'pglite' ? 2 : 1);
    expect(m.labelValues('inventory_model_objects', 'model')).toEqual(
      new Set(t.app.inventory.registry.all().map((x) => x.name)),
    );
  });
});

describe('response cache', () => {
  it('counts hits and misses of the rendered-response cache', { timeout: 30_000 }, async () => {
    const url = `/api/tenancy/tenants/?q=${uniq('rc')}`;
    const hits = (m: Exposition) => m.value('inventory_response_cache_requests_total', { result: 'hit' });
    const misses = (m: Exposition) => m.value('inventory_response_cache_requests_total', { result: 'miss' });
    const first = await scrape();
    await t.get(url); // a URL's first read is not stored: neither hit nor miss
    await t.get(url); // asked again: a miss, and stored
    const second = await scrape();
    expect(hits(second) - hits(first) + misses(second) - misses(first)).toBe(1);
    // served from the cache while nothing commits (on PostgreSQL, any commit on the server
    // moves the snapshot, so a quiet moment may take a few tries)
    let served = false;
    for (let i = 0; i < 100 && !served; i++) {
      const before = await scrape();
      await t.get(url);
      served = hits(await scrape()) === hits(before) + 1;
    }
    expect(served).toBe(true);
    expect(misses(await scrape())).toBeGreaterThan(misses(first));
  });
});
