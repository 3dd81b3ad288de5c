/**
 * The change log's monthly partitions (migration 0215, db/changelog-partitions.ts): where rows land,
 * the months made ahead, and CHANGELOG_RETENTION, seen through the API. Change records of long ago
 * cannot be made through the API (their time is the write's), so they are inserted in SQL.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import {
  applyChangelogRetention,
  ensureMonthPartitions,
  listMonthPartitions,
  upkeepChangelog,
} from '../../../src/db/changelog-partitions.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { signIn } from '../../helpers/web-session.js';
import { uniq } from '../../factories/index.js';

const DAY = 86_400_000;
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const monthName = (d: Date) =>
  `extras_objectchange_p${d.getUTCFullYear()}${String(d.getUTCMonth() + 1).padStart(2, '0')}`;

/** change records of one request at the given times; returns the request id */
async function addChanges(times: Date[]): Promise<string> {
  const requestId = randomUUID();
  for (const time of times)
    await sql`insert into extras_objectchange (time, request_id, action, changed_object_type, changed_object_id, object_repr)
      values (${time.toISOString()}::timestamptz, ${requestId}::uuid, 'update', 'dcim.site', 1, ${uniq('old')})`.execute(
      t.db.kysely,
    );
  return requestId;
}

async function partitionOf(requestId: string): Promise<string[]> {
  const { rows } = await sql<{ p: string }>`select tableoid::regclass::text as p from extras_objectchange
    where request_id = ${requestId}::uuid order by time`.execute(t.db.kysely);
  return rows.map((r) => r.p);
}

const listed = async (requestId: string) =>
  (await t.get(`/api/extras/object-changes/?request_id=${requestId}&limit=0`)).json();

describe('change log partitions', () => {
  it('writes a change into the partition of its month, and lists and shows it', async () => {
    const n = uniq('p');
    const res = await t.post('/api/dcim/sites/', { name: n, slug: n });
    expect(res.statusCode).toBe(201);
    const requestId = res.headers['x-request-id'] as string;
    expect(await partitionOf(requestId)).toEqual([monthName(new Date())]);
    const body = await listed(requestId);
    expect(body.count).toBe(1);
    const detail = await t.get(`/api/extras/object-changes/${body.results[0].id}/`);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().object_repr).toBe(n);
    const page = await t.get(
      `/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${res.json().id}`,
    );
    expect(page.json().count).toBe(1);
  });

  it('has this month and the next two, and puts a time no month covers in the default partition', async () => {
    const now = new Date();
    const names = (await listMonthPartitions(t.db.kysely)).map((p) => p.name);
    for (let i = 0; i <= 2; i++)
      expect(names).toContain(monthName(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + i, 1))));
    const requestId = await addChanges([new Date('1999-06-15T00:00:00Z')]);
    expect(await partitionOf(requestId)).toEqual(['extras_objectchange_default']);
    const body = await listed(requestId);
    expect(body.count).toBe(1);
    expect(body.results[0].time).toMatch(/^1999-06-15/);
  });

  it('moves the default partition rows of a month into it when the month is made', async () => {
    const now = new Date();
    const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 6, 10));
    const requestId = await addChanges([later]);
    expect(await partitionOf(requestId)).toEqual(['extras_objectchange_default']);
    const made = await ensureMonthPartitions(t.db.kysely, later);
    expect(made).toContain(monthName(later));
    expect(await partitionOf(requestId)).toEqual([monthName(later)]);
    expect((await listed(requestId)).count).toBe(1);
    // made once: a second round finds it
    expect(await ensureMonthPartitions(t.db.kysely, later)).toEqual([]);
  });

  it('makes each month once when two rounds run at the same time', async () => {
    const now = new Date();
    const later = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 12, 1));
    const [a, b] = await Promise.all([
      ensureMonthPartitions(t.db.kysely, later),
      ensureMonthPartitions(t.db.kysely, later),
    ]);
    expect([...a, ...b].sort()).toEqual(
      [0, 1, 2].map((i) => monthName(new Date(Date.UTC(later.getUTCFullYear(), later.getUTCMonth() + i, 1)))).sort(),
    );
  });

  it('keeps everything with a retention of 0 days', async () => {
    const requestId = await addChanges([new Date(Date.now() - 400 * DAY)]);
    expect(await applyChangelogRetention(t.db.kysely, 0)).toEqual({ dropped: [], deleted: 0 });
    expect((await listed(requestId)).count).toBe(1);
  });

  it('drops the months older than the retention, deletes the older rows of the month across the cut, keeps the rest', async () => {
    const now = new Date();
    // months of a service that ran for half a year: each made ahead in its time
    for (let m = 6; m >= 0; m--)
      await ensureMonthPartitions(t.db.kysely, new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - m, 1)));
    const oldMonth = new Date(now.getTime() - 150 * DAY);
    const gone = await addChanges([oldMonth, new Date(now.getTime() - 91 * DAY)]);
    const kept = await addChanges([new Date(now.getTime() - 89 * DAY), new Date(now.getTime() - DAY)]);
    expect((await partitionOf(gone))[0]).toBe(monthName(oldMonth));
    const before = (await t.get('/api/extras/object-changes/?limit=1')).json().count;

    const result = await upkeepChangelog(t.db.kysely, 90, now);

    // every month that ended before the cut is gone, the 1999 row of the default partition with them
    const cut = new Date(now.getTime() - 90 * DAY);
    expect(result.dropped).toContain(monthName(oldMonth));
    for (const p of await listMonthPartitions(t.db.kysely))
      expect(new Date(Date.UTC(p.start.getUTCFullYear(), p.start.getUTCMonth() + 1, 1)) > cut).toBe(true);
    expect((await listed(gone)).count).toBe(0);
    const left = await listed(kept);
    expect(left.count).toBe(2);
    // the unfiltered count (kept row counts, 0147) follows what was dropped and deleted
    const after = (await t.get('/api/extras/object-changes/?limit=1')).json().count;
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from extras_objectchange`.execute(t.db.kysely);
    expect(after).toBe(rows[0]!.n);
    expect(after).toBeLessThan(before);
    // the change log's page shows what was kept
    const browser = await signIn(t, t.username, t.password);
    const page = await browser.request('GET', `/core/changelog/?request_id=${kept}`);
    expect(page.statusCode).toBe(200);
    const shown = [...page.body.matchAll(/href="\/core\/changelog\/(\d+)\/"/g)].map((m) => Number(m[1]));
    expect(shown.sort()).toEqual(left.results.map((r: { id: number }) => r.id).sort());
  });
});

describe('CHANGELOG_RETENTION', () => {
  it('is 90 days unless set, and refuses what is not a number of days', () => {
    expect(loadConfig({}).changelogRetention).toBe(90);
    expect(loadConfig({ CHANGELOG_RETENTION: '0' }).changelogRetention).toBe(0);
    expect(() => loadConfig({ CHANGELOG_RETENTION: 'soon' })).toThrow(
      /CHANGELOG_RETENTION must be a non-negative integer/,
    );
  });
});
