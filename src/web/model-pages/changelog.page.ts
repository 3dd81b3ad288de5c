/**
 * An object's Changelog tab (`<id>/changelog/`): its change records, newest first, as the REST list
 * of object changes reads them (the user must be allowed to view them), each with its time, user,
 * action and request id, and what changed field by field (before and after).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import type { ModelDef } from '../../core/model/types.js';
import { cell, dash, objectHref, type Represented } from '../components/cells.js';
import { pager } from '../components/pager.js';
import { html, type Html } from '../html.js';
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
    const relatedList = `/extras/object-changes/?related_object_type=${model.name}&related_object_id=${Number(obj.id)}`;
    const path = `${objectPath(model, obj.id)}changelog/`;
    const rows = list.results as Represented[];
    const body = html`${await objectHead(rc, model, obj, 'changelog', pageContext(request, reply).csrfToken)}
<h2 class="sr-only">Changelog</h2>
${rows.length ? html`<ol class="changes">${rows.map((c) => change(c))}</ol>` : html`<p class="empty">No changes recorded.</p>`}
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
<ol class="changes">${(related.results as Represented[]).map((c) => change(c, true))}</ol>
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

function change(c: Represented, named = false): Html {
  const pre = (c.prechange_data ?? null) as Represented | null;
  const post = (c.postchange_data ?? null) as Represented | null;
  const keys = [...new Set([...Object.keys(pre ?? {}), ...Object.keys(post ?? {})])].filter(
    (k) => k !== 'last_updated' && JSON.stringify(pre?.[k]) !== JSON.stringify(post?.[k]),
  );
  return html`<li class="panel change">
  <p class="change-head">${cell('action', c.action)}${named ? html` ${changedObject(c)}` : ''} ${cell('time', c.time)} by <strong>${String(c.user_name || 'unknown')}</strong> <span class="muted">request <code>${String(c.request_id ?? '')}</code></span></p>
  ${
    keys.length
      ? html`<table class="diff"><thead><tr><th scope="col">Field</th><th scope="col">Before</th><th scope="col">After</th></tr></thead><tbody>${keys.map(
          (k) =>
            html`<tr><th scope="row">${k}</th><td class="before">${shown(pre, k)}</td><td class="after">${shown(post, k)}</td></tr>`,
        )}</tbody></table>`
      : html`<p class="muted">No field changed.</p>`
  }
</li>`;
}

/** the changed object's name, linked to its page while it exists */
function changedObject(c: Represented): Html {
  const href = objectHref((c.changed_object as Represented | null)?.url);
  return href ? html`<a href="${href}">${String(c.object_repr)}</a>` : html`<strong>${String(c.object_repr)}</strong>`;
}

function shown(data: Represented | null, key: string) {
  if (!data || !(key in data)) return dash();
  const v = data[key];
  if (v === null || v === '') return dash();
  return typeof v === 'object' ? html`<code>${JSON.stringify(v)}</code>` : String(v);
}
