/**
 * An object's Journal tab (`<id>/journal/`): its journal entries, newest first, each with its kind
 * and its Markdown text, and a form adding one (posted to the same path, written as
 * `POST /api/extras/journal-entries/` writes it: permission, validation, change record).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hasPermission } from '../../core/auth/permissions.js';
import type { AppContext } from '../../core/context.js';
import { listObjects } from '../../core/crud/read.js';
import { ApiError } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { cell, type Represented } from '../components/cells.js';
import { markdown } from '../components/markdown.js';
import { attrs, html } from '../html.js';
import { csrfField, pageContext } from '../page-context.js';
import { readObject } from './object.page.js';
import { objectHead } from './object-head.js';
import { fieldErrors } from './form-input.js';
import { createFromPage } from './page-writes.js';
import { modelCrumbs, objectPath, sendErrorPage, sendModelPage } from './page-shell.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

export async function journalPage(
  ctx: AppContext,
  model: ModelDef,
  request: IdRequest,
  reply: FastifyReply,
  typed?: { kind: string; comments: string; errors: Record<string, string[]> },
) {
  const rc = request.rc;
  const crumbs = modelCrumbs(model);
  try {
    const obj = await readObject(request, model, request.params.id);
    const journal = ctx.registry.get('extras.journalentry');
    const entries = await listObjects(
      rc,
      journal,
      new Map([
        ['assigned_object_type', [model.name]],
        ['assigned_object_id', [String(obj.id)]],
        ['limit', ['100']],
      ]),
    );
    const mayAdd = await hasPermission(rc, journal, 'add');
    const kinds = journal.fields.kind!.choices!.choices;
    const kind = typed?.kind ?? 'info';
    const err = (k: string) => typed?.errors[k] ?? [];
    const form = mayAdd
      ? html`<form class="panel" method="post" action="${objectPath(model, obj.id)}journal/">
  <h2>New journal entry</h2>
  ${csrfField(pageContext(request, reply))}
  ${err('__all__').length ? html`<div class="alert" role="alert">${err('__all__').map((m) => html`<p>${m}</p>`)}</div>` : ''}
  <div class="field"><label for="journal-kind">Kind</label><select id="journal-kind" name="kind">${kinds.map(
    (c) => html`<option${attrs({ value: String(c.value), selected: String(c.value) === kind })}>${c.label}</option>`,
  )}</select></div>
  <div class="field"><label for="journal-comments">Comments <span class="required" aria-hidden="true">*</span></label>
  <textarea id="journal-comments" name="comments" rows="4" required${attrs({ 'aria-invalid': err('comments').length ? 'true' : null, 'aria-describedby': err('comments').length ? 'journal-comments-error' : null })}>${typed?.comments ?? ''}</textarea>
  ${err('comments').length ? html`<p class="field-error" id="journal-comments-error">${err('comments').join(' ')}</p>` : ''}
  <p class="muted">Markdown is supported.</p></div>
  <button type="submit" class="primary">Add entry</button>
</form>`
      : '';
    const rows = entries.results as Represented[];
    const body = html`${await objectHead(rc, model, obj, 'journal', pageContext(request, reply).csrfToken)}
${form}
<h2>Entries <span class="count">${entries.count}</span></h2>
${
  rows.length
    ? html`<ol class="journal">${rows.map(
        (e) =>
          html`<li class="panel"><p>${cell('kind', e.kind)} ${cell('created', e.created)} <span class="muted">${e.created_by ? cell('created_by', e.created_by) : ''}</span></p><div class="markdown">${markdown(String(e.comments ?? ''))}</div></li>`,
      )}</ol>`
    : html`<p class="empty">No journal entries.</p>`
}`;
    return sendModelPage(request, reply, {
      title: `${String(obj.display)}: journal`,
      crumbs: [...crumbs, { label: String(obj.display), href: objectPath(model, obj.id) }, { label: 'Journal' }],
      body,
      status: typed ? 400 : 200,
    });
  } catch (err) {
    return sendErrorPage(request, reply, err, crumbs);
  }
}

export async function postJournalEntry(ctx: AppContext, model: ModelDef, request: IdRequest, reply: FastifyReply) {
  const form = request.formFields ?? {};
  const typed = { kind: form.kind ?? 'info', comments: form.comments ?? '', errors: {} as Record<string, string[]> };
  try {
    // the object must be one this user may see (else 404, as its page)
    const obj = await readObject(request, model, request.params.id);
    await createFromPage(request.rc, ctx.registry.get('extras.journalentry'), {
      assigned_object_type: model.name,
      assigned_object_id: Number(obj.id),
      kind: typed.kind,
      comments: typed.comments,
    });
    return reply.redirect(`${objectPath(model, obj.id)}journal/`, 303);
  } catch (err) {
    if (!(err instanceof ApiError) || err.statusCode !== 400)
      return sendErrorPage(request, reply, err, modelCrumbs(model));
    typed.errors = fieldErrors(err.body);
    return journalPage(ctx, model, request, reply, typed);
  }
}
