/**
 * `/core/system/` (NetBox 4's System page, superusers only): the release, the runtime, the database
 * (engine, server version, size, migrations), the background workers, how many objects each model
 * has, and the configuration with its secrets hidden; `?export=json` returns all of it as a JSON
 * file for a support request (NetBox's System view has the same Export). The data comes from
 * core/system/system-info.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { listWorkers } from '../../core/events/tasks.js';
import { systemInfo } from '../../core/system/system-info.js';
import { html } from '../html.js';
import { capitalize } from '../labels.js';
import { renderPage, sendPage } from '../layout.js';
import { hasPages } from '../model-pages/index.js';
import { BACKGROUND_TASKS_PATH, listPath, SYSTEM_PATH } from '../navigation/menu.js';
import { pageWithMenu } from '../page-context.js';
import { superusersOnly } from './superusers-only.js';

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toLocaleString('en', { maximumFractionDigits: 1 })} MB`;
}

export function registerSystemPage(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Querystring: { export?: string } }>(SYSTEM_PATH, { preHandler: superusersOnly }, async (request, reply) => {
    const info = await systemInfo(ctx);
    const workers = await listWorkers(request.rc);
    if (request.query.export === 'json')
      return reply
        .type('application/json; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename="netinventory-system.json"')
        .header('Cache-Control', 'no-store')
        .send(JSON.stringify({ ...info, workers: workers.map((w) => ({ name: w.name, state: w.state })) }, null, 2));
    const db = info.database;
    const engine =
      db.engine === 'pglite'
        ? `PGlite ${db.engineVersion ?? ''} (PostgreSQL ${db.serverVersion})`
        : `PostgreSQL ${db.serverVersion}`;
    const latest = info.migrations.applied.at(-1);
    const counted = Object.entries(info.objectCounts).filter(([, n]) => n > 0);
    const body = html`<div class="page-head"><h1>System</h1>
  <div class="actions"><a class="button" href="${SYSTEM_PATH}?export=json" download>Export</a></div></div>
<div class="object-grid">
  <div class="col">
    <section class="panel"><h2>Release</h2><table class="attrs">
      <tr><th scope="row">Version</th><td>${info.version ?? 'unknown'}</td></tr>
      <tr><th scope="row">Node.js</th><td>${info.node}</td></tr>
    </table></section>
    <section class="panel"><h2>Database</h2><table class="attrs">
      <tr><th scope="row">Engine</th><td>${engine}</td></tr>
      <tr><th scope="row">Size</th><td>${megabytes(db.sizeBytes)}</td></tr>
      <tr><th scope="row">Migrations applied</th><td>${info.migrations.applied.length}${latest ? html` <span class="muted">(latest ${latest.name}, ${latest.applied_at})</span>` : ''}</td></tr>
      <tr><th scope="row">Migrations pending</th><td>${info.migrations.pending.length ? html`<span class="badge tone-warn">${info.migrations.pending.join(', ')}</span>` : 'None'}</td></tr>
    </table></section>
    <section class="panel"><h2>Background workers</h2>
      <p>${workers.length ? workers.map((w, i) => html`${i ? ', ' : ''}${w.name} (${w.state})`) : 'None running'} · <a href="${BACKGROUND_TASKS_PATH}">Background tasks</a></p>
    </section>
    <section class="panel"><h2>Configuration</h2><pre class="json" tabindex="0">${JSON.stringify(info.config, null, 2)}</pre></section>
  </div>
  <div class="col">
    <section class="panel"><h2>Object counts</h2><table class="attrs">${counted.map(([name, n]) => {
      const model = ctx.registry.get(name);
      const label = capitalize(model.verboseNamePlural);
      return html`<tr><th scope="row">${hasPages(model) ? html`<a href="${listPath(model)}">${label}</a>` : label} <span class="muted">${name}</span></th><td>${n.toLocaleString('en')}</td></tr>`;
    })}</table><p class="muted">${Object.keys(info.objectCounts).length - counted.length} models have no objects.</p></section>
  </div>
</div>`;
    const page = await pageWithMenu(request, reply);
    return sendPage(
      reply,
      renderPage({ ...page, title: 'System', crumbs: [{ label: 'Home', href: '/' }, { label: 'System' }], body }),
    );
  });
}
