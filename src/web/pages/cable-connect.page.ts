/**
 * Connecting a cable (`/dcim/cables/add/`, NetBox's URL and query: `a_terminations_type`,
 * `a_terminations`, `b_terminations_type`, `return_url`): for each side, the device (or circuit,
 * or power panel) through a picker, then its free ports of the side's kind through a second picker
 * that follows the first (inventory.js asks again when it changes; without JavaScript "Show ports"
 * posts the form back). Then the cable's own fields. The post is one REST create of the cable
 * (validation, paths and change records as the API's), so a refused connection writes nothing and
 * shows why beside the form. A port row's Connect menu opens this with its side A filled in.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext, CustomFieldDef, RequestContext } from '../../core/context.js';
import { getObject } from '../../core/crud/read.js';
import { ApiError, Errors } from '../../core/errors.js';
import type { ModelDef, Row } from '../../core/model/types.js';
import { resolveFilter } from '../../core/query/filters.js';
import { CABLE_END_TYPES } from '../../apps/dcim/cable-compatibility.js';
import type { Represented } from '../components/cells.js';
import { customFieldControl, fieldControl } from '../components/form-fields.js';
import { picker } from '../components/picker.js';
import { attrs, html, type Html } from '../html.js';
import { capitalize } from '../labels.js';
import { listPath } from '../navigation/menu.js';
import { csrfField, pageContext } from '../page-context.js';
import { returnTo } from '../model-pages/edit.page.js';
import {
  bodyFromForm,
  controlState,
  errorsByInput,
  type FormErrors,
  type FormValues,
  fieldErrors,
  initialFromQuery,
} from '../model-pages/form-input.js';
import { mayOnObject } from '../model-pages/object-head.js';
import { createFromPage } from '../model-pages/page-writes.js';
import {
  can,
  customFieldsOf,
  modelCrumbs,
  objectPath,
  queryOf,
  sendErrorPage,
  sendModelPage,
} from '../model-pages/page-shell.js';

/** the cable's own fields on the form, in NetBox's order */
const CABLE_FIELDS = ['status', 'type', 'label', 'description', 'color', 'length', 'length_unit', 'tenant'];
/** what a port belongs to, and the filter of the port's list naming it */
const PARENTS: Array<[field: string, filter: string]> = [
  ['device', 'device_id'],
  ['circuit', 'circuit_id'],
  ['power_panel', 'power_panel_id'],
];
const SIDES = ['a', 'b'] as const;
type Side = (typeof SIDES)[number];

/** every kind a cable may end on (the keys of NetBox's compatibility table), registered ones */
function cableKinds(rc: RequestContext): ModelDef[] {
  return CABLE_END_TYPES.flatMap((n) => rc.app.registry.find(n) ?? []);
}

/** the kind's parent field and its filter (`device`, `device_id`) */
function parentOf(kind: ModelDef): { field: string; filter: string; model: string } | null {
  for (const [field, filter] of PARENTS) {
    const f = kind.fields[field];
    if (f?.kind === 'fk' && f.to && resolveFilter(kind, filter)) return { field, filter, model: f.to };
  }
  return null;
}

interface State {
  kinds: Record<Side, ModelDef>;
  values: FormValues;
  errors: FormErrors;
  top: string[];
  returnUrl: string;
}

async function sideFieldset(rc: RequestContext, side: Side, s: State): Promise<Html> {
  const kind = s.kinds[side];
  const parent = parentOf(kind);
  const parentName = `${side}_parent`;
  const portsName = `${side}_terminations`;
  const parentId = s.values.get(parentName)?.[0] ?? '';
  const controls: Html[] = [];
  if (parent) {
    const target = rc.app.registry.find(parent.model)!;
    const control = await picker(rc, {
      name: parentName,
      id: `id_${parentName}`,
      target,
      selected: parentId ? [parentId] : [],
      search: s.values.get(`${parentName}__search`)?.[0],
      required: true,
      emptyLabel: `Choose a ${target.verboseName}`,
    });
    controls.push(
      html`<div class="field"><label for="id_${parentName}">${capitalize(target.verboseName)}</label>${control ?? html`<p class="muted">You may not see any ${target.verboseNamePlural}.</p>`}</div>`,
    );
  }
  const filters: Record<string, string> = {};
  if (parent) filters[parent.filter] = parentId;
  // only free ports are offered; the API refuses an occupied one anyway
  if (resolveFilter(kind, 'cabled')) filters.cabled = 'false';
  const errors = s.errors[`${side}_terminations`] ?? [];
  const ports =
    parent && !parentId
      ? html`<p class="muted">Choose the ${parent.field.replace('_', ' ')} first.</p>`
      : await picker(rc, {
          name: portsName,
          id: `id_${portsName}`,
          target: kind,
          selected: s.values.get(portsName) ?? [],
          multiple: true,
          filters,
          depends: parent ? { [parent.filter]: parentName } : undefined,
          search: s.values.get(`${portsName}__search`)?.[0],
          required: true,
          invalid: errors.length > 0,
          describedBy: errors.length ? `err_${portsName}` : undefined,
        });
  controls.push(
    html`<div class="field"><label for="id_${portsName}">${capitalize(kind.verboseNamePlural)}</label>${ports ?? html`<p class="muted">You may not see any ${kind.verboseNamePlural}.</p>`}${
      errors.length ? html`<p class="error" id="err_${portsName}">${errors.join(' ')}</p>` : ''
    }</div>`,
  );
  return html`<fieldset class="panel"><legend>Side ${side.toUpperCase()}: ${capitalize(kind.verboseNamePlural)}</legend>
<input type="hidden" name="${side}_terminations_type" value="${kind.name}">
${controls}
${parent ? html`<p><button type="submit" name="_refresh" value="${side}">Show ports</button></p>` : ''}
</fieldset>`;
}

async function sendConnectForm(
  request: FastifyRequest,
  reply: FastifyReply,
  cable: ModelDef,
  cfs: CustomFieldDef[],
  s: State,
  status = 200,
) {
  const rc = request.rc;
  const state = (name: string) => controlState({}, s.values, s.errors, name);
  const fields: Html[] = [];
  for (const k of CABLE_FIELDS) if (cable.fields[k]) fields.push(await fieldControl(rc, k, cable.fields[k]!, state(k)));
  const custom: Html[] = [];
  for (const cf of cfs) custom.push(await customFieldControl(rc, cf, state(`cf_${cf.name}`)));
  const tag = rc.app.registry.find('extras.tag');
  const title = 'Connect a cable';
  const body = html`<h1>${title}</h1>
<form class="object-form" method="post" action="${listPath(cable)}add/">
  ${csrfField(pageContext(request, reply))}
  ${s.returnUrl ? html`<input type="hidden" name="return_url" value="${s.returnUrl}">` : ''}
  ${s.top.length ? html`<div class="alert" role="alert">${s.top.map((m) => html`<p>${m}</p>`)}</div>` : ''}
  ${await sideFieldset(rc, 'a', s)}
  ${await sideFieldset(rc, 'b', s)}
  <fieldset class="panel"><legend>Cable</legend>${fields}</fieldset>
  ${custom.length ? html`<fieldset class="panel"><legend>Custom fields</legend>${custom}</fieldset>` : ''}
  ${tag ? html`<fieldset class="panel"><legend>Tags</legend>${await fieldControl(rc, 'tags', { kind: 'm2m', to: 'extras.tag' }, state('tags'))}</fieldset>` : ''}
  <div class="form-buttons">
    <button type="submit" class="primary" name="_create" value="1">Connect</button>
    <a class="button" href="${returnTo(s.returnUrl, listPath(cable))}">Cancel</a>
  </div>
</form>`;
  return sendModelPage(request, reply, { title, crumbs: modelCrumbs(cable, { label: 'Connect' }), body, status });
}

/** no kinds named (the cable list's Add): choose what to connect to what */
async function sendKindChooser(request: FastifyRequest, reply: FastifyReply, cable: ModelDef, kinds: ModelDef[]) {
  const query = queryOf(request);
  const select = (side: Side) =>
    html`<div class="field"><label for="id_${side}_kind">Side ${side.toUpperCase()}</label><select id="id_${side}_kind" name="${side}_terminations_type">${kinds.map(
      (k) =>
        html`<option${attrs({ value: k.name, selected: query.get(`${side}_terminations_type`)?.[0] === k.name })}>${capitalize(k.verboseName)}</option>`,
    )}</select></div>`;
  const body = html`<h1>Connect a cable</h1>
<form class="object-form" method="get" action="${listPath(cable)}add/">
  <fieldset class="panel"><legend>What does the cable connect?</legend>${select('a')}${select('b')}</fieldset>
  <div class="form-buttons"><button type="submit" class="primary">Continue</button> <a class="button" href="${listPath(cable)}">Cancel</a></div>
</form>`;
  return sendModelPage(request, reply, {
    title: 'Connect a cable',
    crumbs: modelCrumbs(cable, { label: 'Connect' }),
    body,
  });
}

/** the kinds of both sides a request names, or null when one is missing; a kind no cable ends on is a 400 */
function kindsOf(rc: RequestContext, get: (name: string) => string | undefined): Record<Side, ModelDef> | null {
  const all = cableKinds(rc);
  const out: Partial<Record<Side, ModelDef>> = {};
  for (const side of SIDES) {
    const name = get(`${side}_terminations_type`);
    if (!name) return null;
    const kind = all.find((k) => k.name === name);
    if (!kind) throw Errors.badRequest(`${side}_terminations_type: a cable cannot end on "${name}".`);
    out[side] = kind;
  }
  return out as Record<Side, ModelDef>;
}

export function registerCableConnectPage(app: FastifyInstance, ctx: AppContext): void {
  const cable = ctx.registry.find('dcim.cable');
  if (!cable) return;
  const crumbs = modelCrumbs(cable, { label: 'Connect' });
  app.get('/dcim/cables/add/', async (request, reply) => {
    const rc = request.rc;
    rc.dialect = '3.4';
    try {
      if (!(await can(rc, cable)).add) throw Errors.permissionDenied();
      const query = queryOf(request);
      const kinds = kindsOf(rc, (n) => query.get(n)?.[0]);
      if (!kinds) return await sendKindChooser(request, reply, cable, cableKinds(rc));
      const cfs = await customFieldsOf(rc, cable);
      const values = initialFromQuery(cable, CABLE_FIELDS, cfs, query);
      // side A's ports from the row that opened the form, with their device chosen
      for (const side of SIDES) {
        const ids = (query.get(`${side}_terminations`) ?? []).filter((v) => /^\d{1,15}$/.test(v));
        if (!ids.length) continue;
        values.set(`${side}_terminations`, ids);
        const parent = parentOf(kinds[side]);
        if (parent) {
          const port = (await getObject(
            rc,
            kinds[side],
            Number(ids[0]),
            new Map([['brief', ['true']]]),
          )) as Represented;
          const owner = port[parent.field] as Represented | null;
          if (owner) values.set(`${side}_parent`, [String(owner.id)]);
        }
      }
      const returnUrl = query.get('return_url')?.[0] ?? '';
      return await sendConnectForm(request, reply, cable, cfs, { kinds, values, errors: {}, top: [], returnUrl });
    } catch (err) {
      return sendErrorPage(request, reply, err, crumbs);
    }
  });
  app.post('/dcim/cables/add/', async (request, reply) => {
    const rc = request.rc;
    rc.dialect = '3.4';
    try {
      if (!(await can(rc, cable)).add) throw Errors.permissionDenied();
      const posted = request.formValues ?? new Map<string, string[]>();
      const kinds = kindsOf(rc, (n) => posted.get(n)?.[0]);
      if (!kinds) throw Errors.badRequest('Both sides of the cable need a kind of port.');
      const cfs = await customFieldsOf(rc, cable);
      const values: FormValues = new Map(posted);
      const form = request.formFields ?? {};
      const state: State = { kinds, values, errors: {}, top: [], returnUrl: form.return_url ?? '' };
      // "Show ports" or a picker's search: the form again, nothing written
      if (form._refresh !== undefined || form._picker !== undefined)
        return await sendConnectForm(request, reply, cable, cfs, state);
      const { body, errors } = bodyFromForm(cable, CABLE_FIELDS, cfs, values, 'create');
      for (const side of SIDES) {
        const ids = (values.get(`${side}_terminations`) ?? []).filter((v) => v !== '');
        if (!ids.length) errors[`${side}_terminations`] = [`Choose at least one ${kinds[side].verboseName}.`];
        else if (ids.some((v) => !/^\d{1,15}$/.test(v))) errors[`${side}_terminations`] = ['Not a valid choice.'];
        else body[`${side}_terminations`] = ids.map((id) => ({ object_type: kinds[side].name, object_id: Number(id) }));
      }
      // a port the user may not change (or see) is not theirs to cable, though NetBox's API would take it
      for (const side of SIDES) {
        if (errors[`${side}_terminations`]) continue;
        const refused = [];
        for (const v of values.get(`${side}_terminations`) ?? [])
          if (!(await mayOnObject(rc, kinds[side], Number(v), 'change')))
            refused.push(`You may not change ${kinds[side].verboseName} ${v}.`);
        if (refused.length) errors[`${side}_terminations`] = refused;
      }
      if (Object.keys(errors).length)
        return await sendConnectForm(request, reply, cable, cfs, { ...state, errors }, 400);
      try {
        const id = await createFromPage(rc, cable, body as Row);
        return reply.redirect(returnTo(form.return_url, `${objectPath(cable, id)}?saved=created`), 303);
      } catch (err) {
        if (!(err instanceof ApiError) || err.statusCode !== 400) throw err;
        const names = new Set([...CABLE_FIELDS, 'a_terminations', 'b_terminations', ...cfs.map((c) => `cf_${c.name}`)]);
        const { fields, top } = errorsByInput(fieldErrors(err.body), names);
        return await sendConnectForm(request, reply, cable, cfs, { ...state, errors: fields, top }, 400);
      }
    } catch (err) {
      return sendErrorPage(request, reply, err, crumbs);
    }
  });
}
