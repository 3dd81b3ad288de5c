/**
 * `/core/background-tasks/` (NetBox 4's Admin > System > Background Tasks, for superusers): the
 * queue's deliveries by state (a tab each, with its count) and with their request, response and
 * error log, a CSRF-protected button that sends a failed one again (spec: Delivery 3; States and
 * transitions), and the workers with their heartbeats. The same data as `/api/core/background-*`
 * (core/events/tasks.ts).
 */
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../core/errors.js';
import {
  getTask,
  listTasks,
  listWorkers,
  queueStats,
  requeueTask,
  type Task,
  TASK_STATUSES,
} from '../../core/events/tasks.js';
import { PAGE_SIZES, pager } from '../components/pager.js';
import { html, type Html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { BACKGROUND_TASKS_PATH as BASE } from '../navigation/menu.js';
import { csrfField, pageWithMenu, type PageContext } from '../page-context.js';
import { superusersOnly } from './superusers-only.js';

const CRUMBS = [{ label: 'Home', href: '/' }, { label: 'Admin' }, { label: 'Background tasks', href: BASE }];
const PAGE_SIZE = 50;
/** RQ's states in NetBox's words, with the tones of the interface's badges */
const STATES: Record<string, { label: string; tone: string }> = {
  queued: { label: 'Queued', tone: 'info' },
  scheduled: { label: 'Scheduled', tone: 'neutral' },
  started: { label: 'Running', tone: 'info' },
  finished: { label: 'Succeeded', tone: 'ok' },
  failed: { label: 'Failed', tone: 'bad' },
};

function json(value: unknown): string {
  return value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value, null, 2);
}

function stateBadge(status: string): Html {
  const s = STATES[status] ?? { label: status, tone: 'neutral' };
  return html`<span class="badge tone-${s.tone}">${s.label}</span>`;
}

function time(v: string | null | undefined): Html | string {
  return v
    ? html`<time datetime="${v}">${v
        .replace('T', ' ')
        .replace(/\.\d+/, '')
        .replace(/(Z|\+00:00)$/, '')}</time>`
    : '';
}

function requeueButton(task: Task, page: PageContext): Html {
  if (task.status !== 'failed') return html``;
  return html`<form class="inline" method="post" action="${BASE}${task.id}/requeue/">${csrfField(page)}<button type="submit">Retry</button></form>`;
}

function taskRow(task: Task, page: PageContext): Html {
  return html`<tr>
  <td><a href="${BASE}${task.id}/">${task.id}</a></td><td>${stateBadge(task.status)}</td><td>${task.description}</td>
  <td>${time(task.created_at)}</td><td>${time(task.ended_at)}</td><td>${task.exc_info ?? ''}</td><td>${requeueButton(task, page)}</td>
</tr>`;
}

type Worker = Awaited<ReturnType<typeof listWorkers>>[number];

/** the workers with their heartbeats (NetBox's RQ worker list: name, host, state, birth, heartbeat, counts) */
function workerTable(workers: Worker[]): Html {
  if (!workers.length) return html`<p class="muted">No worker is running: queued tasks wait.</p>`;
  // focusable, so a keyboard can scroll it on a narrow screen (its cells hold no link)
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="Workers"><table class="objects">
<thead><tr><th scope="col">Worker</th><th scope="col">Host</th><th scope="col">PID</th><th scope="col">State</th><th scope="col">Started</th><th scope="col">Last heartbeat</th><th scope="col">Succeeded</th><th scope="col">Failed</th></tr></thead>
<tbody>${workers.map(
    (w) =>
      html`<tr><td>${w.name}</td><td>${w.hostname}</td><td>${String(w.pid)}</td><td><span class="badge tone-${w.state === 'busy' ? 'info' : 'neutral'}">${w.state}</span></td><td>${time(w.birth_date)}</td><td>${time(w.last_heartbeat)}</td><td>${String(w.successful_job_count)}</td><td>${String(w.failed_job_count)}</td></tr>`,
  )}</tbody></table></div>`;
}

export function registerBackgroundTaskPages(app: FastifyInstance): void {
  const guarded = { preHandler: superusersOnly };
  // NetBox 4's menu links its queues page, /core/background-queues/; here the queue heads the tasks
  app.get('/core/background-queues/', (_request, reply) => reply.redirect(BASE, 301));

  app.get<{ Querystring: { status?: string; page?: string; per_page?: string } }>(
    BASE,
    guarded,
    async (request, reply) => {
      const rc = request.rc;
      const status = TASK_STATUSES.includes(request.query.status as never) ? request.query.status : undefined;
      const pageNo = Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1);
      const [queue] = await queueStats(rc);
      const perPage = PAGE_SIZES.includes(Number(request.query.per_page)) ? Number(request.query.per_page) : PAGE_SIZE;
      const tasks = await listTasks(rc, { status, limit: perPage, offset: (pageNo - 1) * perPage });
      const workers = await listWorkers(rc);
      const page = await pageWithMenu(request, reply);
      const counts: Record<string, number> = {
        queued: queue!.jobs,
        scheduled: queue!.scheduled_jobs,
        started: queue!.started_jobs,
        finished: queue!.finished_jobs,
        failed: queue!.failed_jobs,
      };
      const tab = (s: string | undefined, label: string, n?: number) =>
        html`<li><a href="${BASE}${s ? `?status=${s}` : ''}"${s === status ? html` aria-current="page"` : ''}>${label}${n === undefined ? '' : html` <span class="count">${n}</span>`}</a></li>`;
      const body = html`<div class="page-head"><h1>Background tasks <span class="count">${tasks.count}</span></h1></div>
<nav class="tabs" aria-label="Task states"><ul>${tab(undefined, 'All')}${TASK_STATUSES.map((s) => tab(s, STATES[s]!.label, counts[s]))}</ul></nav>
<section class="panel"><h2>Queue ${queue!.name}</h2>
<div class="table-wrap" tabindex="0" role="region" aria-label="Tasks"><table class="objects">
  <thead><tr><th scope="col">Task</th><th scope="col">Status</th><th scope="col">Description</th><th scope="col">Created</th><th scope="col">Ended</th><th scope="col">Error</th><th scope="col"><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>${tasks.results.length ? tasks.results.map((t) => taskRow(t, page)) : html`<tr><td colspan="7" class="muted">None.</td></tr>`}</tbody>
</table></div>
${pager(tasks.count, pageNo, perPage, (p) => `${BASE}?${new URLSearchParams({ ...(status ? { status } : {}), per_page: String(perPage), ...p }).toString()}`)}
</section>
<section class="panel"><h2>Workers</h2>${workerTable(workers)}</section>
`;
      return sendPage(
        reply,
        renderPage({
          title: 'Background tasks',
          ...page,
          crumbs: [CRUMBS[0]!, CRUMBS[1]!, { label: 'Background tasks' }],
          body,
          mainClass: 'wide',
        }),
      );
    },
  );

  app.get<{ Params: { id: string } }>(`${BASE}:id/`, guarded, async (request, reply) => {
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : 0;
    const page = await pageWithMenu(request, reply);
    let task: Task;
    try {
      task = await getTask(request.rc, id);
    } catch (err) {
      if (err instanceof ApiError && err.statusCode === 404)
        return sendPage(
          reply,
          renderPage({
            title: 'Not found',
            ...page,
            crumbs: CRUMBS,
            body: html`<h1>Not found</h1><p>No such task.</p>`,
          }),
          404,
        );
      throw err;
    }
    const body = html`<div class="page-head"><h1>Task ${task.id} ${stateBadge(task.status)}</h1><div class="actions">${requeueButton(task, page)}</div></div>
<section class="panel"><table class="attrs">
  <tr><th scope="row">Description</th><td>${task.description}</td></tr>
  <tr><th scope="row">Queue</th><td>${task.origin}</td></tr>
  <tr><th scope="row">Created</th><td>${time(task.created_at)}</td></tr>
  <tr><th scope="row">Started</th><td>${time(task.started_at)}</td></tr>
  <tr><th scope="row">Ended</th><td>${time(task.ended_at)}</td></tr>
  <tr><th scope="row">Worker</th><td>${task.worker_name ?? ''}</td></tr>
  <tr><th scope="row">Attempts</th><td>${task.meta.attempts}</td></tr>
  <tr><th scope="row">Error</th><td>${task.exc_info ?? ''}</td></tr>
</table></section>
<h2>Request</h2><pre class="json" tabindex="0">${json(task.meta.request)}</pre>
<h2>Response</h2><pre class="json" tabindex="0">${task.meta.response_status ? `HTTP ${task.meta.response_status}\n\n` : ''}${json(task.result?.body ?? '')}</pre>`;
    return sendPage(
      reply,
      renderPage({
        title: `Task ${task.id}`,
        ...page,
        crumbs: [...CRUMBS, { label: task.id }],
        body,
        mainClass: 'wide',
      }),
    );
  });

  app.post<{ Params: { id: string } }>(`${BASE}:id/requeue/`, guarded, async (request, reply) => {
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : 0;
    try {
      await requeueTask(request.rc, id);
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode >= 500) throw err;
    }
    return reply.redirect(`${BASE}${id}/`, 303);
  });
}
