/**
 * The webhook worker (spec: Delivery 2): claims queued deliveries, sends them, records the outcome.
 * A delivery may also be notifications (notify.ts): a subscription's, or an event rule's whose
 * action is a notification group; the worker writes them, the same claim and lease as a webhook.
 * Runs in the service process by default and as `inventory worker` on its own; any number of
 * workers share one database:
 *
 * - A claim is one statement: `FOR UPDATE SKIP LOCKED` picks deliveries no other worker holds, and
 *   marks them running with a lease. A worker that dies (SIGKILL) leaves running rows whose lease
 *   expires; any worker then takes them over. So no event is lost, and in steady state none is
 *   sent twice (a delivery that outlives its lease could be, which is why the lease is long).
 * - One object's events go out in the order of their changes: a delivery is claimable only when
 *   no earlier delivery of the same object to the same webhook is still queued or running.
 * - A 2XX answer marks the delivery succeeded, anything else failed (spec: States and transitions);
 *   with WEBHOOK_RETRY_MAX > 0 a failure is queued again after an exponential backoff first.
 * - Finished deliveries are kept WEBHOOK_RETENTION_DAYS, and then go with their day's partitions
 *   (db/outbox-partitions.ts, run beside the worker: app.ts).
 *
 * The outbox is partitioned by the event's day (migration 0219): a delivery is named by its whole
 * key (id, occurred), so each statement on one delivery or its event reads one partition.
 */
import { hostname } from 'node:os';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { buildRequest, loggedRequest, send, type EventContext, type WebhookTarget } from './deliver.js';
import { notifyGroup, notifySubscribers } from './notify.js';
import { TemplateSandbox } from './sandbox.js';

export interface WorkerOptions {
  name?: string;
  /** deliveries sent at the same time */
  concurrency: number;
  /** how often an idle worker looks for work other processes queued */
  pollMs: number;
  /** how long a claim is held before another worker may take it over */
  leaseMs: number;
  timeoutMs: number;
  retryMax: number;
  retryIntervalMs: number;
}

interface Claimed {
  id: number;
  event_id: number;
  /** the event's time: the partition key of both (migration 0219) */
  occurred: string;
  rule_id: number | null;
  webhook_id: number | null;
  /** a subscription's delivery: the subscribers to notify (notify.ts) */
  notify_user_ids: Array<string | number> | null;
  attempts: number;
}

// each heartbeat is a write, which moves every process's data generation: keep them rare
const HEARTBEAT_MS = 30_000;

export interface EventWorker {
  name: string;
  wake(): void;
  /** resolves when nothing is in flight any more (tests, drain) */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

export function startEventWorker(app: AppContext, opts: WorkerOptions): EventWorker {
  const name = opts.name ?? `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  const q = app.db.kysely;
  const sandbox = new TemplateSandbox();
  let running = true;
  let inFlight = 0;
  let wakeTimer: NodeJS.Timeout | null = null;
  let looping = false;
  let again = false;
  const idleWaiters: Array<() => void> = [];

  const claim = async (n: number): Promise<Claimed[]> => {
    // a read first: an idle poll must not be a write, or every poll would move the data generation
    // and end the read caches of every process (db/change-watch.ts)
    const ready = await sql`select 1 from core_delivery where (status = 'queued' and not_before <= now())
      or (status = 'running' and lease_until < now()) limit 1`.execute(q);
    if (ready.rows.length === 0) return [];
    const res =
      await sql<Claimed>`update core_delivery d set status = 'running', started = now(), attempts = d.attempts + 1,
        lease_until = now() + make_interval(secs => ${opts.leaseMs / 1000}), worker = ${name}
      where (d.id, d.occurred) in (
        select c.id, c.occurred from core_delivery c
        where ((c.status = 'queued' and c.not_before <= now()) or (c.status = 'running' and c.lease_until < now()))
          and not exists (select 1 from core_delivery e where e.object_key = c.object_key and e.webhook_id is not distinct from c.webhook_id
            and e.id < c.id and e.status in ('queued', 'running'))
        order by c.id limit ${n} for update skip locked)
      returning d.id, d.event_id, d.occurred, d.rule_id, d.webhook_id, d.notify_user_ids, d.attempts`.execute(q);
    return res.rows.map((r) => ({ ...r, id: Number(r.id), event_id: Number(r.event_id) }));
  };

  const finish = async (
    d: Claimed,
    outcome: {
      ok: boolean;
      skipped?: boolean;
      request?: unknown;
      status?: number | null;
      body?: string | null;
      error?: string | null;
    },
  ) => {
    const retry = !outcome.ok && !outcome.skipped && d.attempts <= opts.retryMax;
    const status = outcome.skipped ? 'skipped' : outcome.ok ? 'succeeded' : retry ? 'queued' : 'failed';
    const backoffSec = (opts.retryIntervalMs / 1000) * 2 ** (d.attempts - 1);
    // the delivery's outcome and the worker's counters in one statement
    const counted = !retry && !outcome.skipped;
    await sql`with done as (
        update core_delivery set status = ${status}, ended = case when ${retry} then null else now() end,
          not_before = case when ${retry} then now() + make_interval(secs => ${backoffSec}) else not_before end,
          lease_until = null, request = ${JSON.stringify(outcome.request ?? null)}::jsonb,
          response_status = ${outcome.status ?? null}, response_body = ${outcome.body ?? null}, error = ${outcome.error ?? null}
        where id = ${d.id} and occurred = ${d.occurred}::timestamptz and worker = ${name} returning id)
      update core_worker set succeeded = succeeded + ${counted && outcome.ok ? 1 : 0}, failed = failed + ${counted && !outcome.ok ? 1 : 0}
      where name = ${name} and ${counted} and exists (select 1 from done)`.execute(q);
  };

  const deliver = async (d: Claimed): Promise<void> => {
    if (d.notify_user_ids) {
      await notifySubscribers(q, d, d.notify_user_ids.map(Number));
      return finish(d, { ok: true });
    }
    const found = await sql<
      EventContext & {
        event_id: number;
        conditions: unknown;
        rule_enabled: boolean;
        action_type: string | null;
        action_object_id: string | number | null;
      } & Partial<WebhookTarget>
    >`
      select e.event, to_char(e.occurred at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"+00:00"') as timestamp,
        split_part(e.model, '.', 2) as model, e.model as object_type, e.username, e.request_id::text as request_id, e.data, e.snapshots,
        r.conditions, r.enabled as rule_enabled, r.action_type, r.action_object_id,
        w.payload_url, w.http_method, w.http_content_type, w.additional_headers, w.body_template, w.secret, w.ssl_verification, w.ca_file_path
      from core_event e left join extras_eventrule r on r.id = ${d.rule_id} left join extras_webhook w on w.id = ${d.webhook_id}
      where e.id = ${d.event_id} and e.occurred = ${d.occurred}::timestamptz`.execute(q);
    const row = found.rows[0];
    // NetBox 4.1 EventRuleActionChoices.NOTIFICATION: the rule's notification group hears of it
    if (row && !d.webhook_id && row.action_type === 'notification') {
      try {
        if (!(await sandbox.evaluate(row.conditions, row.data)))
          return finish(d, { ok: true, skipped: true, error: 'conditions not met; not sent' });
      } catch (err) {
        return finish(d, { ok: false, error: `condition error: ${(err as Error).message}` });
      }
      await notifyGroup(q, d, Number(row.action_object_id));
      return finish(d, { ok: true });
    }
    if (!row?.payload_url)
      return finish(d, { ok: false, error: 'the webhook or its event was deleted before delivery' });
    const context: EventContext = {
      event: row.event,
      timestamp: row.timestamp,
      model: row.model,
      // NetBox 4.4 added the object's type (`dcim.site`) beside the model's name
      ...(app.config.apiDialect === '4.4' ? { object_type: row.object_type } : {}),
      username: row.username,
      request_id: row.request_id,
      data: row.data,
      snapshots: row.snapshots,
    };
    let request: Awaited<ReturnType<typeof buildRequest>>;
    try {
      if (!(await sandbox.evaluate(row.conditions, row.data)))
        return finish(d, { ok: true, skipped: true, error: 'conditions not met; not sent' });
      request = await buildRequest(sandbox, row as WebhookTarget, context, `msg_${d.id}`);
    } catch (err) {
      return finish(d, { ok: false, error: `template error: ${(err as Error).message}` });
    }
    const outcome = await send(request, row as WebhookTarget, opts.timeoutMs);
    await finish(d, {
      ok: outcome.ok,
      request: loggedRequest(request),
      status: outcome.status,
      body: outcome.responseBody,
      error: outcome.error,
    });
  };

  const heartbeat = async () => {
    await sql`insert into core_worker (name, hostname, pid) values (${name}, ${hostname()}, ${process.pid})
      on conflict (name) do update set heartbeat = now()`.execute(q);
    // workers silent for three heartbeats are gone
    await sql`delete from core_worker where heartbeat < now() - make_interval(secs => ${(HEARTBEAT_MS * 3) / 1000})`.execute(
      q,
    );
  };

  /** claims and sends until nothing is claimable; one loop at a time */
  const loop = async () => {
    if (looping) {
      again = true;
      return;
    }
    looping = true;
    try {
      do {
        again = false;
        while (running) {
          const free = opts.concurrency - inFlight;
          if (free <= 0) break;
          const batch = await claim(free);
          if (batch.length === 0) break;
          for (const d of batch) {
            inFlight++;
            void deliver(d)
              .catch((err) => app.log.error({ err, delivery: d.id }, 'webhook delivery failed unexpectedly'))
              .finally(() => {
                inFlight--;
                void loop();
                if (inFlight === 0) for (const w of idleWaiters.splice(0)) w();
              });
          }
        }
      } while (again && running);
    } catch (err) {
      app.log.warn({ err }, 'webhook worker: claiming failed; retrying');
    } finally {
      looping = false;
    }
  };

  const poll = setInterval(() => void loop(), opts.pollMs);
  const beat = setInterval(() => void heartbeat().catch(() => undefined), HEARTBEAT_MS);
  poll.unref();
  beat.unref();
  void heartbeat()
    .catch(() => undefined)
    .then(() => loop());

  return {
    name,
    wake() {
      // several commits in a row wake it once
      if (wakeTimer) return;
      wakeTimer = setTimeout(() => {
        wakeTimer = null;
        void loop();
      }, 0);
    },
    async idle() {
      while (true) {
        // another loop already running: let it progress rather than spin
        if (looping) await new Promise((r) => setTimeout(r, 20));
        await loop();
        if (inFlight === 0) {
          const left = await sql<{
            n: number;
          }>`select count(*)::int as n from core_delivery where status = 'queued' and not_before <= now()`.execute(q);
          if (Number(left.rows[0]!.n) === 0) return;
        } else await new Promise<void>((r) => idleWaiters.push(r));
      }
    },
    async stop() {
      running = false;
      clearInterval(poll);
      clearInterval(beat);
      if (wakeTimer) clearTimeout(wakeTimer);
      while (inFlight > 0) await new Promise<void>((r) => idleWaiters.push(r));
      await sql`delete from core_worker where name = ${name}`.execute(q).catch(() => undefined);
      await sandbox.close();
    },
  };
}
