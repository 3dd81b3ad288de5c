import type { FieldDef, ModelDef, ModelInput } from './types.js';

/** Fills a declaration's defaults; the result is frozen. */
export function defineModel(input: ModelInput): ModelDef {
  const [app, model] = input.name.split('.');
  if (!app || !model) throw new Error(`model name must be app.model: ${input.name}`);
  const fields = input.fields;
  for (const [key, f] of Object.entries(fields)) {
    if ((f.kind === 'fk' || f.kind === 'm2m') && !f.to) throw new Error(`${input.name}.${key}: ${f.kind} needs 'to'`);
    if (f.kind === 'choice' && !f.choices) throw new Error(`${input.name}.${key}: choice needs 'choices'`);
    if (f.kind === 'generic' && !(f.generic && fields[f.generic.type] && fields[f.generic.id])) {
      throw new Error(`${input.name}.${key}: generic needs its type and id fields declared`);
    }
  }
  const def: ModelDef = {
    tags: true,
    customFields: true,
    changelog: true,
    timestamps: true,
    counts: {},
    uniqueTogether: [],
    readOnly: false,
    hooks: {},
    filters: {},
    search: ['name' in fields ? 'name' : 'id', ...('description' in fields ? ['description'] : [])].filter(
      (s) => s !== 'id',
    ),
    display: (row) => String(row.name ?? row.id),
    verboseNamePlural: `${input.verboseName}s`,
    table: `${app}_${model}`,
    ...input,
    app,
    model,
  };
  def.naturalKey ??= 'slug' in fields ? 'slug' : 'name' in fields ? 'name' : undefined;
  def.nested ??= def.brief.filter((f) => !(f in def.counts));
  return Object.freeze(def);
}

/** Column that stores a field (foreign keys as `<name>_id`, as NetBox/Django name them). */
export function columnOf(key: string, f: FieldDef): string {
  return f.kind === 'fk' ? `${key}_id` : key;
}

/** The models a generic relation may point at, as its content type field lists them (undefined: any model). */
export function genericTargets(model: ModelDef, f: FieldDef): string[] | undefined {
  return model.fields[f.generic!.type]?.types;
}

/** Fields stored in the model's own table. */
export function storedFields(model: ModelDef): Array<[string, FieldDef]> {
  return Object.entries(model.fields).filter(
    ([, f]) => f.kind !== 'm2m' && f.kind !== 'computed' && f.kind !== 'generic' && !f.notStored,
  );
}
