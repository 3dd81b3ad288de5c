/**
 * Bulk rename (`POST <list>rename/`, NetBox's `_bulk_rename`, for models with a name): find and
 * replace over the selected objects' names (rename-rule.ts), a preview of old and new names
 * (`_preview`), then `_apply`: the changed names in one bulk PATCH through the REST write path, all
 * or none. A name the model refuses (taken, too long, empty) is named with its object.
 */
import { fromPage } from '../page-writes.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preloadForWrite } from '../../../core/cache/write-preload.js';
import { sql } from 'kysely';
import { listInChunks } from '../../../core/crud/list-chunks.js';
import { inTransaction } from '../../../core/crud/routes.js';
import { updateObjects } from '../../../core/crud/write-service.js';
import { ApiError, Errors } from '../../../core/errors.js';
import type { ModelDef } from '../../../core/model/types.js';
import { errorLines } from '../../error-lines.js';
import { attrs, html } from '../../html.js';
import { listPath } from '../../navigation/menu.js';
import { csrfField, pageContext } from '../../page-context.js';
import { returnTo } from '../edit.page.js';
import { can, hrefOf, modelCrumbs, objectPath, sendErrorPage, sendModelPage } from '../page-shell.js';
import { FIND_MAX, renameAll } from './rename-rule.js';
import { bulkAction, doneUrl, type Selection, selectionInputs, selectionOf } from './selection.js';

/** models a bulk rename serves: those with a name a person writes */
export function renamable(model: ModelDef): boolean {
  const f = model.fields.name;
  return f !== undefined && f.kind === 'string' && !f.readOnly;
}

/** every selected object's name, in the selection's order (read in chunks: core/crud/list-chunks.ts) */
async function namesOf(request: FastifyRequest, model: ModelDef, ids: number[]): Promise<string[]> {
  const list = await listInChunks(request.rc, model, new Map([['brief', ['true']]]), [
    sql`t.id = any(${ids}::bigint[])`,
  ]);
  const byId = new Map<number, string>();
  for await (const chunk of list.chunks()) for (const r of chunk) byId.set(Number(r.id), String(r.name ?? ''));
  return ids.map((id) => byId.get(id) ?? '');
}

interface RenameState {
  find: string;
  replace: string;
  useRegex: boolean;
  errors: Partial<Record<'find' | 'replace', string>>;
  top: string[];
  returnUrl: string;
}

async function sendRename(
  request: FastifyRequest,
  reply: FastifyReply,
  model: ModelDef,
  sel: Selection,
  names: string[],
  renamed: string[] | null,
  s: RenameState,
  status = 200,
) {
  const n = sel.ids.length;
  const title = `Renaming ${n.toLocaleString('en')} ${n === 1 ? model.verboseName : model.verboseNamePlural}`;
  const cancel = returnTo(s.returnUrl, hrefOf(listPath(model), sel.filters));
  const field = (name: 'find' | 'replace', label: string) => {
    const err = s.errors[name];
    return html`<div class="field${err ? ' invalid' : ''}"><label for="id_${name}">${label}${name === 'find' ? html` <span class="required" aria-hidden="true">*</span>` : ''}</label>
<input type="text" id="id_${name}" name="${name}" maxlength="${FIND_MAX}" value="${name === 'find' ? s.find : s.replace}"${attrs(
      {
        required: name === 'find',
        'aria-invalid': err ? 'true' : null,
        'aria-describedby': err ? `id_${name}-error` : null,
      },
    )}>${err ? html`<p class="field-error" id="id_${name}-error">${err}</p>` : ''}</div>`;
  };
  const changed = renamed ? sel.ids.filter((_, i) => renamed[i] !== names[i]).length : 0;
  const body = html`<h1>${title}</h1>
${s.top.length ? html`<div class="alert" role="alert">${s.top.map((m) => html`<p>${m}</p>`)}</div>` : ''}
<form class="object-form" method="post" action="${bulkAction(listPath(model), 'rename', sel)}">
  ${csrfField(pageContext(request, reply))}
  ${selectionInputs(sel)}
  ${s.returnUrl ? html`<input type="hidden" name="return_url" value="${s.returnUrl}">` : ''}
  <fieldset class="panel"><legend>Find and replace</legend>
  ${field('find', 'Find')}
  ${field('replace', 'Replace with')}
  <div class="field"><label><input type="checkbox" name="use_regex" value="true"${attrs({ checked: s.useRegex })}> Use regular expressions</label>
  <p class="muted">Groups are written as in Python: <code>\\1</code> or <code>\\g&lt;name&gt;</code>.</p></div>
  <input type="hidden" name="_form" value="1">
  </fieldset>
  <div class="form-buttons">
    <button type="submit" name="_preview" value="1"${attrs({ class: renamed ? null : 'primary' })}>Preview</button>
    ${renamed ? html`<button type="submit" class="primary" name="_apply" value="1"${attrs({ disabled: changed === 0 })}>Rename ${changed.toLocaleString('en')}</button>` : ''}
    <a class="button" href="${cancel}">Cancel</a>
  </div>
</form>
<div class="table-wrap"><table class="objects rename-preview">
<caption>${renamed ? `${changed.toLocaleString('en')} of ${n.toLocaleString('en')} names change` : 'Current names'}</caption>
<thead><tr><th scope="col">Current name</th>${renamed ? html`<th scope="col">New name</th>` : ''}</tr></thead>
<tbody>${sel.ids.map(
    (id, i) =>
      html`<tr${attrs({ class: renamed && renamed[i] !== names[i] ? 'changed' : null })}><td><a href="${objectPath(model, id)}">${names[i]}</a></td>${
        renamed
          ? html`<td>${renamed[i] === names[i] ? html`<span class="muted">unchanged</span>` : renamed[i]}</td>`
          : ''
      }</tr>`,
  )}</tbody></table></div>`;
  return sendModelPage(request, reply, { title, crumbs: modelCrumbs(model, { label: 'Rename' }), body, status });
}

export async function postBulkRename(_ctx: unknown, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  const rc = request.rc;
  const form = request.formFields ?? {};
  try {
    if (!(await can(rc, model)).change) throw Errors.permissionDenied();
    const sel = await selectionOf(request, model, 'change');
    const names = await namesOf(request, model, sel.ids);
    const s: RenameState = {
      find: form.find ?? '',
      replace: form.replace ?? '',
      // ticked by default, as NetBox's form: a form not yet posted has no `_form`
      useRegex: form._form === undefined || form.use_regex === 'true',
      errors: {},
      top: [],
      returnUrl: form.return_url ?? '',
    };
    if (form._preview === undefined && form._apply === undefined)
      return await sendRename(request, reply, model, sel, names, null, s);
    const result = renameAll(names, s.find, s.replace, s.useRegex);
    if ('error' in result)
      return await sendRename(
        request,
        reply,
        model,
        sel,
        names,
        null,
        { ...s, errors: { [result.field]: result.error } },
        400,
      );
    const renamed = result.names;
    if (form._apply === undefined) return await sendRename(request, reply, model, sel, names, renamed, s);
    const bodies = sel.ids.flatMap((id, i) => (renamed[i] !== names[i] ? [{ id, name: renamed[i] }] : []));
    if (!bodies.length)
      return await sendRename(request, reply, model, sel, names, renamed, { ...s, top: ['No name changes.'] }, 400);
    try {
      await inTransaction(await preloadForWrite(fromPage(rc), model), (trx) =>
        updateObjects(trx, model, bodies, 'update', true),
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 400) throw err;
      const i = err.itemIndex !== undefined ? sel.ids.indexOf(bodies[err.itemIndex]!.id) : -1;
      const who = i >= 0 ? `${names[i]} → ${renamed[i]}` : 'A new name';
      const top = [`${who}: nothing was renamed.`, ...errorLines(err.body)];
      return await sendRename(request, reply, model, sel, names, renamed, { ...s, top }, 400);
    }
    const fallback = hrefOf(listPath(model), sel.filters);
    return reply.redirect(doneUrl(returnTo(s.returnUrl, ''), fallback, `renamed:${bodies.length}`), 303);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model, { label: 'Rename' }));
  }
}
