/**
 * An object's delete page (`<list><id>/delete/`): GET asks "Delete <display>?" and lists what
 * points at the object (the related counts of its page, each with what the deletion does to them:
 * deleted with it, unset, or refusing the delete); POST with `confirm=true` deletes through the
 * REST write path and redirects to the list (or a same-site `return_url`). A refused delete (a
 * protected relation's 409) shows the API's message, nothing deleted.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, RequestContext } from '../../core/context.js';
import { countObjects } from '../../core/crud/read.js';
import { parseId } from '../../core/crud/routes.js';
import { ApiError, Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Represented } from '../components/cells.js';
import { errorLines } from '../error-lines.js';
import { html, type Html } from '../html.js';
import { uiOf } from '../model-ui.js';
import { capitalize } from '../labels.js';
import { listPath } from '../navigation/menu.js';
import { csrfField, pageContext } from '../page-context.js';
import { returnTo } from './edit.page.js';
import { readObject } from './object.page.js';
import { mayOnObject } from './object-head.js';
import { deleteFromPage } from './page-writes.js';
import { modelCrumbs, objectPath, queryOf, sendErrorPage, sendModelPage } from './page-shell.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

export interface Dependent {
  label: string;
  href: string;
  count: number;
  effect: string;
  /** the related model and its fk here, when that fk refuses the delete (on_delete PROTECT) */
  protects?: { model: ModelDef; key: string };
}

const EFFECT = {
  protect: 'protected: these must be deleted or moved first',
  cascade: 'deleted too',
  set_null: 'kept, no longer pointing here',
  keep: 'kept',
} as const;

/** what points at the objects, as the object page counts it, with what a delete does to each */
export async function dependents(rc: RequestContext, model: ModelDef, ids: number[]): Promise<Dependent[]> {
  const out: Dependent[] = [];
  for (const r of uiOf(rc.app.registry, model).related) {
    const other = rc.app.registry.find(r.model);
    if (!other) continue;
    const count = await countObjects(rc, other, new Map([[r.param, ids.map(String)]]));
    if (!count) continue;
    const key = r.param.replace(/_id$/, '');
    const fk = other.fields[key];
    const onDelete = fk?.kind === 'fk' ? (fk.onDelete ?? 'set_null') : undefined;
    out.push({
      label: r.label ?? capitalize(other.verboseNamePlural),
      href: `${listPath(other)}?${ids
        .slice(0, 100)
        .map((id) => `${r.param}=${id}`)
        .join('&')}`,
      count,
      effect: onDelete ? EFFECT[onDelete] : '',
      protects: onDelete === 'protect' ? { model: other, key } : undefined,
    });
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

/** what points at the object (`it`) or objects (`them`), with what the deletion does to each */
export function dependentsTable(deps: Dependent[], pronoun: 'it' | 'them'): Html {
  if (!deps.length) return html`<p class="muted">Nothing else points at ${pronoun}.</p>`;
  return html`<h2>Objects pointing at ${pronoun}</h2><table class="attrs">${deps.map(
    (d) =>
      html`<tr><th scope="row"><a href="${d.href}">${d.label}</a></th><td class="num">${d.count.toLocaleString('en')}</td><td>${d.effect}</td></tr>`,
  )}</table>`;
}

async function sendDeletePage(
  request: IdRequest,
  reply: FastifyReply,
  model: ModelDef,
  obj: Represented,
  returnUrl: string,
  refused?: ApiError,
) {
  const rc = request.rc;
  const id = Number(obj.id);
  const name = String(obj.display ?? obj.id);
  const deps = await dependents(rc, model, [id]);
  const cancel = returnTo(returnUrl, objectPath(model, id));
  const body = html`<h1>Delete ${name}?</h1>
${refused ? html`<div class="alert" role="alert">${errorLines(refused.body).map((l) => html`<p>${l}</p>`)}</div>` : ''}
<form class="panel" method="post" action="${objectPath(model, id)}delete/">
  ${csrfField(pageContext(request, reply))}
  <input type="hidden" name="confirm" value="true">
  ${returnUrl ? html`<input type="hidden" name="return_url" value="${returnUrl}">` : ''}
  <p>Are you sure you want to delete the ${model.verboseName} <strong>${name}</strong>?</p>
  ${dependentsTable(deps, 'it')}
  <div class="form-buttons">
    <button type="submit" class="danger">Delete</button>
    <a class="button" href="${cancel}">Cancel</a>
  </div>
</form>`;
  return sendModelPage(request, reply, {
    title: `Delete ${name}?`,
    crumbs: modelCrumbs(model, { label: name, href: objectPath(model, id) }, { label: 'Delete' }),
    body,
    status: refused?.statusCode ?? 200,
  });
}

/** the object to delete, when this user may: 404 when hidden, 403 when only visible */
async function deletable(request: IdRequest, model: ModelDef): Promise<Represented> {
  const obj = await readObject(request, model, request.params.id);
  if (!(await mayOnObject(request.rc, model, parseId(request.params.id), 'delete'))) throw Errors.permissionDenied();
  return obj;
}

export async function deletePage(_ctx: AppContext, model: ModelDef, request: IdRequest, reply: FastifyReply) {
  try {
    const obj = await deletable(request, model);
    return await sendDeletePage(request, reply, model, obj, queryOf(request).get('return_url')?.[0] ?? '');
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}

export async function postDelete(_ctx: AppContext, model: ModelDef, request: IdRequest, reply: FastifyReply) {
  const form = request.formFields ?? {};
  const returnUrl = form.return_url ?? '';
  try {
    const obj = await deletable(request, model);
    // without the confirmation, the question again
    if (form.confirm !== 'true') return await sendDeletePage(request, reply, model, obj, returnUrl);
    try {
      await deleteFromPage(request.rc, model, [Number(obj.id)]);
    } catch (err) {
      if (err instanceof ApiError && (err.statusCode === 409 || err.statusCode === 400))
        return await sendDeletePage(request, reply, model, obj, returnUrl, err);
      throw err;
    }
    return reply.redirect(returnTo(returnUrl, listPath(model)), 303);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}
