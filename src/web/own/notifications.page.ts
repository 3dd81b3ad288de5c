/**
 * `/user/notifications/` (NetBox 4.1's account page): the signed-in user's own notifications,
 * unread first and marked. Opening one marks it read and goes to its object, or shows what is
 * known of it when the object is gone (a deletion's notification); dismissing deletes it; "Mark
 * all read" and "Dismiss all" act on all of the user's own. NetBox 4.1 also marks one read on a
 * GET of its link (NotificationReadView), which keeps the bell's links plain links.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { cell, type Represented } from '../components/cells.js';
import { html } from '../html.js';
import type { Crumb } from '../layout.js';
import { deleteFromPage, updateManyFromPage } from '../model-pages/page-writes.js';
import { objectPath, sendErrorPage, sendModelPage } from '../model-pages/page-shell.js';
import { csrfField, pageContext } from '../page-context.js';
import { objectLink } from './marks.page.js';
import { formIds, idParam, ownContext, ownIds, ownRows, signedIn } from './own-rows.js';

const PATH = '/user/notifications/';
const PER_PAGE = 100;
const CRUMBS: Crumb[] = [
  { label: 'Home', href: '/' },
  { label: 'Notifications', href: PATH },
];

/** a choice as represented ({value, label}) or plain */
function eventLabel(v: unknown): string {
  if (v && typeof v === 'object' && 'label' in v) return String((v as { label: unknown }).label);
  return String(v ?? '');
}

async function listPage(request: FastifyRequest, reply: FastifyReply, ctx: AppContext, model: ModelDef) {
  const rc = request.rc;
  const offset = Math.max(0, Number((request.query as Record<string, string>).offset) || 0);
  // PostgreSQL sorts nulls first when descending: the unread (no read time) lead, newest first
  const list = await ownRows(rc, model, [
    ['ordering', '-read'],
    ['ordering', '-created'],
    ['limit', String(PER_PAGE)],
    ['offset', String(offset)],
  ]);
  const page = pageContext(request, reply);
  const rows = list.results.map((n: Represented) => {
    const unread = !n.read;
    const label = String(n.display ?? n.object_id);
    const { type } = objectLink(ctx, n.object_type, n.object_id, label);
    return html`<tr class="${unread ? 'unread' : ''}">
  <td><input type="checkbox" name="pk" value="${String(n.id)}" aria-label="Select ${label}"></td>
  <td><a href="${PATH}${String(n.id)}/">${label}</a>${unread ? html` <span class="badge tone-info">Unread</span>` : ''}</td>
  <td>${type}</td><td>${eventLabel(n.event_type)}</td><td>${cell('created', n.created)}</td>
  <td><button class="danger" type="submit" formaction="${PATH}${String(n.id)}/dismiss/">Dismiss</button></td>
</tr>`;
  });
  const more =
    offset + PER_PAGE < list.count || offset > 0
      ? html`<nav class="pager" aria-label="Pages">${offset > 0 ? html`<a href="${PATH}?offset=${String(Math.max(0, offset - PER_PAGE))}">Previous</a> ` : ''}${offset + PER_PAGE < list.count ? html`<a href="${PATH}?offset=${String(offset + PER_PAGE)}">Next</a>` : ''}</nav>`
      : '';
  const body = html`<div class="page-head"><h1>Notifications <span class="count">${String(list.count)}</span></h1>
${
  rows.length
    ? html`<div class="actions">
  <form class="inline" method="post" action="${PATH}read-all/">${csrfField(page)}<button type="submit">Mark all read</button></form>
  <form class="inline" method="post" action="${PATH}dismiss-all/">${csrfField(page)}<button class="danger" type="submit" data-confirm="Dismiss all your notifications?">Dismiss all</button></form>
</div>`
    : ''
}</div>
${
  rows.length
    ? html`<form method="post" action="${PATH}delete/">${csrfField(page)}
<div class="panel"><table>
  <caption class="sr-only">Your notifications, unread first</caption>
  <thead><tr><th><span class="sr-only">Select</span></th><th>Object</th><th>Type</th><th>Event</th><th>Created</th><th><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>
<div class="actions"><button class="danger" type="submit">Dismiss selected</button></div>
</form>${more}`
    : html`<p class="empty">No notifications. Subscribe to an object (its page’s Subscribe button) to hear of its changes.</p>`
}`;
  return sendModelPage(request, reply, {
    title: 'Notifications',
    crumbs: [CRUMBS[0]!, { label: 'Notifications' }],
    body,
  });
}

/** the user's own notification of this id, represented; another user's is not found */
async function ownNotification(request: FastifyRequest, model: ModelDef): Promise<Represented> {
  const id = idParam((request.params as { id: string }).id);
  const list = id === null ? null : await ownRows(request.rc, model, [['id', String(id)]]);
  const n = list?.results[0];
  if (!n) throw Errors.notFound();
  return n;
}

export function registerNotificationPages(app: FastifyInstance, ctx: AppContext): void {
  const model = ctx.registry.find('extras.notification');
  if (!model) return;
  const now = () => new Date().toISOString();

  app.get(PATH, signedIn, (request, reply) => listPage(request, reply, ctx, model));

  // open: mark read, then the object's page; a deleted object's notification is shown here
  app.get<{ Params: { id: string } }>(`${PATH}:id/`, signedIn, async (request, reply) => {
    try {
      const n = await ownNotification(request, model);
      if (!n.read) await updateManyFromPage(ownContext(request.rc, model), model, [{ id: Number(n.id), read: now() }]);
      const target = ctx.registry.find(String(n.object_type));
      const exists = target ? (await fetchRowsById(request.rc, target, [Number(n.object_id)])).length > 0 : false;
      if (target && exists) return reply.redirect(objectPath(target, n.object_id), 303);
      const label = String(n.display ?? n.object_id);
      const page = pageContext(request, reply);
      const { type } = objectLink(ctx, n.object_type, n.object_id, label);
      const body = html`<h1>${label}</h1>
<div class="panel"><table>
  <tr><th scope="row">Type</th><td>${type}</td></tr>
  <tr><th scope="row">Event</th><td>${eventLabel(n.event_type)}</td></tr>
  <tr><th scope="row">Created</th><td>${cell('created', n.created)}</td></tr>
</table>
<p class="muted">This object no longer exists.</p></div>
<form method="post" action="${PATH}${String(n.id)}/dismiss/">${csrfField(page)}<button class="danger" type="submit">Dismiss</button></form>`;
      return sendModelPage(request, reply, { title: label, crumbs: [...CRUMBS, { label }], body });
    } catch (err) {
      return sendErrorPage(request, reply, err, CRUMBS);
    }
  });

  app.post<{ Params: { id: string } }>(`${PATH}:id/dismiss/`, signedIn, async (request, reply) => {
    try {
      const n = await ownNotification(request, model);
      await deleteFromPage(ownContext(request.rc, model), model, [Number(n.id)]);
      return reply.redirect(PATH, 303);
    } catch (err) {
      return sendErrorPage(request, reply, err, CRUMBS);
    }
  });

  app.post(`${PATH}delete/`, signedIn, async (request, reply) => {
    try {
      const rc = ownContext(request.rc, model);
      const ids = await ownIds(rc, model, formIds(request));
      if (ids.length) await deleteFromPage(rc, model, ids);
      return reply.redirect(PATH, 303);
    } catch (err) {
      return sendErrorPage(request, reply, err, CRUMBS);
    }
  });

  app.post(`${PATH}read-all/`, signedIn, async (request, reply) => {
    try {
      const rc = ownContext(request.rc, model);
      const unread = await ownRows(rc, model, [
        ['limit', '0'],
        ['brief', '1'],
      ]);
      const read = now();
      const items = unread.results.filter((n) => !n.read).map((n) => ({ id: Number(n.id), read }));
      if (items.length) await updateManyFromPage(rc, model, items);
      return reply.redirect(PATH, 303);
    } catch (err) {
      return sendErrorPage(request, reply, err, CRUMBS);
    }
  });

  app.post(`${PATH}dismiss-all/`, signedIn, async (request, reply) => {
    try {
      const rc = ownContext(request.rc, model);
      const all = await ownRows(rc, model, [
        ['limit', '0'],
        ['brief', '1'],
      ]);
      const ids = all.results.map((n) => Number(n.id));
      if (ids.length) await deleteFromPage(rc, model, ids);
      return reply.redirect(PATH, 303);
    } catch (err) {
      return sendErrorPage(request, reply, err, CRUMBS);
    }
  });
}
