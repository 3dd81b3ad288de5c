/**
 * Device types and module types from device-type library documents (NetBox 4.4's YAML import of
 * device types and module types; the community devicetype-library's files): each document makes
 * the type, by its manufacturer's name or slug, and all its component templates, through the
 * write path (permissions, validation, change records, events), every document in ONE
 * transaction: all or nothing. A failing key is named (`interfaces[3].type`) and nothing is kept.
 */
import { sql } from 'kysely';
import { requirePermission } from '../../../core/auth/permissions.js';
import { preloadForWrite } from '../../../core/cache/write-preload.js';
import type { RequestContext } from '../../../core/context.js';
import { inTransaction } from '../../../core/crud/routes.js';
import { createObjects, updateObjects } from '../../../core/crud/write-service.js';
import type { ModelDef, Row } from '../../../core/model/types.js';
import { renderWritten } from '../../../core/represent/render-written.js';
import { at, fail, type KeyedErrors, keyedWrite, LibraryInvalid } from './library-errors.js';
import { type ComponentList, LIBRARY_ONLY_KEYS, listsOf, parentField, TYPE_LIBRARY_MODELS } from './library-keys.js';

type Doc = Record<string, unknown>;

export interface TypeLibraryResult {
  /** the types made, as the API represents them (a dry run's too: represented, then rolled back) */
  rows: Row[];
  /** by key (`interfaces[3].type`); empty when every document was taken */
  errors: KeyedErrors;
}

class DryRun extends Error {
  constructor(readonly rows: Row[]) {
    super('dry run');
  }
}

const isDoc = (v: unknown): v is Doc => typeof v === 'object' && v !== null && !Array.isArray(v);

export function isTypeLibraryModel(model: ModelDef): boolean {
  return TYPE_LIBRARY_MODELS.has(model.name);
}

/**
 * Makes the types `docs` describe (device types or module types, as `model` is), or none of them.
 * `dryRun`: everything is written and checked, then rolled back. A refused permission is thrown
 * (403), as the write path throws it; invalid documents come back as `errors`.
 */
export async function importTypeLibrary(
  rc: RequestContext,
  model: ModelDef,
  docs: unknown[],
  opts: { dryRun: boolean },
): Promise<TypeLibraryResult> {
  if (!isTypeLibraryModel(model)) throw new Error(`${model.name} has no device-type library documents`);
  // refused before any document is read, as NetBox's import view checks the add permission first
  await requirePermission(rc, model, 'add');
  try {
    const rows = await inTransaction(await preloadForWrite(rc, model), async (trx) => {
      const made: Row[] = [];
      for (const [i, doc] of docs.entries())
        made.push(await importOne(trx, model, doc, docs.length > 1 ? `[${i}]` : ''));
      const out = await renderWritten(trx, model, made, { created: true });
      if (opts.dryRun) throw new DryRun(out);
      return out;
    });
    return { rows, errors: {} };
  } catch (err) {
    if (err instanceof DryRun) return { rows: err.rows, errors: {} };
    if (err instanceof LibraryInvalid) return { rows: [], errors: err.errors };
    throw err;
  }
}

/** NetBox's import form finds the manufacturer by name; the library's files are also read by slug */
async function manufacturerId(rc: RequestContext, value: unknown, key: string): Promise<number> {
  if (value === undefined || value === null || value === '') fail(key, 'This field is required.');
  const table = sql.table(rc.app.registry.get('dcim.manufacturer').table);
  const text = String(value);
  const res = await sql<{ id: number }>`select id from ${table}
    where name = ${text} or slug = ${text} order by (name = ${text}) desc, id limit 1`.execute(rc.q);
  if (!res.rows.length) fail(key, `Manufacturer "${text}" not found.`);
  return Number(res.rows[0]!.id);
}

async function importOne(rc: RequestContext, model: ModelDef, doc: unknown, prefix: string): Promise<Row> {
  if (!isDoc(doc)) fail(prefix || 'non_field_errors', 'Expected a dictionary of the type and its components.');
  const lists = listsOf(model.name);
  const listKeys = new Set(lists.map((l) => l.key));
  for (const key of Object.keys(doc))
    if (key.includes('-') && !listKeys.has(key))
      fail(at(prefix, key), `A ${model.verboseName} has no such component list.`);
  const body: Doc = {};
  for (const [k, v] of Object.entries(doc)) if (!listKeys.has(k) && !LIBRARY_ONLY_KEYS.has(k)) body[k] = v;
  body.manufacturer = await manufacturerId(rc, doc.manufacturer, at(prefix, 'manufacturer'));
  const [type] = await keyedWrite(prefix, () => createObjects(rc, model, [body], false));
  const made = new Map<string, Map<string, number>>();
  for (const list of lists) {
    const items = doc[list.key];
    if (items === undefined || items === null) continue;
    const key = at(prefix, list.key);
    if (!Array.isArray(items)) fail(key, 'Expected a list of items.');
    items.forEach((item, i) => {
      if (!isDoc(item)) fail(`${key}[${i}]`, 'Expected a dictionary.');
    });
    made.set(
      list.key,
      await createList(rc, list, items as Doc[], key, Number(type!.id), parentField(model.name), made),
    );
  }
  return type!;
}

/** the templates of one list; their ids by name */
async function createList(
  rc: RequestContext,
  list: ComponentList,
  items: Doc[],
  key: string,
  typeId: number,
  parent: string,
  made: Map<string, Map<string, number>>,
): Promise<Map<string, number>> {
  const model = rc.app.registry.get(list.model);
  const byName = new Map<string, number>();
  const named = (listKey: string, i: number, field: string, value: unknown): number => {
    const id = (listKey === list.key ? byName : made.get(listKey))?.get(String(value));
    if (id === undefined)
      fail(
        `${key}[${i}].${field}`,
        `No ${listKey.replace(/s$/, '').replace('-', ' ')} named "${String(value)}" in this type.`,
      );
    return id;
  };
  const bodyOf = (item: Doc, i: number): Doc => {
    const body: Doc = { ...item, [parent]: typeId };
    for (const [field, listKey] of Object.entries(list.refs ?? {}))
      if (listKey !== list.key && item[field] != null && item[field] !== '')
        body[field] = named(listKey, i, field, item[field]);
    if (list.key === 'inventory-items') inventoryRefs(body, item, i, key, made);
    return body;
  };
  const selfRef = Object.entries(list.refs ?? {}).find(([, listKey]) => listKey === list.key)?.[0];
  if (list.key === 'inventory-items') {
    // a parent comes before its children: one at a time, each finding the ones made before it
    for (const [i, item] of items.entries()) {
      const body = bodyOf(item, i);
      if (item.parent != null && item.parent !== '') body.parent = named(list.key, i, 'parent', item.parent);
      else delete body.parent;
      const [row] = await keyedWrite(`${key}[${i}]`, () => createObjects(rc, model, [body], false));
      byName.set(String(item.name), Number(row!.id));
    }
    return byName;
  }
  // a bridge may name an interface after it: all are made first, then the bridges set
  const bodies = items.map((item, i) => {
    const body = bodyOf(item, i);
    if (selfRef) delete body[selfRef];
    return body;
  });
  const rows = await keyedWrite(key, () => createObjects(rc, model, bodies, true));
  rows.forEach((row, i) => byName.set(String(items[i]!.name), Number(row.id)));
  if (selfRef) {
    const updates = items.flatMap((item, i) =>
      item[selfRef] != null && item[selfRef] !== ''
        ? [{ id: Number(rows[i]!.id), [selfRef]: named(list.key, i, selfRef, item[selfRef]) }]
        : [],
    );
    if (updates.length) await keyedWrite(key, () => updateObjects(rc, model, updates, 'update', true));
  }
  return byName;
}

const COMPONENT_TYPE_LISTS: Record<string, string> = {
  'dcim.consoleporttemplate': 'console-ports',
  'dcim.consoleserverporttemplate': 'console-server-ports',
  'dcim.powerporttemplate': 'power-ports',
  'dcim.poweroutlettemplate': 'power-outlets',
  'dcim.interfacetemplate': 'interfaces',
  'dcim.rearporttemplate': 'rear-ports',
  'dcim.frontporttemplate': 'front-ports',
};

/** an inventory item's role and manufacturer by name, and the component template it names by type and name */
function inventoryRefs(body: Doc, item: Doc, i: number, key: string, made: Map<string, Map<string, number>>) {
  for (const field of ['role', 'manufacturer'])
    if (typeof item[field] === 'string' && item[field] !== '') body[field] = { name: item[field] };
  delete body.component_name;
  if (item.component_type == null && item.component_name == null) return;
  const listKey = COMPONENT_TYPE_LISTS[String(item.component_type)];
  const id = listKey ? made.get(listKey)?.get(String(item.component_name)) : undefined;
  if (id === undefined)
    fail(
      `${key}[${i}].component_name`,
      `No ${String(item.component_type)} named "${String(item.component_name)}" in this type.`,
    );
  body.component_id = id;
}
