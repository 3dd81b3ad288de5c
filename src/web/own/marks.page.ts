/**
 * `/user/bookmarks/` and `/user/subscriptions/` (NetBox 4.1's account pages): the signed-in user's
 * own, as a table of object, type and creation time, deleted one at a time or in bulk; and the
 * object page's Bookmark / Subscribe buttons (mark-buttons.ts) post here and come back. Writes go
 * through the REST API's write path (page-writes.ts), so permissions and validation are its own.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { cell, type Represented } from '../components/cells.js';
import { html } from '../html.js';
import { capitalize } from '../labels.js';
import type { Crumb } from '../layout.js';
import { createFromPage, deleteFromPage } from '../model-pages/page-writes.js';
import { objectPath, sendErrorPage, sendModelPage } from '../model-pages/page-shell.js';
import { csrfField, pageContext, safeNext } from '../page-context.js';
import { markable } from './mark-buttons.js';
import { formIds, idParam, ownContext, ownIds, ownRows, signedIn } from './own-rows.js';

const PER_PAGE = 100;

interface MarkKind {
  model: string;
  path: string;
  title: string;
  empty: string;
}

const KINDS: MarkKind[] = [
  { model: 'extras.bookmark', path: '/user/bookmarks/', title: 'Bookmarks', empty: 'No bookmarks yet.' },
  {
    model: 'extras.subscription',
    path: '/user/subscriptions/',
    title: 'Subscriptions',
    empty: 'No subscriptions yet: an object page’s Subscribe button notifies you of its changes.',
  },
];

/** an object a mark names: its type's model and its page, when the type is still known */
export function objectLink(ctx: AppContext, type: unknown, id: unknown, label: string) {
  const m = ctx.registry.find(String(type));
  return {
    type: m ? capitalize(m.verboseName) : String(type),
    link: m ? html`<a href="${objectPath(m, id)}">${label}</a>` : html`${label}`,
  };
}

async function listPage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  kind: MarkKind,
  model: ModelDef,
) {
  const rc = request.rc;
  const crumbs: Crumb[] = [{ label: 'Home', href: '/' }, { label: kind.title }];
  const offset = Math.max(0, Number((request.query as Record<string, string>).offset) || 0);
  const list = await ownRows(rc, model, [
    ['limit', String(PER_PAGE)],
    ['offset', String(offset)],
  ]);
  const page = pageContext(request, reply);
  const rows = list.results.map((r: Represented) => {
    const { type, link } = objectLink(ctx, r.object_type, r.object_id, String(r.display ?? r.object_id));
    return html`<tr>
  <td><input type="checkbox" name="pk" value="${String(r.id)}" aria-label="Select ${String(r.display ?? r.id)}"></td>
  <td>${link}</td><td>${type}</td><td>${cell('created', r.created)}</td>
  <td><button class="danger" type="submit" formaction="${kind.path}${String(r.id)}/delete/">Delete</button></td>
</tr>`;
  });
  const more =
    offset + PER_PAGE < list.count || offset > 0
      ? html`<nav class="pager" aria-label="Pages">${offset > 0 ? html`<a href="${kind.path}?offset=${String(Math.max(0, offset - PER_PAGE))}">Previous</a> ` : ''}${offset + PER_PAGE < list.count ? html`<a href="${kind.path}?offset=${String(offset + PER_PAGE)}">Next</a>` : ''}</nav>`
      : '';
  const body = html`<h1>${kind.title} <span class="count">${String(list.count)}</span></h1>
${
  rows.length
    ? html`<form method="post" action="${kind.path}delete/">${csrfField(page)}
<div class="panel"><table>
  <caption class="sr-only">Your ${kind.title.toLowerCase()}</caption>
  <thead><tr><th><span class="sr-only">Select</span></th><th>Object</th><th>Type</th><th>Created</th><th><span class="sr-only">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>
<div class="actions"><button class="danger" type="submit" data-confirm="Delete the selected ${kind.title.toLowerCase()}?">Delete selected</button></div>
</form>${more}`
    : html`<p class="empty">${kind.empty}</p>`
}`;
  return sendModelPage(request, reply, { title: kind.title, crumbs, body });
}

/** the object a button names, when it may be marked: else a 400 */
function markedObject(ctx: AppContext, request: FastifyRequest): { type: string; id: number } {
  const f = request.formFields ?? {};
  const m = ctx.registry.find(String(f.object_type ?? ''));
  const id = idParam(String(f.object_id ?? ''));
  if (!m || !markable(m) || id === null) throw Errors.badRequest('No such object to mark.');
  return { type: m.name, id };
}

export function registerMarkPages(app: FastifyInstance, ctx: AppContext): void {
  for (const kind of KINDS) {
    const model = ctx.registry.find(kind.model);
    if (!model) continue;
    const crumbs: Crumb[] = [
      { label: 'Home', href: '/' },
      { label: kind.title, href: kind.path },
    ];

    app.get(kind.path, signedIn, (request, reply) => listPage(request, reply, ctx, kind, model));

    /** the object a button names, and the user's own marks of it (none, or one) */
    const marksOf = async (request: FastifyRequest) => {
      const { type, id } = markedObject(ctx, request);
      const rc = ownContext(request.rc, model);
      const have = await ownRows(rc, model, [
        ['object_type', type],
        ['object_id', String(id)],
      ]);
      return { type, id, rc, have };
    };

    // the object page's button: mark it (again is no error) and go back
    app.post(`${kind.path}add/`, signedIn, async (request, reply) => {
      try {
        const { type, id, rc, have } = await marksOf(request);
        if (have.count === 0) await createFromPage(rc, model, { object_type: type, object_id: id, user: rc.user!.id });
        return reply.redirect(safeNext(request.formFields?.next), 303);
      } catch (err) {
        return sendErrorPage(request, reply, err, crumbs);
      }
    });

    app.post(`${kind.path}remove/`, signedIn, async (request, reply) => {
      try {
        const { rc, have } = await marksOf(request);
        const ids = have.results.map((r) => Number(r.id));
        if (ids.length) await deleteFromPage(rc, model, ids);
        return reply.redirect(safeNext(request.formFields?.next), 303);
      } catch (err) {
        return sendErrorPage(request, reply, err, crumbs);
      }
    });

    // bulk: the checked rows that are the user's own
    app.post(`${kind.path}delete/`, signedIn, async (request, reply) => {
      try {
        const rc = ownContext(request.rc, model);
        const ids = await ownIds(rc, model, formIds(request));
        if (ids.length) await deleteFromPage(rc, model, ids);
        return reply.redirect(kind.path, 303);
      } catch (err) {
        return sendErrorPage(request, reply, err, crumbs);
      }
    });

    app.post<{ Params: { id: string } }>(`${kind.path}:id/delete/`, signedIn, async (request, reply) => {
      try {
        const rc = ownContext(request.rc, model);
        const id = idParam(request.params.id);
        const ids = id === null ? [] : await ownIds(rc, model, [id]);
        // another user's is as absent as one that never was
        if (!ids.length) throw Errors.notFound();
        await deleteFromPage(rc, model, ids);
        return reply.redirect(kind.path, 303);
      } catch (err) {
        return sendErrorPage(request, reply, err, crumbs);
      }
    });
  }
}
