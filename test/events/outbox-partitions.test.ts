/**
 * The webhook outbox's daily partitions (migration 0219, db/outbox-partitions.ts): where events and
 * deliveries land, the days made ahead, and WEBHOOK_RETENTION_DAYS, seen through the background
 * tasks API and a real receiver. Events of other days cannot be made through the API (their time is
 * the write's), so they are inserted in SQL, as enqueue.ts writes them.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../src/core/events/index.js';
import type { EventWorker } from '../../src/core/events/worker.js';
import { ensureOutboxDays, listOutboxDays, upkeepOutbox } from '../../src/db/outbox-partitions.js';
import { listRangePartitions } from '../../src/db/partitions.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { makeSite, uniq } from '../factories/index.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
let t: TestApp;
let rx: Receiver;
let worker: EventWorker | undefined;
let webhookId: number;
beforeAll(async () => {
  t = await makeTestApp();
  rx = await startReceiver();
  worker = attachEventWorker(t.app.inventory, { pollMs: 50 });
  const hook = (await t.post('/api/extras/webhooks/', { name: uniq('hook'), payload_url: `${rx.url}/in` })).json();
  webhookId = hook.id;
  await t.post('/api/extras/event-rules/', {
    name: uniq('rule'),
    content_types: ['dcim.site'],
    type_create: true,
    action_object_id: hook.id,
  });
});
afterAll(async () => {
  await worker?.stop();
  await rx.close();
  await t.close();
});

const dayOf = (d: Date) => d.toISOString().slice(0, 10).replaceAll('-', '');
const dayStart = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));

/** the partitions holding a delivery and its event */
async function partitionsOf(deliveryId: number): Promise<{ event: string; delivery: string }> {
  const { rows } = await sql<{ event: string; delivery: string }>`select e.tableoid::regclass::text as event,
      d.tableoid::regclass::text as delivery
    from core_delivery d join core_event e on e.id = d.event_id and e.occurred = d.occurred where d.id = ${deliveryId}`.execute(
    t.db.kysely,
  );
  return rows[0]!;
}

interface Wanted {
  status: 'queued' | 'succeeded' | 'failed' | 'skipped';
  ended?: Date;
  webhook?: number;
}

let objects = 0;

/**
 * An event of an object of its own at `occurred`, with deliveries in the given states (a queued one
 * waits a month, as a retry waits); returns the deliveries' ids.
 */
async function addEvent(occurred: Date, deliveries: Wanted[]): Promise<number[]> {
  const objectId = 900_000 + ++objects;
  const event = await sql<{
    id: number;
    occurred: string;
  }>`insert into core_event (event, model, object_id, occurred, data, snapshots)
    values ('updated', 'dcim.site', ${objectId}, ${occurred.toISOString()}::timestamptz,
      ${JSON.stringify({ id: objectId, display: 'old site' })}::jsonb, '{}'::jsonb) returning id, occurred`.execute(
    t.db.kysely,
  );
  const e = event.rows[0]!;
  const ids: number[] = [];
  for (const d of deliveries) {
    const res = await sql<{ id: number }>`insert into core_delivery (event_id, occurred, webhook_id, object_key, status,
        attempts, created, not_before, ended)
      values (${e.id}, ${e.occurred}::timestamptz, ${d.webhook ?? null}, ${`dcim.site:${objectId}`}, ${d.status},
        1, ${occurred.toISOString()}::timestamptz,
        ${new Date(Date.now() + 30 * DAY).toISOString()}::timestamptz,
        ${d.ended?.toISOString() ?? null}::timestamptz) returning id`.execute(t.db.kysely);
    ids.push(Number(res.rows[0]!.id));
  }
  return ids;
}

const task = (id: number) => t.get(`/api/core/background-tasks/${id}/`);

describe('the outbox partitions', () => {
  it('delivers a change end to end, its event and delivery in the partitions of their day', async () => {
    const site = await makeSite(t);
    const [received] = await rx.waitFor(1);
    await worker!.idle();
    expect(JSON.parse(received!.body)).toMatchObject({ event: 'created', model: 'site', data: { id: site.id } });
    const { rows } = await sql<{ id: number; status: string }>`select d.id, d.status from core_delivery d
      join core_event e on e.id = d.event_id and e.occurred = d.occurred
      where e.model = 'dcim.site' and e.object_id = ${site.id}`.execute(t.db.kysely);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('succeeded');
    const today = dayOf(new Date());
    expect(await partitionsOf(Number(rows[0]!.id))).toEqual({
      event: `core_event_p${today}`,
      delivery: `core_delivery_p${today}`,
    });
    const shown = await task(Number(rows[0]!.id));
    expect(shown.statusCode).toBe(200);
    expect(shown.json()).toMatchObject({ status: 'finished', result: { status_code: 200 } });
  });

  it('has today and the next two days in both tables, and puts an event no day covers in the default partitions', async () => {
    const now = new Date();
    const days = [0, 1, 2].map((i) => dayOf(new Date(dayStart(now).getTime() + i * DAY)));
    expect((await listOutboxDays(t.db.kysely)).map((p) => p.day)).toEqual(expect.arrayContaining(days));
    const deliveryDays = (await listRangePartitions(t.db.kysely, 'core_delivery')).map((p) => p.name);
    expect(deliveryDays).toEqual(expect.arrayContaining(days.map((d) => `core_delivery_p${d}`)));
    const [id] = await addEvent(new Date('1999-06-15T10:00:00Z'), [{ status: 'queued' }]);
    expect(await partitionsOf(id!)).toEqual({ event: 'core_event_default', delivery: 'core_delivery_default' });
    expect((await task(id!)).json()).toMatchObject({ status: 'scheduled' });
  });

  it('moves the default partitions rows of a day into it when the day is made, once', async () => {
    const later = new Date(Date.now() + 40 * DAY);
    const [id] = await addEvent(later, [{ status: 'queued' }]);
    expect(await partitionsOf(id!)).toEqual({ event: 'core_event_default', delivery: 'core_delivery_default' });
    expect(await ensureOutboxDays(t.db.kysely, later)).toContain(dayOf(later));
    expect(await partitionsOf(id!)).toEqual({
      event: `core_event_p${dayOf(later)}`,
      delivery: `core_delivery_p${dayOf(later)}`,
    });
    expect((await task(id!)).statusCode).toBe(200);
    expect(await ensureOutboxDays(t.db.kysely, later)).toEqual([]);
  });

  it('makes each day once when two rounds run at the same time', async () => {
    const later = new Date(Date.now() + 80 * DAY);
    const [a, b] = await Promise.all([ensureOutboxDays(t.db.kysely, later), ensureOutboxDays(t.db.kysely, later)]);
    expect([...a, ...b].sort()).toEqual([0, 1, 2].map((i) => dayOf(new Date(dayStart(later).getTime() + i * DAY))));
  });
});

describe('WEBHOOK_RETENTION_DAYS', () => {
  const now = new Date();
  const base = dayStart(now);
  // days of a service that ran for ten days, each made ahead in its time
  const dayAt = (daysAgo: number, hour = 1) => new Date(base.getTime() - daysAgo * DAY + hour * HOUR);
  let gone: number[];
  let waiting: number;
  let finishedBeside: number;
  let lateFinish: number;
  let recent: number;
  let ancient: number;

  it('drops a day whose deliveries all finished before the cut, keeps one with a queued delivery, deletes the old rows of kept days and of the default partitions', async () => {
    for (let d = 10; d >= 1; d--) await ensureOutboxDays(t.db.kysely, dayAt(d));
    gone = await addEvent(dayAt(10), [
      { status: 'succeeded', ended: dayAt(10, 2) },
      { status: 'failed', ended: dayAt(9) },
    ]);
    // a retry still waiting in a day past the cut, beside a delivery of the same day that finished long ago
    waiting = (await addEvent(dayAt(9), [{ status: 'queued', webhook: webhookId }]))[0]!;
    finishedBeside = (await addEvent(dayAt(9, 3), [{ status: 'skipped', ended: dayAt(9, 4) }]))[0]!;
    // a day past the cut whose delivery finished within the retention (a late retry)
    lateFinish = (await addEvent(dayAt(8), [{ status: 'succeeded', ended: new Date(now.getTime() - HOUR) }]))[0]!;
    recent = (await addEvent(dayAt(2), [{ status: 'succeeded', ended: dayAt(2, 2) }]))[0]!;
    ancient = (
      await addEvent(new Date('2001-03-04T05:00:00Z'), [{ status: 'failed', ended: new Date('2001-03-04T06:00:00Z') }])
    )[0]!;
    expect((await partitionsOf(gone[0]!)).delivery).toBe(`core_delivery_p${dayOf(dayAt(10))}`);

    const result = await upkeepOutbox(t.db.kysely, 7, now);

    expect(result.dropped).toContain(dayOf(dayAt(10)));
    expect(result.dropped).not.toContain(dayOf(dayAt(9)));
    expect(result.held.sort()).toEqual([dayOf(dayAt(9)), dayOf(dayAt(8))]);
    const days = (await listOutboxDays(t.db.kysely)).map((p) => p.day);
    expect(days).not.toContain(dayOf(dayAt(10)));
    expect(days).toEqual(expect.arrayContaining([dayOf(dayAt(9)), dayOf(dayAt(8)), dayOf(dayAt(2))]));
    expect((await listRangePartitions(t.db.kysely, 'core_delivery')).map((p) => p.name)).not.toContain(
      `core_delivery_p${dayOf(dayAt(10))}`,
    );
    // finished before the cut in a kept day, and in the default partition: deleted, with their events
    expect(result.deleted).toEqual({ deliveries: 2, events: 2 });
    for (const id of [...gone, finishedBeside, ancient]) expect((await task(id)).statusCode, `task ${id}`).toBe(404);
    expect((await task(waiting)).json()).toMatchObject({ status: 'scheduled' });
    for (const id of [lateFinish, recent]) expect((await task(id)).json()).toMatchObject({ status: 'finished' });
  });

  it('drops the kept day once its delivery is sent and finished longer ago than the retention', async () => {
    // the retry's time comes: the worker sends it from its day's partition
    rx.received.length = 0;
    await sql`update core_delivery set not_before = now() where id = ${waiting}`.execute(t.db.kysely);
    worker!.wake();
    const [received] = await rx.waitFor(1);
    await worker!.idle();
    expect(JSON.parse(received!.body)).toMatchObject({ event: 'updated', data: { display: 'old site' } });
    expect((await task(waiting)).json()).toMatchObject({ status: 'finished' });
    // just finished: kept WEBHOOK_RETENTION_DAYS more
    expect((await upkeepOutbox(t.db.kysely, 7, now)).held).toContain(dayOf(dayAt(9)));
    const later = new Date(Date.now() + 7 * DAY + HOUR);
    const result = await upkeepOutbox(t.db.kysely, 7, later);
    expect(result.dropped).toEqual(expect.arrayContaining([dayOf(dayAt(9)), dayOf(dayAt(8))]));
    for (const id of [waiting, lateFinish]) expect((await task(id)).statusCode).toBe(404);
  });

  it('writes nothing in a round that has nothing to do', async () => {
    // the worker's heartbeat is a write of its own
    await worker!.stop();
    worker = undefined;
    const later = new Date(Date.now() + 7 * DAY + HOUR);
    await upkeepOutbox(t.db.kysely, 7, later);
    const generation = t.db.changes.generation;
    const result = await upkeepOutbox(t.db.kysely, 7, later);
    expect(result).toMatchObject({ created: [], dropped: [], deleted: { deliveries: 0, events: 0 } });
    expect(t.db.changes.generation).toBe(generation);
  });
});
