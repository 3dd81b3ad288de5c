/**
 * A model's add form (`<list>add/`) and an object's edit form (`<list><id>/edit/`): the model's
 * field groups as fieldsets, its custom fields, tags and comments. A save goes through the REST
 * write path (page-writes.ts) and redirects to the object (post/redirect/get); a validation error
 * shows the form again with every typed value and each message beside its field, nothing written.
 * A large picker's "Search" button posts the form back to itself and writes nothing.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, CustomFieldDef, RequestContext } from '../../core/context.js';
import { getObject } from '../../core/crud/read.js';
import { parseId } from '../../core/crud/routes.js';
import { ApiError, Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Represented } from '../components/cells.js';
import { customFieldControl, fieldControl } from '../components/form-fields.js';
import { genericObjectControl, genericPairs } from '../components/generic-field.js';
import { html, type Html } from '../html.js';
import { uiOf } from '../model-ui.js';
import { listPath } from '../navigation/menu.js';
import { csrfField, pageContext, safeNext } from '../page-context.js';
import { CLONE_COMPONENTS, cloneQuery, mayOnObject } from './object-head.js';
import {
  bodyFromForm,
  controlState,
  errorsByInput,
  fieldErrors,
  type FormErrors,
  type FormValues,
  initialFromObject,
  initialFromQuery,
} from './form-input.js';
import { componentCount, copyComponents } from './clone-components.js';
import { createFromPage, createWithMore, updateFromPage } from './page-writes.js';
import { can, customFieldsOf, modelCrumbs, objectPath, queryOf, sendErrorPage, sendModelPage } from './page-shell.js';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

interface FormState {
  values: FormValues;
  errors: FormErrors;
  top: string[];
  returnUrl: string;
  /** an add form opened by Clone: the original, whose components the form offers to copy */
  cloneOf?: { id: number; display: string; count: number; checked: boolean };
}

/** where a save goes: a same-site `return_url`, else `fallback` (a foreign or odd URL is not followed) */
export function returnTo(raw: unknown, fallback: string): string {
  return typeof raw === 'string' && raw !== '' && safeNext(raw) === raw ? raw : fallback;
}

/** the input names the form has (API field names, `cf_<name>`, tags) */
function inputNames(model: ModelDef, formFields: string[], cfs: CustomFieldDef[]): Set<string> {
  return new Set([...formFields, ...cfs.map((c) => `cf_${c.name}`), ...(model.tags ? ['tags'] : [])]);
}

async function renderForm(
  rc: RequestContext,
  model: ModelDef,
  cfs: CustomFieldDef[],
  s: FormState,
  editing: boolean,
): Promise<Html> {
  const ui = uiOf(rc.app.registry, model);
  // a field only a superuser may set from a page (FieldDef.pageWrite) is not shown to anyone else
  const onForm = new Set(
    ui.formFields.filter((k) => model.fields[k]?.pageWrite !== 'superuser' || rc.user?.is_superuser),
  );
  const state = (name: string) => ({ ...controlState(ui.pickerFilters, s.values, s.errors, name), editing });
  const pairs = genericPairs(model);
  const control = (key: string) => {
    // the id half of a generic reference whose type is on the form too: a picker of that type's objects
    const pair = pairs.get(key);
    if (pair && onForm.has(pair.typeKey)) {
      const typeField = model.fields[pair.typeKey]!;
      return genericObjectControl(rc, key, pair, typeField, s.values.get(pair.typeKey)?.[0], state(key));
    }
    return fieldControl(rc, key, model.fields[key]!, state(key));
  };
  const fieldsets: Html[] = [];
  for (const g of ui.groups) {
    const keys = g.fields.filter((k) => onForm.has(k) && k !== 'comments');
    if (!keys.length) continue;
    const controls = [];
    for (const k of keys) controls.push(await control(k));
    fieldsets.push(
      html`<fieldset class="panel">${g.title ? html`<legend>${g.title}</legend>` : ''}${controls}</fieldset>`,
    );
  }
  if (cfs.length) {
    const controls = [];
    for (const cf of cfs) controls.push(await customFieldControl(rc, cf, state(`cf_${cf.name}`)));
    fieldsets.push(html`<fieldset class="panel"><legend>Custom fields</legend>${controls}</fieldset>`);
  }
  const tag = rc.app.registry.find('extras.tag');
  if (model.tags && tag)
    fieldsets.push(
      html`<fieldset class="panel"><legend>Tags</legend>${await fieldControl(rc, 'tags', { kind: 'm2m', to: 'extras.tag' }, state('tags'))}</fieldset>`,
    );
  if (onForm.has('comments'))
    fieldsets.push(html`<fieldset class="panel"><legend>Comments</legend>${await control('comments')}</fieldset>`);
  return html`${s.top.length ? html`<div class="alert" role="alert">${s.top.map((m) => html`<p>${m}</p>`)}</div>` : ''}${fieldsets}`;
}

async function sendForm(
  request: FastifyRequest,
  reply: FastifyReply,
  model: ModelDef,
  cfs: CustomFieldDef[],
  s: FormState,
  obj: Represented | null,
  status = 200,
) {
  const rc = request.rc;
  const adding = obj === null;
  const title = adding ? `Add a new ${model.verboseName}` : `Editing ${String(obj.display ?? obj.id)}`;
  const action = adding ? `${listPath(model)}add/` : `${objectPath(model, obj.id)}edit/`;
  const cancel = returnTo(s.returnUrl, adding ? listPath(model) : objectPath(model, obj.id));
  const body = html`<h1>${title}</h1>
<form class="object-form" method="post" action="${action}">
  ${csrfField(pageContext(request, reply))}
  ${s.returnUrl ? html`<input type="hidden" name="return_url" value="${s.returnUrl}">` : ''}
  ${await renderForm(rc, model, cfs, s, !adding)}
  ${s.cloneOf ? cloneFieldset(model, s.cloneOf) : ''}
  <div class="form-buttons">
    ${
      adding
        ? html`<button type="submit" class="primary" name="_create" value="1">Create</button>
    <button type="submit" name="_addanother" value="1">Create &amp; add another</button>`
        : html`<button type="submit" class="primary" name="_update" value="1">Save</button>`
    }
    <a class="button" href="${cancel}">Cancel</a>
  </div>
</form>`;
  const crumbs = adding
    ? modelCrumbs(model, { label: 'Add' })
    : modelCrumbs(model, { label: String(obj.display ?? obj.id), href: objectPath(model, obj.id) }, { label: 'Edit' });
  return sendModelPage(request, reply, { title, crumbs, body, status });
}

function cloneFieldset(model: ModelDef, c: NonNullable<FormState['cloneOf']>): Html {
  return html`<fieldset class="panel"><legend>Components</legend><div class="field">
<label><input type="checkbox" name="${CLONE_COMPONENTS}" value="${String(c.id)}"${c.checked ? html` checked` : ''}> Also copy the components of ${c.display} that the new ${model.verboseName} does not get from its type</label>
<p class="muted">${c.display} has ${c.count.toLocaleString('en')} components. Cables, MAC addresses and module components are not copied.</p>
</div></fieldset>`;
}

/** the original a Clone names (`_clone_components`), when the model copies components and the user may see it */
async function cloneSource(
  rc: RequestContext,
  model: ModelDef,
  raw: string | undefined,
  checked: boolean,
): Promise<FormState['cloneOf']> {
  if (!raw || !/^\d{1,15}$/.test(raw) || !uiOf(rc.app.registry, model).components.length) return undefined;
  try {
    const obj = (await getObject(rc, model, Number(raw), new Map())) as Represented;
    return {
      id: Number(raw),
      display: String(obj.display ?? raw),
      count: await componentCount(rc, model, Number(raw)),
      checked,
    };
  } catch (err) {
    if (err instanceof ApiError && err.statusCode < 500) return undefined;
    throw err;
  }
}

/** the posted values the form knows (unknown names are dropped here, never an error) */
function postedValues(request: FastifyRequest, names: Set<string>): FormValues {
  const out: FormValues = new Map();
  for (const [k, vs] of request.formValues ?? new Map<string, string[]>())
    if (names.has(k) || (k.endsWith('__search') && names.has(k.slice(0, -8)))) out.set(k, vs);
  return out;
}

export async function addPage(ctx: AppContext, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  const rc = request.rc;
  try {
    if (!(await can(rc, model)).add) throw Errors.permissionDenied();
    const cfs = await customFieldsOf(rc, model);
    const query = queryOf(request);
    const values = initialFromQuery(model, uiOf(ctx.registry, model).formFields, cfs, query);
    const returnUrl = query.get('return_url')?.[0] ?? '';
    const cloneOf = await cloneSource(rc, model, query.get(CLONE_COMPONENTS)?.[0], false);
    return sendForm(request, reply, model, cfs, { values, errors: {}, top: [], returnUrl, cloneOf }, null);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}

/** the object to edit, when this user may change it: 404 when hidden, 403 when only visible */
async function editable(request: IdRequest, model: ModelDef): Promise<Represented> {
  const id = parseId(request.params.id);
  const obj = (await getObject(request.rc, model, id, new Map())) as Represented;
  if (!(await mayOnObject(request.rc, model, id, 'change'))) throw Errors.permissionDenied();
  return obj;
}

export async function editPage(ctx: AppContext, model: ModelDef, request: IdRequest, reply: FastifyReply) {
  const rc = request.rc;
  try {
    const obj = await editable(request, model);
    const cfs = await customFieldsOf(rc, model);
    const values = initialFromObject(model, uiOf(ctx.registry, model).formFields, cfs, obj);
    const returnUrl = queryOf(request).get('return_url')?.[0] ?? '';
    return sendForm(request, reply, model, cfs, { values, errors: {}, top: [], returnUrl }, obj);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}

/** both forms' POST: add when `obj` is null, else a PATCH of `obj` */
async function save(
  ctx: AppContext,
  model: ModelDef,
  request: FastifyRequest,
  reply: FastifyReply,
  obj: Represented | null,
) {
  const rc = request.rc;
  const form = request.formFields ?? {};
  const cfs = await customFieldsOf(rc, model);
  const formFields = uiOf(ctx.registry, model).formFields;
  const names = inputNames(model, formFields, cfs);
  const values = postedValues(request, names);
  const cloneOf = obj ? undefined : await cloneSource(rc, model, form[CLONE_COMPONENTS], true);
  const state: FormState = { values, errors: {}, top: [], returnUrl: form.return_url ?? '', cloneOf };
  // a large picker's search: the same form again, with that picker's matches
  if (form._picker !== undefined) return sendForm(request, reply, model, cfs, state, obj);
  const before = obj ? initialFromObject(model, formFields, cfs, obj) : undefined;
  const { body, errors } = bodyFromForm(model, formFields, cfs, values, obj ? 'update' : 'create', before);
  if (Object.keys(errors).length) return sendForm(request, reply, model, cfs, { ...state, errors }, obj, 400);
  try {
    const id = obj
      ? Number(obj.id)
      : cloneOf
        ? await createWithMore(rc, model, body, (trx, newId) => copyComponents(trx, model, cloneOf.id, newId))
        : await createFromPage(rc, model, body);
    if (obj) await updateFromPage(rc, model, id, body);
    if (!obj && form._addanother !== undefined) {
      const created = (await getObject(rc, model, id, new Map())) as Represented;
      const clone = cloneQuery(rc, model, created);
      return reply.redirect(`${listPath(model)}add/${clone ? `?${clone}` : ''}`, 303);
    }
    const saved = `${objectPath(model, id)}?saved=${obj ? 'updated' : 'created'}`;
    return reply.redirect(returnTo(form.return_url, saved), 303);
  } catch (err) {
    if (!(err instanceof ApiError) || err.statusCode !== 400) throw err;
    const { fields, top } = errorsByInput(fieldErrors(err.body), names);
    return sendForm(request, reply, model, cfs, { ...state, errors: fields, top }, obj, 400);
  }
}

export async function postAdd(ctx: AppContext, model: ModelDef, request: FastifyRequest, reply: FastifyReply) {
  try {
    if (!(await can(request.rc, model)).add) throw Errors.permissionDenied();
    return await save(ctx, model, request, reply, null);
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}

export async function postEdit(ctx: AppContext, model: ModelDef, request: IdRequest, reply: FastifyReply) {
  try {
    return await save(ctx, model, request, reply, await editable(request, model));
  } catch (err) {
    return sendErrorPage(request, reply, err, modelCrumbs(model));
  }
}
