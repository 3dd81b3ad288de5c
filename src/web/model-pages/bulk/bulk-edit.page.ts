/**
 * Bulk edit (`POST <list>edit/`, NetBox's `_bulk_edit`): a list posts its selection here and gets
 * the form; the form posts back with `_apply` and the same selection. One transaction through the
 * REST write path (a bulk PATCH): every object changes, each with its change record, or none does;
 * an invalid object is named with its message and the form comes back as it was filled in.
 */
import type { Represented } from '../../components/cells.js';
import { fromPage } from '../page-writes.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CustomFieldDef, RequestContext } from '../../../core/context.js';
import { preloadForWrite } from '../../../core/cache/write-preload.js';
import { inTransaction } from '../../../core/crud/routes.js';
import { updateObjects } from '../../../core/crud/write-service.js';
import { ApiError, Errors } from '../../../core/errors.js';
import type { ModelDef, Row } from '../../../core/model/types.js';
import { customFieldControl, fieldControl } from '../../components/form-fields.js';
import { attrs, html, type Html } from '../../html.js';
import { uiOf } from '../../model-ui.js';
import { listPath } from '../../navigation/menu.js';
import { csrfField, pageContext } from '../../page-context.js';
import { returnTo } from '../edit.page.js';
import { controlState, errorsByInput, type FormErrors, type FormValues, fieldErrors } from '../form-input.js';
import { can, customFieldsOf, hrefOf, modelCrumbs, sendErrorPage, sendModelPage } from '../page-shell.js';
import { bulkBody, bulkEditable, bulkFieldDef, nullable } from './bulk-edit-form.js';
import { selectedList } from './selected-list.js';
import {
  bulkAction,
  doneUrl,
  nameOf,
  type Selection,
  selectedObjects,
  selectionInputs,
  selectionOf,
} from './selection.js';

interface EditState {
  values: FormValues;
  errors: FormErrors;
  top: string[];
  returnUrl: string;
  /** a write that failed: the object the write service named (ApiError.itemIndex), if any */
  failed?: { id: number | undefined };
}

/** the first line of a failed write's message, naming the object from the page's own read when it holds it */
async function failureLine(
  request: FastifyRequest,
  model: ModelDef,
  objects: Map<number, Represented>,
  id: number | undefined,
): Promise<string> {
  if (id === undefined) return 'The objects could not be changed: nothing was changed.';
  const shown = objects.has(id) ? objects : await selectedObjects(request, model, [id]);
  return `${nameOf(shown, model, id)} could not be changed: nothing was changed.`;
}

function nullBox(name: string, values: FormValues): Html {
  const on = (values.get('_nullify') ?? []).includes(name);
  return html`<label class="nullify"><input type="checkbox" name="_nullify" value="${name}"${attrs({ checked: on })}> Set null</label>`;
}

async function controls(rc: RequestContext, model: ModelDef, cfs: CustomFieldDef[], s: EditState): Promise<Html[]> {
  const ui = uiOf(rc.app.registry, model);
  const fields = bulkEditable(model, ui.formFields);
  const state = (name: string) => controlState(ui.pickerFilters, s.values, s.errors, name);
  const out: Html[] = [];
  const rows: Html[] = [];
  for (const key of fields) {
    const f = model.fields[key]!;
    const control = await fieldControl(rc, key, bulkFieldDef(f), state(key));
    rows.push(html`<div class="bulk-field">${control}${nullable(f) ? nullBox(key, s.values) : ''}</div>`);
  }
  if (rows.length)
    out.push(html`<fieldset class="panel"><legend>${model.verboseName} fields</legend>${rows}</fieldset>`);
  if (cfs.length) {
    const cfRows: Html[] = [];
    for (const cf of cfs) {
      const name = `cf_${cf.name}`;
      const control = await customFieldControl(rc, { ...cf, required: false }, state(name));
      cfRows.push(html`<div class="bulk-field">${control}${cf.required ? '' : nullBox(name, s.values)}</div>`);
    }
    out.push(html`<fieldset class="panel"><legend>Custom fields</legend>${cfRows}</fieldset>`);
  }
  if (model.tags && rc.app.registry.find('extras.tag')) {
    const tagControl = (key: string, label: string) =>
      fieldControl(rc, key, { kind: 'm2m', to: 'extras.tag', label }, state(key));
    out.push(
      html`<fieldset class="panel"><legend>Tags</legend>${await tagControl('add_tags', 'Add tags')}${await tagControl('remove_tags', 'Remove tags')}</fieldset>`,
    );
  }
  const message = s.values.get('changelog_message')?.[0] ?? '';
  out.push(html`<fieldset class="panel"><legend>Change log</legend><div class="field">
  <label for="id_changelog_message">Change log message</label>
  <input type="text" id="id_changelog_message" name="changelog_message" maxlength="200" value="${message}">
</div></fieldset>`);
  return out;
}

async function sendEditForm(
  request: FastifyRequest,
  reply: FastifyReply,
  model: ModelDef,
  sel: Selection,
  s: EditState,
  status = 200,
) {
  const rc = request.rc;
  const cfs = await customFieldsOf(rc, model);
  const objects = await selectedObjects(request, model, sel.ids);
  const top = s.failed ? [await failureLine(request, model, objects, s.failed.id), ...s.top] : s.top;
  const n = sel.ids.length;
  const title = `Editing ${n.toLocaleString('en')} ${n === 1 ? model.verboseName : model.verboseNamePlural}`;
  const cancel = returnTo(s.returnUrl, hrefOf(listPath(model), sel.filters));
  const body = html`<h1>${title}</h1>
${top.length ? html`<div class="alert" role="alert">${top.map((m) => html`<p>${m}</p>`)}</div>` : ''}
<form class="object-form bulk-form" method="post" action="${bulkAction(listPath(model), 'edit', sel)}">
  ${csrfField(pageContext(request, reply))}
  ${selectionInputs(sel)}
  ${s.returnUrl ? html`<input type="hidden" name="return_url" value="${s.returnUrl}">` : ''}
  <p class="muted">Only the fields you fill in (or set null) change; the others keep each object's value.</p>
  ${await controls(rc, model, cfs, s)}
  <div class="form-buttons">
    <button type="submit" class="primary" name="_apply" value="1">Apply to ${n.toLocaleString('en')}</button>
    <a class="button" href="${cancel}">Cancel</a>
  </div>
</form>
${selectedList(model, sel.ids, objects)}`;
  return sendModelPage(request, reply, { title, crumbs: modelCrumbs(model, { label: 'Bulk edit' }), body, status });
}

/** the selected objects' PATCH bodies, each its own copy (the write path keeps what it is given) */
function bodiesFor(ids: number[], body: Row): Row[] {
  return ids.map((id) => ({ ...structuredClone(body), id }));
}

export async function postBulkEdit(_ctx: unknown, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  const rc = request.rc;
  try {
    if (!(await can(rc, model)).change) throw Errors.permissionDenied();
    const sel = await selectionOf(request, model, 'change');
    const values = request.formValues ?? new Map<string, string[]>();
    const state: EditState = { values, errors: {}, top: [], returnUrl: request.formFields?.return_url ?? '' };
    // the list's post, or a picker's search: the form
    if (!values.has('_apply')) return await sendEditForm(request, reply, model, sel, state);
    const cfs = await customFieldsOf(rc, model);
    const fields = bulkEditable(model, uiOf(rc.app.registry, model).formFields);
    const { body, errors } = bulkBody(model, fields, cfs, values);
    if (Object.keys(errors).length) return await sendEditForm(request, reply, model, sel, { ...state, errors }, 400);
    if (!Object.keys(body).some((k) => k !== 'changelog_message'))
      return await sendEditForm(
        request,
        reply,
        model,
        sel,
        { ...state, top: ['Fill in or set null at least one field.'] },
        400,
      );
    try {
      await inTransaction(await preloadForWrite(fromPage(rc), model), (trx) =>
        updateObjects(trx, model, bodiesFor(sel.ids, body), 'update', true),
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 400) throw err;
      return await sendEditForm(request, reply, model, sel, failed(sel, state, err), 400);
    }
    const fallback = hrefOf(listPath(model), sel.filters);
    return reply.redirect(doneUrl(returnTo(state.returnUrl, ''), fallback, `updated:${sel.ids.length}`), 303);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model, { label: 'Bulk edit' }));
  }
}

/** the form again, naming the object that failed (sendEditForm reads its name) and its messages; nothing was written */
function failed(sel: Selection, state: EditState, err: ApiError): EditState {
  const names = new Set([...state.values.keys()]);
  const { fields, top } = errorsByInput(fieldErrors(err.body), names);
  const detail = Object.entries(fields).map(([k, ms]) => `${k}: ${ms.join(' ')}`);
  const id = err.itemIndex !== undefined ? sel.ids[err.itemIndex] : undefined;
  return { ...state, errors: fields, top: [...detail, ...top], failed: { id } };
}
