/**
 * STATEMENT_TIMEOUT (src/config.ts, db/client.ts): a statement that runs past it is canceled by
 * PostgreSQL and the request answers a JSON 503 naming the timeout, the connection is free again,
 * and the write it belonged to changed nothing. The slow statement here is a real one: an update
 * waiting for a row lock another client holds and never releases in time.
 * PGlite cannot interrupt a running statement (WebAssembly has no timer signal): the setting is
 * PostgreSQL's only, so the request part runs there.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { ENGINE } from '../../helpers/engine.js';
import { uniq } from '../../factories/index.js';

describe('STATEMENT_TIMEOUT', () => {
  it('is 60 seconds by default, takes fractions, and 0 or none turns it off', () => {
    expect(loadConfig({}).statementTimeout).toBe(60);
    expect(loadConfig({ STATEMENT_TIMEOUT: '0.25' }).statementTimeout).toBe(0.25);
    expect(loadConfig({ STATEMENT_TIMEOUT: '0' }).statementTimeout).toBe(0);
    expect(loadConfig({ STATEMENT_TIMEOUT: 'none' }).statementTimeout).toBe(0);
    expect(() => loadConfig({ STATEMENT_TIMEOUT: '5s' })).toThrow(/STATEMENT_TIMEOUT must be a number of seconds/);
  });
});

describe.skipIf(ENGINE !== 'postgres')(
  'a statement past STATEMENT_TIMEOUT (PostgreSQL; PGlite cannot interrupt one)',
  () => {
    let t: TestApp;
    const locker = () => new pg.Client({ connectionString: t.databaseUrl! });
    beforeAll(async () => {
      t = await makeTestApp({ STATEMENT_TIMEOUT: '0.5' });
    });
    afterAll(async () => t.close());

    it('answers a JSON 503 naming the timeout, changes nothing, and leaves the service answering', async () => {
      const tenant = (await t.post('/api/tenancy/tenants/', { name: uniq('slow'), slug: uniq('slow') })).json();
      const url = `/api/tenancy/tenants/${tenant.id}/`;
      const lock = locker();
      await lock.connect();
      try {
        await lock.query('begin');
        await lock.query('select id from tenancy_tenant where id = $1 for update', [tenant.id]);
        const started = Date.now();
        // the service's pool has 4 connections: reads keep being answered while the update waits
        const [slow, read] = await Promise.all([
          t.patch(url, { description: 'never' }),
          t.get('/api/tenancy/tenants/?limit=1'),
        ]);
        const took = Date.now() - started;
        expect(read.statusCode).toBe(200);
        expect(slow.statusCode, slow.body).toBe(503);
        expect(slow.headers['retry-after']).toBe('1');
        expect(slow.headers['content-type']).toMatch(/^application\/json/);
        expect(slow.json()).toEqual({
          detail:
            'A database statement ran longer than the statement timeout (STATEMENT_TIMEOUT = 0.5 s) and was canceled; the request changed nothing.',
        });
        expect(took).toBeGreaterThanOrEqual(450);
        expect(took).toBeLessThan(10_000);
        const changes = (await t.get(`/api/extras/object-changes/?request_id=${slow.headers['x-request-id']}`)).json();
        expect(changes.count).toBe(0);
      } finally {
        await lock.query('rollback');
        await lock.end();
      }
      const ok = await t.patch(url, { description: 'now' });
      expect(ok.statusCode).toBe(200);
      expect((await t.get(url)).json().description).toBe('now');
    });
  },
);
