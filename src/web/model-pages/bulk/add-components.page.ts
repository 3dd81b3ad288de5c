/**
 * "Add components" on a list of devices or virtual machines (`POST /dcim/devices/interfaces/add/`,
 * NetBox's bulk add views; the kinds are the owner's `ModelUi.components`): for each selected
 * owner, one component per name of a pattern (name-pattern.ts: `Gi0/[1-48]`), with the labels of a
 * second pattern of the same length and the other fields shared. `_preview` shows every name each
 * owner gets; `_apply` creates them all in one bulk create through the REST write path, or none: the
 * first failure is named with its owner and name.
 */
import { fromPage } from '../page-writes.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { preloadForWrite } from '../../../core/cache/write-preload.js';
import { inTransaction } from '../../../core/crud/routes.js';
import { createObjects } from '../../../core/crud/write-service.js';
import { ApiError, Errors } from '../../../core/errors.js';
import type { Registry } from '../../../core/model/registry.js';
import type { ModelDef, Row } from '../../../core/model/types.js';
import { fieldControl } from '../../components/form-fields.js';
import { errorLines } from '../../error-lines.js';
import { html, type Html } from '../../html.js';
import { capitalize } from '../../labels.js';
import { uiOf } from '../../model-ui.js';
import { listPath } from '../../navigation/menu.js';
import { csrfField, pageContext } from '../../page-context.js';
import { returnTo } from '../edit.page.js';
import { bodyFromForm, type FormValues } from '../form-input.js';
import { can, customFieldsOf, hrefOf, modelCrumbs, sendErrorPage, sendModelPage } from '../page-shell.js';
import { bulkEditable } from './bulk-edit-form.js';
import { expandPattern, PatternError } from './name-pattern.js';
import {
  bulkAction,
  doneUrl,
  nameOf,
  type Selection,
  selectedObjects,
  selectionInputs,
  selectionOf,
} from './selection.js';

type KindRequest = FastifyRequest<{ Params: { id: string } }>;

/** how many components one request may make in all */
const TOTAL_MAX = 10_000;

/** the component's fk to its owner (a device's interfaces: `device`) */
function ownerKey(component: ModelDef, owner: ModelDef): string {
  return Object.entries(component.fields).find(([, f]) => f.kind === 'fk' && f.to === owner.name)![0];
}

/**
 * The fields shared by every component made: the component's bulk-editable fields less its owner,
 * its label, and what points at other objects of the same owner (a LAG, a parent, a module): those
 * differ from one owner to the next.
 */
function sharedFields(component: ModelDef, owner: ModelDef, registry: Registry): string[] {
  const key = ownerKey(component, owner);
  return bulkEditable(component, uiOf(registry, component).formFields).filter((k) => {
    if (k === key || k === 'label') return false;
    const f = component.fields[k]!;
    const target = f.kind === 'fk' || f.kind === 'm2m' ? registry.find(f.to!) : undefined;
    return !target || !Object.values(target.fields).some((g) => g.kind === 'fk' && g.to === owner.name);
  });
}

interface Plan {
  names: string[];
  labels: string[];
  errors: Record<string, string>;
}

function planOf(values: FormValues, owners: number): Plan {
  const errors: Record<string, string> = {};
  const expand = (key: 'name' | 'label'): string[] => {
    const raw = (values.get(key)?.[0] ?? '').trim();
    if (!raw) {
      if (key === 'name') errors.name = 'This field is required.';
      return [];
    }
    try {
      return expandPattern(raw);
    } catch (err) {
      if (!(err instanceof PatternError)) throw err;
      errors[key] = err.message;
      return [];
    }
  };
  const names = expand('name');
  const labels = expand('label');
  if (labels.length && names.length && labels.length !== names.length)
    errors.label = `The label pattern makes ${labels.length} labels for ${names.length} names: make them match.`;
  if (!errors.name && names.length * owners > TOTAL_MAX)
    errors.name = `${(names.length * owners).toLocaleString('en')} components at once is more than the ${TOTAL_MAX.toLocaleString('en')} allowed.`;
  return { names, labels, errors };
}

interface PageState {
  values: FormValues;
  plan: Plan | null;
  fieldErrors: Record<string, string[]>;
  top: string[];
  returnUrl: string;
}

function patternField(key: 'name' | 'label', value: string, error: string | undefined): Html {
  const id = `id_${key}`;
  return html`<div class="field${error ? ' invalid' : ''}">
  <label for="${id}">${capitalize(key)}${key === 'name' ? html` <span class="required" aria-hidden="true">*</span>` : ''}</label>
  <input type="text" id="${id}" name="${key}" value="${value}" maxlength="200"${key === 'name' ? html` required` : ''}${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : ''}>
  <p class="muted">${key === 'name' ? 'A pattern makes many: Gi0/[1-48], [ge,xe]-0/0/[0-9].' : 'Optional; as many labels as names.'}</p>
  ${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
</div>`;
}

async function sendPage(
  request: KindRequest,
  reply: FastifyReply,
  owner: ModelDef,
  component: ModelDef,
  sel: Selection,
  s: PageState,
  status = 200,
) {
  const rc = request.rc;
  const objects = await selectedObjects(request, owner, sel.ids);
  const cfs = await customFieldsOf(rc, component);
  const value = (k: string) => s.values.get(k)?.[0] ?? '';
  const controls: Html[] = [];
  for (const key of sharedFields(component, owner, rc.app.registry))
    controls.push(
      await fieldControl(rc, key, component.fields[key]!, {
        values: s.values.get(key) ?? [],
        errors: s.fieldErrors[key] ?? [],
      }),
    );
  if (component.tags && rc.app.registry.find('extras.tag'))
    controls.push(
      await fieldControl(
        rc,
        'tags',
        { kind: 'm2m', to: 'extras.tag' },
        { values: s.values.get('tags') ?? [], errors: [] },
      ),
    );
  const plan = s.plan && !Object.keys(s.plan.errors).length ? s.plan : null;
  const n = sel.ids.length;
  const title = `Add ${component.verboseNamePlural} to ${n.toLocaleString('en')} ${n === 1 ? owner.verboseName : owner.verboseNamePlural}`;
  const body = html`<h1>${title}</h1>
${s.top.length ? html`<div class="alert" role="alert">${s.top.map((m) => html`<p>${m}</p>`)}</div>` : ''}
<form class="object-form" method="post" action="${bulkAction(listPath(owner), `${component.path}/add`, sel)}">
  ${csrfField(pageContext(request, reply))}
  ${selectionInputs(sel)}
  ${s.returnUrl ? html`<input type="hidden" name="return_url" value="${s.returnUrl}">` : ''}
  <fieldset class="panel"><legend>Names</legend>
  ${patternField('name', value('name'), s.plan?.errors.name)}
  ${patternField('label', value('label'), s.plan?.errors.label)}
  </fieldset>
  <fieldset class="panel"><legend>${capitalize(component.verboseName)}</legend>${controls}</fieldset>
  ${cfs.length ? html`<p class="muted">Custom fields take their defaults; set them afterwards with a bulk edit.</p>` : ''}
  <div class="form-buttons">
    <button type="submit" name="_preview" value="1"${plan ? '' : html` class="primary"`}>Preview</button>
    ${plan ? html`<button type="submit" class="primary" name="_apply" value="1">Create ${(plan.names.length * n).toLocaleString('en')}</button>` : ''}
    <a class="button" href="${returnTo(s.returnUrl, hrefOf(listPath(owner), sel.filters))}">Cancel</a>
  </div>
</form>
${
  plan
    ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Preview"><table class="objects"><caption>${(plan.names.length * n).toLocaleString('en')} new ${component.verboseNamePlural}</caption>
<thead><tr><th scope="col">${capitalize(owner.verboseName)}</th><th scope="col">Names</th></tr></thead>
<tbody>${sel.ids
        .slice(0, 100)
        .map(
          (id) =>
            html`<tr><td>${nameOf(objects, owner, id)}</td><td>${plan.names.slice(0, 12).join(', ')}${plan.names.length > 12 ? ` ... ${plan.names.at(-1)} (${plan.names.length})` : ''}</td></tr>`,
        )}</tbody></table></div>${n > 100 ? html`<p class="muted">and ${(n - 100).toLocaleString('en')} more.</p>` : ''}`
    : ''
}`;
  return sendModelPage(request, reply, {
    title,
    crumbs: modelCrumbs(owner, { label: `Add ${component.verboseNamePlural}` }),
    body,
    status,
  });
}

export async function postAddComponents(_ctx: unknown, owner: ModelDef, request: KindRequest, reply: FastifyReply) {
  const rc = request.rc;
  const component = uiOf(rc.app.registry, owner).components.find((c) => c.path === request.params.id);
  const crumbs = modelCrumbs(owner, { label: 'Add components' });
  try {
    if (!component) throw Errors.notFound();
    if (!(await can(rc, component)).add) throw Errors.permissionDenied();
    const sel = await selectionOf(request, owner, 'view');
    const values = request.formValues ?? new Map<string, string[]>();
    const s: PageState = {
      values,
      plan: null,
      fieldErrors: {},
      top: [],
      returnUrl: request.formFields?.return_url ?? '',
    };
    if (!values.has('_preview') && !values.has('_apply'))
      return await sendPage(request, reply, owner, component, sel, s);
    const plan = planOf(values, sel.ids.length);
    if (Object.keys(plan.errors).length)
      return await sendPage(request, reply, owner, component, sel, { ...s, plan }, 400);
    if (!values.has('_apply')) return await sendPage(request, reply, owner, component, sel, { ...s, plan });
    const fields = sharedFields(component, owner, rc.app.registry);
    const shared = bodyFromForm(component, fields, [], values, 'create');
    if (Object.keys(shared.errors).length)
      return await sendPage(request, reply, owner, component, sel, { ...s, plan, fieldErrors: shared.errors }, 400);
    const key = ownerKey(component, owner);
    const bodies: Row[] = sel.ids.flatMap((id) =>
      plan.names.map((name, i) => ({
        ...structuredClone(shared.body),
        [key]: id,
        name,
        ...(plan.labels.length ? { label: plan.labels[i] } : {}),
      })),
    );
    try {
      await inTransaction(await preloadForWrite(fromPage(rc), component), (trx) =>
        createObjects(trx, component, bodies, true),
      );
    } catch (err) {
      if (!(err instanceof ApiError) || err.statusCode !== 400) throw err;
      return await sendPage(
        request,
        reply,
        owner,
        component,
        sel,
        { ...s, plan, top: await failure(request, owner, bodies, key, err) },
        400,
      );
    }
    const back = hrefOf(listPath(component), new Map([[`${key}_id`, sel.ids.slice(0, 100).map(String)]]));
    return reply.redirect(doneUrl(returnTo(s.returnUrl, ''), back, `created:${bodies.length}`), 303);
  } catch (err) {
    return sendErrorPage(request, reply, err, crumbs);
  }
}

/** the first failing component, by its owner's name and its own, with the API's messages */
async function failure(
  request: KindRequest,
  owner: ModelDef,
  bodies: Row[],
  key: string,
  err: ApiError,
): Promise<string[]> {
  const list = Array.isArray(err.body) ? (err.body as unknown[]) : null;
  const i = list ? list.findIndex((e) => e && typeof e === 'object' && Object.keys(e).length > 0) : -1;
  if (i < 0) return ['Nothing was created.', ...errorLines(err.body)];
  const id = Number(bodies[i]![key]);
  const who = nameOf(await selectedObjects(request, owner, [id]), owner, id);
  return [`${who}, ${String(bodies[i]!.name)}: nothing was created.`, ...errorLines(list![i])];
}
