/**
 * An upgrade across migration 0215 (the change log partitioned by month) of a database that
 * already holds change records: every record keeps its id and lands in its month, the kept row
 * count stays exact, and the API reads them as before. The database before 0215 is built by
 * applying only the earlier migrations, as the runner does (db/migrate.ts).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/db/client.js';
import { type UpgradedApp, upgradedApp } from '../../helpers/upgraded-app.js';

const PARTITIONED = '0215';
const REQUEST = '6f1c3f0e-2d7a-4c4e-9a51-0c2b8e7d1a01';

let u: UpgradedApp;
let db: Database;
let app: UpgradedApp['app'];
let token: string;

/** records of three months ago, of a year ago and of now, written as 0214's schema had them */
const OLD_CHANGES = `
insert into extras_objectchange (id, time, user_name, request_id, action, changed_object_type, changed_object_id, object_repr, postchange_data, message)
select 700 + g, now() - make_interval(days => g * 45), 'old-admin', '${REQUEST}', 'update', 'dcim.site', 42, 'site 42',
  jsonb_build_object('name', 'site 42', 'n', g), case when g = 0 then 'latest' else '' end
from generate_series(0, 8) g;
select setval('extras_objectchange_id_seq', 708);
`;

const get = (url: string) => app.inject({ url, headers: { authorization: `Token ${token}` } });

beforeAll(async () => {
  u = await upgradedApp(PARTITIONED, OLD_CHANGES);
  ({ app, db, token } = u);
}, 120_000);
afterAll(async () => u?.close());

describe('upgrading to the partitioned change log', () => {
  it('keeps every record with its id, newest first, each in the partition of its month', async () => {
    const res = await get(`/api/extras/object-changes/?request_id=${REQUEST}&limit=0`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.results.map((r: { id: number }) => r.id)).toEqual([700, 701, 702, 703, 704, 705, 706, 707, 708]);
    expect(body.results[1].postchange_data).toEqual({ n: 1, name: 'site 42' });
    const { rows } = await sql<{ id: number; p: string; month: string }>`select id::int, tableoid::regclass::text as p,
      to_char(time at time zone 'UTC', 'YYYYMM') as month from extras_objectchange order by id`.execute(db.kysely);
    for (const r of rows) expect(r.p).toBe(`extras_objectchange_p${r.month}`);
  });

  it('keeps the unfiltered total exact, and gives new records the next ids', async () => {
    const before = (await get('/api/extras/object-changes/?limit=1')).json();
    expect(before.count).toBe(9);
    const site = await app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'after upgrade', slug: 'after-upgrade' }),
    });
    expect(site.statusCode).toBe(201);
    const after = (await get('/api/extras/object-changes/?limit=1')).json();
    expect(after.count).toBe(10);
    expect(after.results[0].id).toBe(709);
    expect((await get('/api/extras/object-changes/704/')).json().object_repr).toBe('site 42');
  });

  it('shows the 4.4 message the record carried', async () => {
    const res = await app.inject({
      url: '/api/core/object-changes/700/',
      headers: { authorization: `Token ${token}`, accept: 'application/json; version=4.4' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('latest');
  });
});
