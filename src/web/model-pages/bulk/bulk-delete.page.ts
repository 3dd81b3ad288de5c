/**
 * Bulk delete (`POST <list>delete/`, NetBox's `_bulk_delete`): the list's selection gets a
 * confirmation page naming the objects, what points at them and what the deletion does to each
 * (deleted too, unset, or protecting), with the selected objects that a protecting relation keeps
 * named. `_confirm` with `confirm=true` deletes them all in one transaction through the REST write
 * path, or none: a refusal shows the API's message and the page again, where a row-by-row selection
 * can be narrowed (untick the protected object) and confirmed.
 */
import { fromPage } from '../page-writes.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preloadForWrite } from '../../../core/cache/write-preload.js';
import { idsPointedAt } from '../../../core/crud/matching-ids.js';
import { inTransaction } from '../../../core/crud/routes.js';
import { deleteObjects } from '../../../core/crud/write-service.js';
import { ApiError, Errors } from '../../../core/errors.js';
import type { ModelDef } from '../../../core/model/types.js';
import type { Represented } from '../../components/cells.js';
import { errorLines } from '../../error-lines.js';
import { attrs, html, type Html } from '../../html.js';
import { listPath } from '../../navigation/menu.js';
import { csrfField, pageContext } from '../../page-context.js';
import { type Dependent, dependents, dependentsTable } from '../delete.page.js';
import { returnTo } from '../edit.page.js';
import { can, hrefOf, modelCrumbs, sendErrorPage, sendModelPage } from '../page-shell.js';
import { selectedList } from './selected-list.js';
import {
  bulkAction,
  doneUrl,
  nameOf,
  type Selection,
  SHOWN_MAX,
  selectedObjects,
  selectionInputs,
  selectionOf,
} from './selection.js';

/** the selected objects each protecting relation keeps, by id, with the relations' labels */
async function protectedBy(request: FastifyRequest, ids: number[], deps: Dependent[]): Promise<Map<number, string[]>> {
  const out = new Map<number, string[]>();
  for (const d of deps) {
    if (!d.protects) continue;
    for (const id of await idsPointedAt(request.rc, d.protects.model, d.protects.key, ids))
      out.set(id, [...(out.get(id) ?? []), d.label]);
  }
  return out;
}

/** a row-by-row selection as checkboxes, so the user can leave objects out; `_all` stays as it was */
function choices(
  model: ModelDef,
  sel: Selection,
  objects: Map<number, Represented>,
  kept: Map<number, string[]>,
): Html {
  if (sel.all || sel.ids.length > SHOWN_MAX) return selectedList(model, sel.ids, objects, 'To delete');
  return html`<fieldset class="panel selected-objects"><legend>To delete (${sel.ids.length.toLocaleString('en')})</legend>
<ul class="columns">${sel.ids.map((id) => {
    const why = kept.get(id);
    return html`<li><label><input type="checkbox" name="pk" value="${String(id)}" checked> ${nameOf(objects, model, id)}</label>${
      why ? html` <span class="badge tone-bad">protected by its ${why.join(', ').toLowerCase()}</span>` : ''
    }</li>`;
  })}</ul></fieldset>`;
}

async function sendConfirm(
  request: FastifyRequest,
  reply: FastifyReply,
  model: ModelDef,
  sel: Selection,
  returnUrl: string,
  refused?: ApiError,
) {
  const rc = request.rc;
  const n = sel.ids.length;
  const what = `${n.toLocaleString('en')} ${n === 1 ? model.verboseName : model.verboseNamePlural}`;
  const [objects, deps] = [await selectedObjects(request, model, sel.ids), await dependents(rc, model, sel.ids)];
  const kept = await protectedBy(request, sel.ids, deps);
  const keptNames = [...kept.keys()].slice(0, 20).map((id) => nameOf(objects, model, id));
  const cancel = returnTo(returnUrl, hrefOf(listPath(model), sel.filters));
  const body = html`<h1>Delete ${what}?</h1>
${refused ? html`<div class="alert" role="alert"><p>Nothing was deleted.</p>${errorLines(refused.body).map((l) => html`<p>${l}</p>`)}</div>` : ''}
${
  kept.size
    ? html`<div class="alert warning" role="status"><p>${kept.size.toLocaleString('en')} of them cannot be deleted while other objects point at them: ${keptNames.join(', ')}${kept.size > 20 ? ', ...' : ''}. Leave them out, or move or delete what points at them first.</p></div>`
    : ''
}
<form class="panel" method="post" action="${bulkAction(listPath(model), 'delete', sel)}">
  ${csrfField(pageContext(request, reply))}
  ${sel.all || n > SHOWN_MAX ? selectionInputs(sel) : ''}
  <input type="hidden" name="_confirm" value="1">
  ${returnUrl ? html`<input type="hidden" name="return_url" value="${returnUrl}">` : ''}
  ${choices(model, sel, objects, kept)}
  ${dependentsTable(deps, 'them')}
  <div class="field"><label for="id_changelog_message">Change log message</label>
  <input type="text" id="id_changelog_message" name="changelog_message" maxlength="200"></div>
  <p><label><input type="checkbox" name="confirm" value="true"${attrs({ required: true })}> Yes, delete ${what}</label></p>
  <div class="form-buttons">
    <button type="submit" class="danger">Delete</button>
    <a class="button" href="${cancel}">Cancel</a>
  </div>
</form>`;
  return sendModelPage(request, reply, {
    title: `Delete ${what}?`,
    crumbs: modelCrumbs(model, { label: 'Bulk delete' }),
    body,
    status: refused?.statusCode ?? 200,
  });
}

export async function postBulkDelete(_ctx: unknown, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  const rc = request.rc;
  const form = request.formFields ?? {};
  const returnUrl = form.return_url ?? '';
  try {
    if (!(await can(rc, model)).delete) throw Errors.permissionDenied();
    const sel = await selectionOf(request, model, 'delete');
    if (form._confirm === undefined || form.confirm !== 'true')
      return await sendConfirm(request, reply, model, sel, returnUrl);
    const message = form.changelog_message?.trim();
    const messages = message ? new Map(sel.ids.map((id) => [id, message])) : undefined;
    try {
      await inTransaction(await preloadForWrite(fromPage(rc), model), (trx) =>
        deleteObjects(trx, model, sel.ids, true, { messages }),
      );
    } catch (err) {
      if (err instanceof ApiError && (err.statusCode === 409 || err.statusCode === 400))
        return await sendConfirm(request, reply, model, sel, returnUrl, err);
      throw err;
    }
    const fallback = hrefOf(listPath(model), sel.filters);
    return reply.redirect(doneUrl(returnTo(returnUrl, ''), fallback, `deleted:${sel.ids.length}`), 303);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model, { label: 'Bulk delete' }));
  }
}
