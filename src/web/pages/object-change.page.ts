/**
 * A change's own page, `/core/changelog/<id>/` (NetBox 4's ObjectChangeView): when, who, what and
 * the request that made it, the message the write carried (NetBox 4.4), the difference field by
 * field (components/change-diff.ts), the snapshots before and after, and the other changes of the
 * same request. Read through core as `GET /api/core/object-changes/<id>/` reads it, so a user
 * without `extras.view_objectchange` is refused (403) as NetBox refuses them.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasPermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { parseId } from '../../core/crud/routes.js';
import { getObject, listObjects } from '../../core/crud/read.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { cell, dash, objectHref, type Represented } from '../components/cells.js';
import { diffTable, fieldChanges } from '../components/change-diff.js';
import { panel } from '../components/panels.js';
import { html, type Html } from '../html.js';
import { appLabel, capitalize } from '../labels.js';
import { listPath } from '../navigation/menu.js';
import { modelCrumbs, objectPath, sendErrorPage, sendModelPage } from '../model-pages/page-shell.js';

/** the other changes of a request listed on the page; the list filtered by the request has them all */
const SAME_REQUEST_SHOWN = 50;

export function registerObjectChangePage(app: FastifyInstance, ctx: AppContext): void {
  const changes = ctx.registry.find('extras.objectchange');
  if (!changes) return;
  app.get<{ Params: { id: string } }>(`${listPath(changes)}:id/`, (request, reply) =>
    objectChangePage(changes, request, reply),
  );
}

async function objectChangePage(
  changes: ModelDef,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const rc = request.rc;
  const crumbs = modelCrumbs(changes);
  try {
    if (!(await hasPermission(rc, changes, 'view'))) throw Errors.permissionDenied();
    // NetBox 4.4's shape, which carries the write's `message`
    rc.dialect = '4.4';
    const c = (await getObject(rc, changes, parseId(request.params.id), new Map())) as Represented;
    const requestId = String(c.request_id ?? '');
    const same = await listObjects(
      rc,
      changes,
      new Map([
        ['request_id', [requestId]],
        ['id__n', [String(c.id)]],
        ['limit', [String(SAME_REQUEST_SHOWN)]],
      ]),
    );
    const action = String((c.action as Represented | null)?.value ?? c.action ?? '');
    const pre = (c.prechange_data ?? null) as Represented | null;
    const post = (c.postchange_data ?? null) as Represented | null;
    const title = `${String(c.object_repr)}: ${String((c.action as Represented | null)?.label ?? action).toLowerCase()}`;
    const byRequest = `${listPath(changes)}?request_id=${encodeURIComponent(requestId)}`;
    const body = html`<div class="page-head"><h1>${String(c.object_repr)} ${cell('action', c.action)}</h1></div>
<div class="object-grid">
  <div class="col">
    ${panel(
      'Change',
      html`<table class="attrs">
  <tr><th scope="row">Time</th><td>${cell('time', c.time)}</td></tr>
  <tr><th scope="row">User</th><td>${String(c.user_name || '') || dash()}</td></tr>
  <tr><th scope="row">Action</th><td>${cell('action', c.action)}</td></tr>
  <tr><th scope="row">Object type</th><td>${typeName(rc.app.registry.find(String(c.changed_object_type)))} <span class="muted">${String(c.changed_object_type)}</span></td></tr>
  <tr><th scope="row">Object</th><td>${changedObject(c)}</td></tr>
  <tr><th scope="row">Request ID</th><td><a href="${byRequest}"><code>${requestId}</code></a></td></tr>
  <tr><th scope="row">Message</th><td>${String(c.message ?? '') || dash()}</td></tr>
</table>`,
    )}
    ${panel('Difference', diffTable(fieldChanges(pre, post, action), action))}
  </div>
  <div class="col">
    <section class="panel"><h2>Other changes in this request <span class="count">${same.count.toLocaleString('en')}</span></h2>
    ${sameRequest(changes, same.results as Represented[], same.count, byRequest)}</section>
  </div>
</div>
${snapshot('Pre-change data', pre)}
${snapshot('Post-change data', post)}`;
    return sendModelPage(request, reply, {
      title,
      crumbs: [...crumbs, { label: title }],
      body,
    });
  } catch (err) {
    return sendErrorPage(request, reply, err, crumbs);
  }
}

/** NetBox's name of an object type: "DCIM › Site" (nothing for a model no longer registered) */
function typeName(model: ModelDef | undefined): string {
  return model ? `${appLabel(model.app)} › ${capitalize(model.verboseName)}` : '';
}

/** the changed object's name, linked to its page while it exists */
function changedObject(c: Represented): Html {
  const href = objectHref((c.changed_object as Represented | null)?.url);
  return href ? html`<a href="${href}">${String(c.object_repr)}</a>` : html`${String(c.object_repr)}`;
}

function sameRequest(changes: ModelDef, rows: Represented[], count: number, byRequest: string): Html {
  if (!rows.length) return html`<p class="muted">None.</p>`;
  return html`<ul class="same-request">${rows.map(
    (r) =>
      html`<li>${cell('action', r.action)} <a href="${objectPath(changes, r.id)}">${String(r.changed_object_type)} ${String(r.object_repr)}</a></li>`,
  )}</ul>${count > rows.length ? html`<p><a href="${byRequest}">All ${(count + 1).toLocaleString('en')} changes of this request</a></p>` : ''}`;
}

/** a snapshot whole, keys sorted (the model's represent hook sorts them), in a closed disclosure */
function snapshot(title: string, data: Represented | null): Html {
  return html`<details class="panel snapshot"><summary>${title}</summary>${
    data
      ? html`<pre class="json" tabindex="0">${JSON.stringify(data, null, 2)}</pre>`
      : html`<p class="muted">None.</p>`
  }</details>`;
}
