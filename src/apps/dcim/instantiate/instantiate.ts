/**
 * Creates components from templates for many owners at once: the devices of one create request
 * (from their device types) or the modules of one install request (from their module types).
 * Per template kind: one select of the templates of every type involved, one insert of every
 * component (createDerived: change records and events included), so a bulk create of 100 devices
 * of a 48-interface type costs a few statements per kind, not one per component.
 * References between the new components (outlet -> power port, front -> rear port, inventory item
 * -> parent item and component, interface -> bridge) follow the templates' references within the
 * same owner.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../../core/context.js';
import { createDerived, updateObjects } from '../../../core/crud/write-service.js';
import type { ModelDef, Row } from '../../../core/model/types.js';
import { COMPONENT_KINDS, COMPONENT_OF_TEMPLATE, type ComponentKind, MODULE_TOKEN } from './component-kinds.js';

export interface Owner {
  /** the device type or module type whose templates apply */
  typeId: number;
  deviceId: number;
  /** modules: the new module (components get `module`), and its bay's position for `{module}` */
  moduleId: number | null;
  position: string;
  /** create components for templates (modules may say no: replicate_components) */
  replicate: boolean;
  /** take over the device's same-named components not on a module instead (adopt_components) */
  adopt: boolean;
}

/** NetBox 3.4 resolve_name() / resolve_label(): `{module}` becomes the module bay's position */
export const resolveName = (text: unknown, owner: Pick<Owner, 'moduleId' | 'position'>) =>
  owner.moduleId != null ? String(text).split(MODULE_TOKEN).join(owner.position) : String(text);

/** what was made from which template for which owner: `<template model>:<template id>:<owner index>` -> id */
type Made = Map<string, number>;
const madeKey = (template: unknown, id: unknown, owner: number) => `${String(template)}:${String(id)}:${owner}`;

/** template rows of one kind, grouped by the owning type's id */
type Templates = Map<number, Row[]>;

/**
 * The templates of every kind for the owners' types, in one statement: kind table -> type id ->
 * rows in natural name order. Rows travel as JSON (ids and numbers as JSON numbers).
 */
export async function loadTemplates(
  rc: RequestContext,
  kinds: ComponentKind[],
  parent: 'device_type_id' | 'module_type_id',
  typeIds: number[],
): Promise<Map<string, Templates>> {
  if (!kinds.length || !typeIds.length) return new Map();
  const parts = kinds.map(
    (k) => sql`select ${k.table}::text as k, to_jsonb(t) as r, t._name_natural as n, t.id
    from ${sql.table(k.table)} t where ${sql.ref(`t.${parent}`)} = any(${typeIds}::bigint[])`,
  );
  const res = await sql<{
    k: string;
    r: Row;
  }>`select k, r from (${sql.join(parts, sql` union all `)}) x order by k, n, id`.execute(rc.q);
  const out = new Map<string, Templates>();
  for (const { k, r } of res.rows) {
    const byType = out.get(k) ?? new Map<number, Row[]>();
    out.set(k, byType);
    const list = byType.get(Number(r[parent])) ?? [];
    list.push(r);
    byType.set(Number(r[parent]), list);
  }
  return out;
}

/** custom field data of a new component: every field at its default (NetBox 3.7 get_defaults_for_model) */
async function customFieldDefaults(rc: RequestContext, model: ModelDef): Promise<Row | undefined> {
  if (!model.customFields) return undefined;
  const cfs = await rc.app.customFields(rc, model.name);
  return Object.fromEntries(cfs.map((cf) => [cf.name, cf.default ?? null]));
}

const hasColumn = (model: ModelDef, column: string) =>
  column in model.fields || column.replace(/_id$/, '') in model.fields;

/** the column values of one component made from template `t` for `owner` */
function componentValues(
  kind: ComponentKind,
  model: ModelDef,
  t: Row,
  owner: Owner,
  oi: number,
  made: Made,
  cf: Row | undefined,
): Row | null {
  const values: Row = { device_id: owner.deviceId };
  if (owner.moduleId != null) values.module_id = owner.moduleId;
  if (cf) values.custom_field_data = cf;
  for (const col of kind.copy) {
    if (!hasColumn(model, col)) continue;
    values[col] = col === 'name' || col === 'label' ? resolveName(t[col], owner) : t[col];
  }
  for (const [col, template] of Object.entries(kind.refs ?? {})) {
    const id = t[col] == null ? undefined : made.get(madeKey(template, t[col], oi));
    // a required reference made nothing (a rear port neither replicated nor adopted): no component
    if (id === undefined && !model.fields[col.replace(/_id$/, '')]?.nullable) return null;
    values[col] = id ?? null;
  }
  return values;
}

/** Existing components of the owners' devices not on a module, by `<device id>:<name>` (adoption). */
async function adoptable(rc: RequestContext, model: ModelDef, owners: Owner[]): Promise<Map<string, number>> {
  const devices = [...new Set(owners.filter((o) => o.adopt).map((o) => o.deviceId))];
  if (!devices.length) return new Map();
  const res = await sql<{
    id: number;
    device_id: number;
    name: string;
  }>`select id, device_id, name from ${sql.table(model.table)}
    where device_id = any(${devices}::bigint[]) and module_id is null`.execute(rc.q);
  return new Map(res.rows.map((r) => [`${r.device_id}:${r.name}`, Number(r.id)]));
}

/** One kind for every owner: adopt what may be adopted, create the rest in one batch. */
async function instantiateKind(
  rc: RequestContext,
  kind: ComponentKind,
  owners: Owner[],
  templates: Templates,
  made: Made,
) {
  const model = rc.app.registry.get(kind.component);
  const cf = await customFieldDefaults(rc, model);
  const existing = await adoptable(rc, model, owners);
  const create: Array<{ key: string; values: Row }> = [];
  const adopted: Array<{ id: number; module: number }> = [];
  owners.forEach((owner, oi) => {
    for (const t of templates.get(owner.typeId) ?? []) {
      const key = madeKey(kind.template, t.id, oi);
      const found = owner.adopt ? existing.get(`${owner.deviceId}:${resolveName(t.name, owner)}`) : undefined;
      if (found !== undefined) {
        adopted.push({ id: found, module: owner.moduleId! });
        made.set(key, found);
        continue;
      }
      if (!owner.replicate) continue;
      const values = componentValues(kind, model, t, owner, oi, made, cf);
      if (values) create.push({ key, values });
    }
  });
  const rows = await createDerived(
    rc,
    model,
    create.map((c) => c.values),
  );
  rows.forEach((r, i) => made.set(create[i]!.key, Number(r.id)));
  // NetBox Module.save(): adopted components get the module (post_save: an update each)
  if (adopted.length) await updateObjects(rc, model, adopted, 'update', true, { followUp: true });
}

/**
 * Inventory items (NetBox creates them one by one for MPTT): here one batch per tree level, each
 * item under the item made from its template's parent, naming the component made from its
 * template's component.
 */
async function instantiateInventory(
  rc: RequestContext,
  kind: ComponentKind,
  owners: Owner[],
  templates: Templates,
  made: Made,
) {
  const model = rc.app.registry.get(kind.component);
  const cf = await customFieldDefaults(rc, model);
  const all = [...templates.values()].flat();
  const byId = new Map(all.map((t) => [Number(t.id), t]));
  const depth = (t: Row): number =>
    t.parent_id == null ? 0 : 1 + depth(byId.get(Number(t.parent_id)) ?? { parent_id: null });
  const levels = [...new Set(all.map(depth))].sort((a, b) => a - b);
  for (const level of levels) {
    const create: Array<{ key: string; values: Row }> = [];
    owners.forEach((owner, oi) => {
      for (const t of (templates.get(owner.typeId) ?? []).filter((x) => depth(x) === level)) {
        const values = componentValues(kind, model, t, owner, oi, made, cf)!;
        values.parent_id = t.parent_id == null ? null : (made.get(madeKey(kind.template, t.parent_id, oi)) ?? null);
        const component =
          t.component_type == null ? undefined : made.get(madeKey(t.component_type, t.component_id, oi));
        values.component_type = component === undefined ? null : COMPONENT_OF_TEMPLATE.get(String(t.component_type))!;
        values.component_id = component ?? null;
        create.push({ key: madeKey(kind.template, t.id, oi), values });
      }
    });
    const rows = await createDerived(
      rc,
      model,
      create.map((c) => c.values),
    );
    rows.forEach((r, i) => made.set(create[i]!.key, Number(r.id)));
  }
}

/** NetBox 3.7 update_interface_bridges(): each new interface bridged as its template is */
async function bridgeInterfaces(rc: RequestContext, owners: Owner[], templates: Templates, made: Made) {
  const updates: Array<{ id: number; bridge: number }> = [];
  owners.forEach((owner, oi) => {
    for (const t of templates.get(owner.typeId) ?? []) {
      if (t.bridge_id == null) continue;
      const id = made.get(madeKey('dcim.interfacetemplate', t.id, oi));
      const bridge = made.get(madeKey('dcim.interfacetemplate', t.bridge_id, oi));
      if (id !== undefined && bridge !== undefined) updates.push({ id, bridge });
    }
  });
  if (updates.length)
    await updateObjects(rc, rc.app.registry.get('dcim.interface'), updates, 'update', true, { followUp: true });
}

/**
 * Instantiates the components of every owner: `device_type_id` for new devices (every kind),
 * `module_type_id` for new modules (the modular kinds).
 */
export async function instantiateComponents(
  rc: RequestContext,
  owners: Owner[],
  parent: 'device_type_id' | 'module_type_id',
): Promise<void> {
  if (!owners.length) return;
  const typeIds = [...new Set(owners.map((o) => o.typeId))];
  // a kind whose models are not registered has nothing to make
  const kinds = COMPONENT_KINDS.filter(
    (k) =>
      (parent === 'device_type_id' || k.modular) &&
      rc.app.registry.find(k.template) &&
      rc.app.registry.find(k.component),
  );
  const all = await loadTemplates(rc, kinds, parent, typeIds);
  const made: Made = new Map();
  for (const kind of kinds) {
    const templates = all.get(kind.table);
    if (!templates) continue;
    if (kind.component === 'dcim.inventoryitem') await instantiateInventory(rc, kind, owners, templates, made);
    else await instantiateKind(rc, kind, owners, templates, made);
    if (kind.component === 'dcim.interface') await bridgeInterfaces(rc, owners, templates, made);
  }
}
