/**
 * An upgrade across migration 0219 (the webhook outbox partitioned by day) of a database that
 * already holds events and deliveries: every row keeps its id and lands in its event's day, the
 * background tasks and jobs read them as before, and new rows take the next ids. The database
 * before 0219 is built by applying only the earlier migrations, as the runner does (db/migrate.ts).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/client.js';
import { type UpgradedApp, upgradedApp } from '../helpers/upgraded-app.js';

const PARTITIONED = '0219';

let u: UpgradedApp;
let db: Database;
let app: UpgradedApp['app'];
let token: string;

/**
 * Events of two days ago, yesterday and today, written as 0218's schema had them: a delivery that
 * succeeded, one that failed, one queued for a retry tomorrow, and one of notifications.
 */
const OLD_OUTBOX = `
insert into core_event (id, event, model, object_id, occurred, username, data, snapshots)
select 300 + g, 'updated', 'dcim.site', 40 + g, now() - make_interval(days => g), '',
  jsonb_build_object('id', 40 + g, 'display', 'site ' || g), '{}'
from generate_series(0, 2) g;
select setval('core_event_id_seq', 302);
insert into core_delivery (id, event_id, webhook_id, object_key, status, attempts, not_before, ended, response_status, notify_user_ids)
values (500, 302, 7, 'dcim.site:42', 'succeeded', 1, now(), now() - interval '2 days', 200, null),
  (501, 301, 7, 'dcim.site:41', 'failed', 1, now(), now() - interval '1 day', 500, null),
  (502, 300, 7, 'dcim.site:40', 'queued', 1, now() + interval '1 day', null, null, null),
  (503, 300, null, 'dcim.site:40', 'succeeded', 1, now(), now(), null, '{1}');
select setval('core_delivery_id_seq', 503);
`;

const get = (url: string) => app.inject({ url, headers: { authorization: `Token ${token}` } });

beforeAll(async () => {
  u = await upgradedApp(PARTITIONED, OLD_OUTBOX);
  ({ app, db, token } = u);
}, 120_000);
afterAll(async () => u?.close());

describe('upgrading to the partitioned outbox', () => {
  it("keeps every event and delivery with its id, each delivery in the partition of its event's day", async () => {
    const { rows } = await sql<{
      id: number;
      event_id: number;
      p: string;
      ep: string;
      day: string;
      notify: string[] | null;
    }>`
      select d.id, d.event_id, d.tableoid::regclass::text as p, e.tableoid::regclass::text as ep,
        to_char(e.occurred at time zone 'UTC', 'YYYYMMDD') as day, d.notify_user_ids::text[] as notify
      from core_delivery d join core_event e on e.id = d.event_id and e.occurred = d.occurred order by d.id`.execute(
      db.kysely,
    );
    expect(rows.map((r) => [r.id, r.event_id])).toEqual([
      [500, 302],
      [501, 301],
      [502, 300],
      [503, 300],
    ]);
    for (const r of rows) {
      expect(r.p).toBe(`core_delivery_p${r.day}`);
      expect(r.ep).toBe(`core_event_p${r.day}`);
    }
    expect(rows[3]!.notify).toEqual(['1']);
    const events = await sql<{ n: number }>`select count(*)::int as n from core_event`.execute(db.kysely);
    expect(events.rows[0]!.n).toBe(3);
  });

  it('shows the deliveries as background tasks and as jobs, as before', async () => {
    const tasks = (await get('/api/core/background-tasks/')).json();
    expect(tasks.count).toBe(4);
    expect(tasks.results.map((r: { id: string }) => r.id)).toEqual(['503', '502', '501', '500']);
    expect((await get('/api/core/background-tasks/502/')).json()).toMatchObject({
      status: 'scheduled',
      kwargs: { model: 'dcim.site', object_id: 40, event: 'updated' },
    });
    expect((await get('/api/core/background-tasks/501/')).json()).toMatchObject({ status: 'failed' });
    const job = await get('/api/core/jobs/500/');
    expect(job.statusCode).toBe(200);
    expect(job.json()).toMatchObject({
      status: { value: 'completed' },
      data: { object_id: 42, delivery: 'succeeded' },
    });
  });

  it("gives new events and deliveries the next ids, in today's partitions", async () => {
    const hook = await app.inject({
      method: 'POST',
      url: '/api/extras/webhooks/',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'after upgrade', payload_url: 'http://127.0.0.1:9/' }),
    });
    const rule = await app.inject({
      method: 'POST',
      url: '/api/extras/event-rules/',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({
        name: 'rule after upgrade',
        content_types: ['dcim.site'],
        type_create: true,
        action_object_id: hook.json().id,
      }),
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const site = await app.inject({
      method: 'POST',
      url: '/api/dcim/sites/',
      headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'after upgrade', slug: 'after-upgrade' }),
    });
    expect(site.statusCode).toBe(201);
    const { rows } = await sql<{ id: number; event_id: number; p: string }>`select id, event_id,
      tableoid::regclass::text as p from core_delivery where id > 503`.execute(db.kysely);
    const today = new Date().toISOString().slice(0, 10).replaceAll('-', '');
    expect(rows).toEqual([{ id: 504, event_id: 303, p: `core_delivery_p${today}` }]);
  });
});
