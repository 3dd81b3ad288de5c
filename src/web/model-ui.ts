/**
 * A model's web hints (core/model/ui-hints.ts) with the defaults filled in, so that every
 * registered model has pages whether or not its declaration says anything: list columns, field
 * groups, clone fields, picker filters and related-object counts. Resolved once per model.
 */
import type { FieldDef, ModelDef, UiGroup, UiRelated, UiTab } from '../core/model/types.js';
import type { Registry } from '../core/model/registry.js';
import { capitalize } from './labels.js';

export interface ResolvedUi {
  columns: string[];
  /** every column a user may choose: representation keys the table can show */
  selectable: string[];
  groups: UiGroup[];
  clone: string[];
  pickerFilters: Record<string, Record<string, string>>;
  related: UiRelated[];
  /** the fields of the add and edit forms, in group order */
  formFields: string[];
  /** the key in userconfig where a user's columns are kept (NetBox: tables.<Table>.columns) */
  tableKey: string;
  /** component models the list's "Add components" makes (ModelUi.components), registered ones only */
  components: ModelDef[];
  /** per writable fk and m2m field, the target's attribute an import names it by (`id`: by id only) */
  importRefs: Record<string, string>;
  /** the object page's related-list tabs (ModelUi.tabs) whose model is registered */
  tabs: Array<UiTab & { target: ModelDef }>;
}

/** fields shown on their own (tags and comments panels), never in a group or a column list's default */
const OWN_PANELS = new Set(['tags', 'comments', 'custom_fields']);
/** kinds that hold no single value a cell or input can show */
const NO_CELL = new Set(['json', 'password']);

const resolved = new WeakMap<ModelDef, ResolvedUi>();

export function uiOf(registry: Registry, model: ModelDef): ResolvedUi {
  let ui = resolved.get(model);
  if (!ui) resolved.set(model, (ui = resolve(registry, model)));
  return ui;
}

/** writable on a form: stored or m2m, not read-only, not a derived or secret field */
function isFormField(key: string, f: FieldDef): boolean {
  if ((f.readOnly && !f.pageWrite) || f.kind === 'computed' || f.kind === 'generic') return false;
  if (OWN_PANELS.has(key) && key !== 'comments') return false;
  return key !== 'id';
}

function resolve(registry: Registry, model: ModelDef): ResolvedUi {
  const hints = model.ui ?? {};
  // the pages show the fields of both dialects under their keys (model-pages/index.ts, README.md)
  const fields = Object.entries(model.fields);
  const shown = fields.filter(([k, f]) => !f.writeOnly && !NO_CELL.has(f.kind) && !OWN_PANELS.has(k)).map(([k]) => k);
  const selectable = [
    'id',
    ...shown,
    ...Object.keys(model.counts),
    ...(model.tags ? ['tags'] : []),
    ...(model.timestamps ? ['created', 'last_updated'] : []),
  ];
  const columns = hints.columns ?? defaultColumns(model, shown);
  const exclude = new Set(hints.formExclude ?? []);
  const writable = fields.filter(([k, f]) => isFormField(k, f) && !exclude.has(k) && k !== 'comments').map(([k]) => k);
  const groups = withRest(
    hints.groups ?? [{ title: capitalize(model.verboseName), fields: writable }],
    writable,
    model,
  );
  return {
    columns,
    selectable: [...new Set([...selectable, ...columns])],
    groups,
    clone: hints.clone ?? [],
    pickerFilters: hints.pickerFilters ?? {},
    related: hints.related ?? defaultRelated(registry, model),
    formFields: [
      ...groups.flatMap((g) => g.fields).filter((k) => writable.includes(k)),
      ...('comments' in model.fields && !exclude.has('comments') ? ['comments'] : []),
    ],
    tableKey: `tables.${model.schemaName ?? pascal(model.verboseName)}Table.columns`,
    components: (hints.components ?? []).flatMap((name) => registry.find(name) ?? []),
    importRefs: importRefsOf(registry, model, fields),
    tabs: (hints.tabs ?? []).flatMap((t) => {
      const target = registry.find(t.model);
      return target ? [{ ...t, target }] : [];
    }),
  };
}

/** NetBox's import names a related object by its `name` (tags by slug), else `slug`, else by id, unless hinted */
function importRefsOf(registry: Registry, model: ModelDef, fields: Array<[string, FieldDef]>): Record<string, string> {
  const hinted = model.ui?.importRefs ?? {};
  const out: Record<string, string> = {};
  for (const [key, f] of fields) {
    if ((f.kind !== 'fk' && f.kind !== 'm2m') || !f.to || f.readOnly) continue;
    const target = registry.find(f.to);
    if (!target) continue;
    out[key] = hinted[key] ?? (f.to === 'extras.tag' ? 'slug' : defaultImportAttr(target));
  }
  return out;
}

/** the attribute an import names objects of `target` by when nothing says otherwise: name, else slug, else id */
export function defaultImportAttr(target: ModelDef): string {
  return ['name', 'slug'].find((k) => target.fields[k] && !target.fields[k]!.readOnly) ?? 'id';
}

/** the identifying field, its status, then its foreign keys and description: NetBox's usual order */
function defaultColumns(model: ModelDef, shown: string[]): string[] {
  const first = ['name', 'display'].find((k) => k === 'display' || shown.includes(k))!;
  const f = model.fields;
  const fks = shown.filter((k) => f[k]!.kind === 'fk').slice(0, 4);
  const rest = ['status', ...fks, 'description'].filter((k) => k in f && shown.includes(k) && k !== first);
  return [first, ...new Set(rest)];
}

/** the hinted groups, then what they leave out (so every writable field is on the form) */
function withRest(groups: UiGroup[], writable: string[], model: ModelDef): UiGroup[] {
  const named = new Set(groups.flatMap((g) => g.fields));
  const rest = writable.filter((k) => !named.has(k));
  const out = groups.map((g) => ({ title: g.title, fields: g.fields.filter((k) => k in model.fields) }));
  if (rest.length) out.push({ title: out.length ? '' : capitalize(model.verboseName), fields: rest });
  return out.filter((g) => g.fields.length);
}

/** every model with an fk here whose list filters by it (`<fk>_id`) */
function defaultRelated(registry: Registry, model: ModelDef): UiRelated[] {
  const out: UiRelated[] = [];
  for (const other of registry.all()) {
    for (const [key, f] of Object.entries(other.fields)) {
      if (f.kind === 'fk' && f.to === model.name && !f.noFilter && other.name !== model.name) {
        out.push({ model: other.name, param: `${key}_id` });
        break;
      }
    }
  }
  return out;
}

function pascal(text: string): string {
  return text
    .split(/[^A-Za-z0-9]+/)
    .map((w) => capitalize(w))
    .join('');
}
