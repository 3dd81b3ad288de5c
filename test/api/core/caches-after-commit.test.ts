/**
 * Caches follow commits (core/cache/README.md): a read that lands while a write is committing
 * may see - and store - the data as it was, but once the write's response is out, no cache serves
 * that old data again: not the token lookups, not the custom field definitions, not list totals.
 *
 * The race is made certain with PostgreSQL itself: a deferred constraint trigger sleeps inside
 * COMMIT, so the write's statements are done (and, in the old code, the caches already cleared)
 * while its data is not yet visible. Reads are sent all through that window. PGlite runs one
 * transaction at a time on its single connection, so there no read can land inside a commit.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { ENGINE } from '../../helpers/engine.js';
import { uniq, makeUser } from '../../factories/index.js';

const COMMIT_MS = 600;

/** Makes every COMMIT of a transaction that wrote `table` take COMMIT_MS (test database only). */
async function slowCommitsOf(t: TestApp, table: string, event: 'insert' | 'delete') {
  await sql
    .raw(`create or replace function test_slow_commit() returns trigger language plpgsql as $$
    begin perform pg_sleep(${COMMIT_MS / 1000}); return null; end $$`)
    .execute(t.db.kysely);
  await sql
    .raw(`create constraint trigger test_slow_commit_${table} after ${event} on ${table}
    deferrable initially deferred for each row execute function test_slow_commit()`)
    .execute(t.db.kysely);
}

/**
 * Runs `write` and, until it answers, `read` back to back; returns the write's answer and how many
 * reads still saw the data as it was before the write (`read` answers true for those) after the
 * write's statements had run, that is while it was committing.
 */
async function raceReads<W>(
  write: () => Promise<W>,
  read: () => Promise<boolean>,
): Promise<{ out: W; oldReads: number }> {
  let done = false;
  let oldReads = 0;
  const started = Date.now();
  const reader = (async () => {
    while (!done) {
      const sawOld = await read();
      if (sawOld && Date.now() - started > COMMIT_MS / 3) oldReads++;
      await new Promise((r) => setTimeout(r, 10));
    }
  })();
  const out = await write();
  done = true;
  await reader;
  return { out, oldReads };
}

describe.skipIf(ENGINE !== 'postgres')(
  'caches after a commit that races reads (PostgreSQL; PGlite cannot interleave a read with a commit)',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await makeTestApp();
    });
    afterAll(async () => t.close());

    it('refuses a deleted token at once, though reads during its commit looked it up', async () => {
      const user = await makeUser(t);
      const tokens = (await t.get(`/api/users/tokens/?user_id=${user.id}`)).json().results as Array<{ id: number }>;
      expect(tokens.length).toBe(1);
      expect((await t.get('/api/users/tokens/', user.token)).statusCode).toBe(200);
      await slowCommitsOf(t, 'users_token', 'delete');
      const { out, oldReads } = await raceReads(
        () => t.del(`/api/users/tokens/${tokens[0]!.id}/`),
        async () => (await t.get('/api/users/tokens/', user.token)).statusCode === 200,
      );
      expect(out.statusCode).toBe(204);
      expect(oldReads).toBeGreaterThan(0);
      const after = await t.get('/api/users/tokens/', user.token);
      expect(after.statusCode).toBe(403);
      expect(after.json()).toEqual({ detail: 'Invalid token' });
    });

    it('shows a new custom field at once, though reads during its commit loaded the definitions', async () => {
      const tenant = (await t.post('/api/tenancy/tenants/', { name: uniq('cf'), slug: uniq('cf') })).json();
      const url = `/api/tenancy/tenants/${tenant.id}/`;
      expect((await t.get(url)).json().custom_fields).toEqual({});
      await slowCommitsOf(t, 'extras_customfield', 'insert');
      const name = uniq('field').replace(/-/g, '_');
      const { out, oldReads } = await raceReads(
        () => t.post('/api/extras/custom-fields/', { name, content_types: ['tenancy.tenant'], type: 'text' }),
        async () => Object.keys((await t.get(url)).json().custom_fields).length === 0,
      );
      expect(out.statusCode, out.body).toBe(201);
      expect(oldReads).toBeGreaterThan(0);
      expect((await t.get(url)).json().custom_fields).toEqual({ [name]: null });
    });

    it('counts a bulk create at once, though lists during its commit counted without it', async () => {
      const p = uniq('total');
      const list = `/api/tenancy/tenants/?name__isw=${p}`;
      expect((await t.get(list)).json().count).toBe(0);
      await slowCommitsOf(t, 'tenancy_tenant', 'insert');
      const { out, oldReads } = await raceReads(
        () =>
          t.post(
            '/api/tenancy/tenants/',
            [1, 2, 3].map((i) => ({ name: `${p}-${i}`, slug: `${p}-${i}` })),
          ),
        // another page of the same list: its total comes from the count cache, not the response cache
        async () => (await t.get(`${list}&limit=1`)).json().count === 0,
      );
      expect(out.statusCode, out.body).toBe(201);
      expect(oldReads).toBeGreaterThan(0);
      expect((await t.get(`${list}&limit=1`)).json().count).toBe(3);
      expect((await t.get(list)).json().count).toBe(3);
    });
  },
);
