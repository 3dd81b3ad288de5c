/** MAINTENANCE_MODE=true: reads work, writes answer 503, token use is not recorded (spec: Authentication 11). */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
let key: string;
let tokenId: number;
let siteId: number;
beforeAll(async () => {
  t = await makeTestApp({ MAINTENANCE_MODE: 'true' });
  // writes are refused through the API, so the fixtures go straight to the database
  const admin = await sql<{ user_id: number }>`select user_id from users_token where key = ${t.token}`.execute(
    t.db.kysely,
  );
  key = 'feedfacefeedfacefeedfacefeedfacefeedface';
  const tok = await sql<{
    id: number;
  }>`insert into users_token (user_id, key) values (${admin.rows[0]!.user_id}, ${key}) returning id`.execute(
    t.db.kysely,
  );
  tokenId = Number(tok.rows[0]!.id);
  const name = uniq('site');
  const site = await sql<{
    id: number;
  }>`insert into dcim_site (name, slug, status) values (${name}, ${name}, 'active') returning id`.execute(t.db.kysely);
  siteId = Number(site.rows[0]!.id);
});
afterAll(async () => t.close());

describe('MAINTENANCE_MODE=true', () => {
  it('reads work', async () => {
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
    expect((await t.get(`/api/dcim/sites/${siteId}/`, key)).statusCode).toBe(200);
  });

  it('writes answer 503 with a detail and change nothing', async () => {
    const name = uniq('site');
    const cases = [
      () => t.post('/api/dcim/sites/', { name, slug: name }),
      () => t.patch(`/api/dcim/sites/${siteId}/`, { description: 'changed' }),
      () => t.put(`/api/dcim/sites/${siteId}/`, { name, slug: name }),
      () => t.del(`/api/dcim/sites/${siteId}/`),
      () => t.patch('/api/users/config/', { a: 1 }),
    ];
    for (const run of cases) {
      const res = await run();
      expect(res.statusCode).toBe(503);
      expect(typeof res.json().detail).toBe('string');
    }
    const site = (await t.get(`/api/dcim/sites/${siteId}/`)).json();
    expect(site.description).toBe('');
    expect((await t.get(`/api/dcim/sites/?slug=${name}`)).json().count).toBe(0);
  });

  it('does not record token use', async () => {
    expect((await t.get('/api/dcim/sites/', key)).statusCode).toBe(200);
    const row = await sql<{ last_used: unknown }>`select last_used from users_token where id = ${tokenId}`.execute(
      t.db.kysely,
    );
    expect(row.rows[0]!.last_used).toBeNull();
    expect((await t.get(`/api/users/tokens/${tokenId}/`)).json().last_used).toBeNull();
  });
});
