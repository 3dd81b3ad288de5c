/**
 * Device types and module types as device-type library documents, with their component
 * templates: what import-types.ts takes, so an export imports again. Fields are written as the
 * import names them (choices by value, related objects by name, templates of the type by name);
 * empty values and a field's default are left out, as the library's files leave them out.
 */
import { stringify } from 'yaml';
import { hasPermission } from '../../../core/auth/permissions.js';
import type { RequestContext } from '../../../core/context.js';
import { type ChunkedList, listInChunks } from '../../../core/crud/list-chunks.js';
import type { ModelDef } from '../../../core/model/types.js';
import type { Params } from '../../../core/query/filters.js';
import { listsOf, parentField } from './library-keys.js';

type Doc = Record<string, unknown>;

/** what a template's representation shows that a document does not hold */
const NOT_WRITTEN = new Set([
  'id',
  'url',
  'display',
  'device_type',
  'module_type',
  'created',
  'last_updated',
  '_depth',
]);

/** a represented value as the import takes it: a choice's value, a related object's name */
function plain(v: unknown): unknown {
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Doc;
    if ('value' in o && 'label' in o) return o.value;
    if ('id' in o) return o.name ?? o.model ?? o.display;
  }
  return v;
}

/** the fields of a represented row worth writing: set, not the default, written by the import */
function fieldsOf(model: ModelDef, row: Doc, skip: ReadonlySet<string>): Doc {
  const out: Doc = {};
  for (const [key, field] of Object.entries(model.fields)) {
    if (skip.has(key) || field.readOnly || field.kind === 'computed' || field.kind === 'generic') continue;
    const v = plain(row[key]);
    if (v === null || v === undefined || v === '' || (Array.isArray(v) && !v.length)) continue;
    if (field.default !== undefined && v === field.default) continue;
    out[key] = v;
  }
  return out;
}

/** a template as a list item; an inventory item's parent and component by name */
function itemOf(model: ModelDef, row: Doc, namesById: Map<number, string>): Doc {
  const item = fieldsOf(model, row, new Set([...NOT_WRITTEN, 'parent', 'component_id']));
  if (row.parent != null) item.parent = namesById.get(Number(row.parent));
  const component = row.component as Doc | null | undefined;
  if (component && typeof component === 'object') item.component_name = component.name;
  return item;
}

/** the templates of `typeIds`, by type id and list key */
async function templatesOf(rc: RequestContext, model: ModelDef, typeIds: number[]) {
  const byType = new Map<number, Map<string, Doc[]>>();
  const parent = parentField(model.name);
  for (const list of listsOf(model.name)) {
    const tpl = rc.app.registry.get(list.model);
    // a kind the user may not view is left out, as its list would show nothing
    if (!(await hasPermission(rc, tpl, 'view'))) continue;
    const params: Params = new Map([[`${parent.replace('_', '')}_id`, typeIds.map(String)]]);
    const rows: Doc[] = [];
    for await (const chunk of (await listInChunks(rc, tpl, params)).chunks()) rows.push(...chunk);
    // an inventory item's parent comes before it, as the import makes them in order
    rows.sort((a, b) => Number(a._depth ?? 0) - Number(b._depth ?? 0));
    const names = new Map(rows.map((r) => [Number(r.id), String(r.name)]));
    for (const row of rows) {
      const typeId = Number((row[parent] as Doc).id);
      const lists = byType.get(typeId) ?? new Map<string, Doc[]>();
      byType.set(typeId, lists);
      lists.set(list.key, [...(lists.get(list.key) ?? []), itemOf(tpl, row, names)]);
    }
  }
  return byType;
}

/**
 * The types the list's `params` select, one YAML document each (`---` between them). The list is
 * read here, so a refused view or a bad filter fails before anything is sent.
 */
export async function typeLibraryExport(
  rc: RequestContext,
  model: ModelDef,
  params: Params,
): Promise<AsyncGenerator<string>> {
  return documents(rc, model, await listInChunks(rc, model, params));
}

async function* documents(rc: RequestContext, model: ModelDef, list: ChunkedList): AsyncGenerator<string> {
  let first = true;
  for await (const types of list.chunks()) {
    const templates = await templatesOf(
      rc,
      model,
      types.map((t) => Number(t.id)),
    );
    for (const type of types) {
      const doc: Doc = { manufacturer: plain(type.manufacturer), ...fieldsOf(model, type, NOT_WRITTEN) };
      for (const [key, items] of templates.get(Number(type.id)) ?? []) doc[key] = items;
      yield `${first ? '' : '---\n'}${stringify(doc)}`;
      first = false;
    }
  }
}
