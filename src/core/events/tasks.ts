/**
 * Webhook deliveries seen as background tasks, in the shapes NetBox 4 gives its RQ queues, tasks
 * and workers (`/api/core/background-*`), so scripts written for it work; the administrative page
 * (web/pages/background-tasks.page.ts) shows the same. One queue, `default`, as NetBox's webhooks use.
 *
 * RQ's statuses: queued (scheduled while a retry waits for its time), started, finished, failed.
 * A delivery whose rule's conditions did not match is finished with that as its result.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';

const QUEUE = 'default';
const STATUS_OF: Record<string, string> = {
  queued: 'queued',
  running: 'started',
  succeeded: 'finished',
  skipped: 'finished',
  failed: 'failed',
};
export const TASK_STATUSES = ['queued', 'scheduled', 'started', 'finished', 'failed'] as const;

interface DeliveryRow {
  id: number;
  status: string;
  queue: string;
  attempts: number;
  created: string;
  not_before: string;
  started: string | null;
  ended: string | null;
  lease_until: string | null;
  worker: string | null;
  request: unknown;
  response_status: number | null;
  response_body: string | null;
  error: string | null;
  event: string;
  model: string;
  object_id: number;
  webhook_id: number | null;
  webhook_name: string | null;
  rule_id: number | null;
  scheduled: boolean;
}

export type Task = ReturnType<typeof taskOf>;

function taskOf(d: DeliveryRow, baseUrl: string) {
  const status = d.status === 'queued' && d.scheduled ? 'scheduled' : (STATUS_OF[d.status] ?? d.status);
  const finished = d.status === 'succeeded' || d.status === 'skipped';
  return {
    id: String(d.id),
    url: `${baseUrl}/api/core/background-tasks/${d.id}/`,
    // a delivery with no webhook writes notifications (notify.ts): a rule's group or the subscribers
    description:
      d.webhook_id == null
        ? `Notifications (${d.rule_id == null ? 'subscribers' : `event rule #${d.rule_id}`}): ${d.event} ${d.model} #${d.object_id}`
        : `Webhook ${d.webhook_name ? `"${d.webhook_name}"` : `#${d.webhook_id}`}: ${d.event} ${d.model} #${d.object_id}`,
    origin: d.queue,
    func_name: 'extras.webhooks.send_webhook',
    args: [],
    kwargs: {
      webhook: d.webhook_id,
      event_rule: d.rule_id,
      event: d.event,
      model: d.model,
      object_id: Number(d.object_id),
    },
    result: finished
      ? { status_code: d.response_status, body: d.response_body, note: d.status === 'skipped' ? d.error : null }
      : null,
    exc_info: d.status === 'failed' ? d.error : null,
    timeout: null,
    created_at: d.created,
    enqueued_at: d.created,
    started_at: d.started,
    ended_at: d.ended,
    worker_name: d.worker,
    status,
    meta: { attempts: d.attempts, request: d.request, response_status: d.response_status, lease_until: d.lease_until },
    last_heartbeat: d.status === 'running' ? d.started : null,
    is_finished: finished,
    is_queued: status === 'queued',
    is_failed: d.status === 'failed',
    is_started: status === 'started',
    is_deferred: false,
    is_scheduled: status === 'scheduled',
  };
}

/** the task statuses a filter asks for, as delivery statuses */
function deliveryStatuses(status: string): string[] {
  switch (status) {
    case 'queued':
    case 'scheduled':
      return ['queued'];
    case 'started':
      return ['running'];
    case 'finished':
      return ['succeeded', 'skipped'];
    case 'failed':
      return ['failed'];
    default:
      throw Errors.invalidFilter('status', `Select a valid choice. ${status} is not one of the available choices.`);
  }
}

const SELECT = sql`select d.id, d.status, d.queue, d.attempts, d.created, d.not_before, d.started, d.ended, d.lease_until, d.worker,
    d.request, d.response_status, d.response_body, d.error, e.event, e.model, e.object_id, d.webhook_id, w.name as webhook_name, d.rule_id,
    (d.status = 'queued' and d.not_before > now()) as scheduled
  from core_delivery d join core_event e on e.id = d.event_id and e.occurred = d.occurred left join extras_webhook w on w.id = d.webhook_id`;

export async function listTasks(
  rc: RequestContext,
  filter: { queue?: string; status?: string; limit: number; offset: number },
) {
  const conds = [sql`true`];
  if (filter.queue !== undefined) conds.push(sql`d.queue = ${filter.queue}`);
  if (filter.status !== undefined) {
    conds.push(sql`d.status = any(${deliveryStatuses(filter.status)}::text[])`);
    if (filter.status === 'scheduled') conds.push(sql`d.not_before > now()`);
    if (filter.status === 'queued') conds.push(sql`d.not_before <= now()`);
  }
  const where = sql.join(conds, sql` and `);
  const total = await sql<{ n: number }>`select count(*)::int as n from core_delivery d where ${where}`.execute(rc.q);
  const rows =
    await sql<DeliveryRow>`${SELECT} where ${where} order by d.id desc limit ${filter.limit} offset ${filter.offset}`.execute(
      rc.q,
    );
  return { count: Number(total.rows[0]!.n), results: rows.rows.map((r) => taskOf(r, rc.baseUrl)) };
}

export async function getTask(rc: RequestContext, id: number) {
  const rows = await sql<DeliveryRow>`${SELECT} where d.id = ${id}`.execute(rc.q);
  if (!rows.rows[0]) throw Errors.notFound();
  return taskOf(rows.rows[0], rc.baseUrl);
}

/** spec: States and transitions - a failed delivery is sent again on request, judged by the same rule */
export async function requeueTask(rc: RequestContext, id: number) {
  const res = await sql`update core_delivery set status = 'queued', not_before = now(), ended = null, error = null,
      response_status = null, response_body = null, worker = null, lease_until = null
    where id = ${id} and status = 'failed' returning id`.execute(rc.q);
  if (res.rows.length === 0) {
    await getTask(rc, id);
    throw Errors.badRequest('Only a failed task can be requeued.');
  }
  rc.app.wakeEventWorker?.();
  return getTask(rc, id);
}

export async function queueStats(rc: RequestContext) {
  const res = await sql<{
    queued: number;
    scheduled: number;
    started: number;
    finished: number;
    failed: number;
    oldest: string | null;
    workers: number;
  }>`
    select count(*) filter (where status = 'queued' and not_before <= now())::int as queued,
      count(*) filter (where status = 'queued' and not_before > now())::int as scheduled,
      count(*) filter (where status = 'running')::int as started,
      count(*) filter (where status in ('succeeded', 'skipped'))::int as finished,
      count(*) filter (where status = 'failed')::int as failed,
      min(created) filter (where status = 'queued') as oldest,
      (select count(*)::int from core_worker where ${QUEUE} = any(queues)) as workers
    from core_delivery where queue = ${QUEUE}`.execute(rc.q);
  const s = res.rows[0]!;
  return [
    {
      name: QUEUE,
      jobs: s.queued,
      oldest_job_timestamp: s.oldest,
      started_jobs: s.started,
      deferred_jobs: 0,
      finished_jobs: s.finished,
      failed_jobs: s.failed,
      scheduled_jobs: s.scheduled,
      workers: s.workers,
    },
  ];
}

export async function listWorkers(rc: RequestContext) {
  const res = await sql<{
    name: string;
    hostname: string;
    pid: number;
    queues: string[];
    started: string;
    heartbeat: string;
    succeeded: number;
    failed: number;
    busy: boolean;
    current: number | null;
  }>`
    select w.*, (select min(d.id) from core_delivery d where d.worker = w.name and d.status = 'running') as current,
      exists (select 1 from core_delivery d where d.worker = w.name and d.status = 'running') as busy
    from core_worker w order by w.started`.execute(rc.q);
  return res.rows.map((w) => ({
    name: w.name,
    hostname: w.hostname,
    pid: w.pid,
    state: w.busy ? 'busy' : 'idle',
    birth_date: w.started,
    last_heartbeat: w.heartbeat,
    queue_names: w.queues,
    current_job: w.current === null ? null : String(w.current),
    successful_job_count: w.succeeded,
    failed_job_count: w.failed,
    total_working_time: null,
  }));
}
