/**
 * `/core/background-tasks/` (NetBox 4's administrative background-task view, for superusers):
 * the queue's counts, then its deliveries by state with their request, response and error log,
 * and a CSRF-protected button that sends a failed one again (spec: Delivery 3; States and
 * transitions). The same data as `/api/core/background-*` (core/events/tasks.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import { signInUrl } from '../../http/request-context.js';
import { html, type Html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { csrfField, pageWithMenu, type PageContext } from '../page-context.js';

const BASE = '/core/background-tasks/';
const CRUMBS = [
  { label: 'Home', href: '/' },
  { label: 'Background tasks', href: BASE },
];
const PAGE_SIZE = 50;

async function superusersOnly(request: FastifyRequest, reply: FastifyReply) {
  if (!request.rc.user) return reply.redirect(signInUrl(request.url), 302);
  if (!request.rc.user.is_superuser) {
    const page = await pageWithMenu(request, reply);
    return sendPage(
      reply,
      renderPage({
        title: 'Forbidden',
        ...page,
        body: html`<h1>Forbidden</h1><p>Only superusers may see background tasks.</p>`,
      }),
      403,
    );
  }
}

function json(value: unknown): string {
  return value === null || value === undefined
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value, null, 2);
}

function requeueButton(task: Task, page: PageContext): Html {
  if (task.status !== 'failed') return html``;
  return html`<form class="inline" method="post" action="${BASE}${task.id}/requeue/">${csrfField(page)}<button type="submit">Retry</button></form>`;
}

function taskRow(task: Task, page: PageContext): Html {
  return html`<tr>
  <td><a href="${BASE}${task.id}/">${task.id}</a></td><td>${task.status}</td><td>${task.description}</td>
  <td>${task.created_at}</td><td>${task.ended_at ?? ''}</td><td>${task.exc_info ?? ''}</td><td>${requeueButton(task, page)}</td>
</tr>`;
}

export function registerBackgroundTaskPages(app: FastifyInstance): void {
  const guarded = { preHandler: superusersOnly };

  app.get<{ Querystring: { status?: string; page?: string } }>(BASE, guarded, async (request, reply) => {
    const rc = request.rc;
    const status = TASK_STATUSES.includes(request.query.status as never) ? request.query.status : undefined;
    const pageNo = Math.max(1, Number.parseInt(request.query.page ?? '1', 10) || 1);
    const [queue] = await queueStats(rc);
    const tasks = await listTasks(rc, { status, limit: PAGE_SIZE, offset: (pageNo - 1) * PAGE_SIZE });
    const workers = await listWorkers(rc);
    const page = await pageWithMenu(request, reply);
    const tab = (s: string | undefined, label: string, n?: number) =>
      s === status
        ? html`<strong>${label}${n === undefined ? '' : ` (${n})`}</strong>`
        : html`<a href="${BASE}${s ? `?status=${s}` : ''}">${label}${n === undefined ? '' : ` (${n})`}</a>`;
    const body = html`<h1>Background tasks</h1>
<div class="panel">
  <h2>Queue "${queue!.name}"</h2>
  <p>${tab(undefined, 'All')} · ${tab('queued', 'Queued', queue!.jobs)} · ${tab('scheduled', 'Scheduled', queue!.scheduled_jobs)} · ${tab('started', 'Running', queue!.started_jobs)} · ${tab('finished', 'Succeeded', queue!.finished_jobs)} · ${tab('failed', 'Failed', queue!.failed_jobs)}</p>
  <p class="muted">${workers.length} worker${workers.length === 1 ? '' : 's'} alive${workers.length ? `: ${workers.map((w) => `${w.name} (${w.state})`).join(', ')}` : ''}</p>
</div>
<div class="panel"><table>
  <thead><tr><th>Task</th><th>Status</th><th>Description</th><th>Created</th><th>Ended</th><th>Error</th><th></th></tr></thead>
  <tbody>${tasks.results.length ? tasks.results.map((t) => taskRow(t, page)) : html`<tr><td colspan="7" class="muted">None.</td></tr>`}</tbody>
</table>
<p>${pageNo > 1 ? html`<a href="${BASE}?${status ? `status=${status}&` : ''}page=${pageNo - 1}">Previous</a> ` : ''}${pageNo * PAGE_SIZE < tasks.count ? html`<a href="${BASE}?${status ? `status=${status}&` : ''}page=${pageNo + 1}">Next</a>` : ''}</p>
</div>`;
    return sendPage(
      reply,
      renderPage({
        title: 'Background tasks',
        ...page,
        crumbs: [CRUMBS[0]!, { label: 'Background tasks' }],
        body,
        mainClass: 'wide',
      }),
    );
  });

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
          renderPage({ title: 'Not found', ...page, crumbs: CRUMBS, body: html`<h1>No such task</h1>` }),
          404,
        );
      throw err;
    }
    const body = html`<h1>Task ${task.id}: ${task.status}</h1>
<div class="panel"><table>
  <tr><th>Description</th><td>${task.description}</td></tr>
  <tr><th>Created</th><td>${task.created_at}</td></tr>
  <tr><th>Started</th><td>${task.started_at ?? ''}</td></tr>
  <tr><th>Ended</th><td>${task.ended_at ?? ''}</td></tr>
  <tr><th>Worker</th><td>${task.worker_name ?? ''}</td></tr>
  <tr><th>Attempts</th><td>${task.meta.attempts}</td></tr>
  <tr><th>Error</th><td>${task.exc_info ?? ''}</td></tr>
</table>${requeueButton(task, page)}</div>
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
