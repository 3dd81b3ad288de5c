/**
 * An object's Changelog tab (`<id>/changelog/`): its change records, newest first, as the REST list
 * of object changes reads them (the user must be allowed to view them), each with its time, user,
 * action and request id (each linking to the change's own page), and what changed field by field.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import { cell, objectHref, type Represented } from '../components/cells.js';
import { diffTable, fieldChanges } from '../components/change-diff.js';
import { pager } from '../components/pager.js';
import { html, type Html } from '../html.js';
import { listPath } from '../navigation/menu.js';
import { pageContext } from '../page-context.js';
import { readObject } from './object.page.js';
import { objectHead } from './object-head.js';
import { hrefOf, modelCrumbs, objectPath, queryOf, sendErrorPage, sendModelPage } from './page-shell.js';

const PER_PAGE = 25;

export async function changelogPage(
  ctx: AppContext,
  model: ModelDef,
  request: FastifyRequest<{ Params: { id: string } }>,
  reply: FastifyReply,
) {
  const rc = request.rc;
  const crumbs = modelCrumbs(model);
  try {
    const obj = await readObject(request, model, request.params.id);
    const changes = ctx.registry.get('extras.objectchange');
    const query = queryOf(request);
    const pageNo = Math.max(1, Math.floor(Number(query.get('page')?.[0]) || 1));
    const list = await listObjects(
      rc,
      changes,
      new Map([
        ['changed_object_type', [model.name]],
        ['changed_object_id', [String(obj.id)]],
        ['limit', [String(PER_PAGE)]],
        ['offset', [String((pageNo - 1) * PER_PAGE)]],
      ]),
    );
    // changes of the objects it holds (a device's interfaces), as NetBox's tab shows them too: the
    // latest here, all of them in the change log's list filtered by this object
    const related = await listObjects(
      rc,
      changes,
      new Map([
        ['related_object_type', [model.name]],
        ['related_object_id', [String(obj.id)]],
        ['limit', [String(PER_PAGE)]],
      ]),
    );
    const relatedList = `${listPath(changes)}?related_object_type=${model.name}&related_object_id=${Number(obj.id)}`;
    const path = `${objectPath(model, obj.id)}changelog/`;
    const rows = list.results as Represented[];
    const body = html`${await objectHead(rc, model, obj, 'changelog', pageContext(request, reply).csrfToken)}
<h2 class="sr-only">Changelog</h2>
${rows.length ? html`<ol class="changes">${rows.map((c) => change(c, changes))}</ol>` : html`<p class="empty">No changes recorded.</p>`}
${
  list.count > PER_PAGE
    ? pager(list.count, pageNo, PER_PAGE, (p) =>
        hrefOf(
          path,
          new Map(
            Object.entries(p)
              .filter(([k]) => k === 'page')
              .map(([k, v]) => [k, [v]]),
          ),
        ),
      )
    : ''
}
${
  related.count
    ? html`<h2>Changes of related objects <span class="count">${related.count}</span></h2>
<ol class="changes">${(related.results as Represented[]).map((c) => change(c, changes, true))}</ol>
${related.count > PER_PAGE ? html`<p><a href="${relatedList}">All ${related.count} changes of related objects</a></p>` : ''}`
    : ''
}`;
    return sendModelPage(request, reply, {
      title: `${String(obj.display)}: changelog`,
      crumbs: [...crumbs, { label: String(obj.display), href: objectPath(model, obj.id) }, { label: 'Changelog' }],
      body,
    });
  } catch (err) {
    return sendErrorPage(request, reply, err, crumbs);
  }
}

function change(c: Represented, changes: ModelDef, named = false): Html {
  const action = String((c.action as Represented | null)?.value ?? '');
  const diff = fieldChanges(
    (c.prechange_data ?? null) as Represented | null,
    (c.postchange_data ?? null) as Represented | null,
    action,
  );
  return html`<li class="panel change">
  <p class="change-head">${cell('action', c.action)}${named ? html` ${changedObject(c)}` : ''} <a href="${objectPath(changes, c.id)}">${cell('time', c.time)}</a> by <strong>${String(c.user_name || 'unknown')}</strong> <span class="muted">request <code>${String(c.request_id ?? '')}</code></span></p>
  ${diffTable(diff, action)}
</li>`;
}

/** the changed object's name, linked to its page while it exists */
function changedObject(c: Represented): Html {
  const href = objectHref((c.changed_object as Represented | null)?.url);
  return href ? html`<a href="${href}">${String(c.object_repr)}</a>` : html`<strong>${String(c.object_repr)}</strong>`;
}
