/**
 * JSON Schemas (OpenAPI 3.0 dialect) of a model's representations and request bodies, derived from
 * its declaration the way render.ts and prepare.ts treat each field kind. The contract suite
 * validates every response against these, so a change in rendering that is not declared fails there.
 */
import type { Registry } from '../model/registry.js';
import { genericTargets } from '../model/define-model.js';
import type { FieldDef, ModelDef, Shape } from '../model/types.js';
import { planRender, type Mode } from '../represent/plan.js';
import { type Dialect, hasIn, servedIn, shownIn, wireName } from '../model/dialect.js';
import { writeExtras } from './request-mechanics.js';

export type Schema = Record<string, unknown>;

/** Component names of a model's schemas, after drf-spectacular's (NetBox 3.5+). */
export const SCHEMA_NAMES = {
  full: (n: string) => n,
  brief: (n: string) => `Brief${n}`,
  nested: (n: string) => `Nested${n}`,
  writable: (n: string) => `Writable${n}Request`,
  patched: (n: string) => `PatchedWritable${n}Request`,
  paginated: (n: string) => `Paginated${n}List`,
};

/** `IP address` -> `IPAddress`: words capitalised, acronyms kept. */
export function componentName(model: ModelDef): string {
  if (model.schemaName) return model.schemaName;
  return model.verboseName
    .split(/\s+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });

/** Only null (OpenAPI 3.0 has no null type; `nullable` needs a type beside it). */
const NULL: Schema = { type: 'object', nullable: true, enum: [null] };

/**
 * The schema, or null. OpenAPI 3.0.3 gives `nullable` a meaning only beside `type`, so a reference
 * or a union becomes `anyOf: [..., NULL]` (generators read it as `X | null`).
 */
export function nullable(schema: Schema): Schema {
  // an enum must list null itself to admit it (OpenAPI 3.0.3)
  if (typeof schema.type === 'string')
    return { ...schema, nullable: true, ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}) };
  if (Array.isArray(schema.anyOf) && Object.keys(schema).length === 1) return { anyOf: [...schema.anyOf, NULL] };
  return { anyOf: [schema, NULL] };
}

const maybeNull = (f: FieldDef, schema: Schema) => (f.nullable ? nullable(schema) : schema);

/** Replaces `{ $model, form? }` markers of a declared shape with references to components. */
export function resolveShape(registry: Registry, shape: Shape): Schema {
  if (Array.isArray(shape))
    return shape.map((s) => (typeof s === 'object' && s ? resolveShape(registry, s) : s)) as unknown as Schema;
  if (typeof shape.$model === 'string') {
    const { $model, form, ...rest } = shape as {
      $model: string;
      form?: keyof typeof SCHEMA_NAMES;
      [k: string]: unknown;
    };
    const target = ref(SCHEMA_NAMES[form ?? 'nested'](componentName(registry.get($model))));
    return rest.nullable ? nullable(target) : target;
  }
  const out: Schema = {};
  for (const [k, v] of Object.entries(shape))
    out[k] = typeof v === 'object' && v !== null ? resolveShape(registry, v as Shape) : v;
  // a nullable schema without a type of its own (a union of models) is written as anyOf with null
  if (out.nullable && typeof out.type === 'string' && Array.isArray(out.enum) && !out.enum.includes(null))
    out.enum = [...out.enum, null];
  if (out.nullable && typeof out.type !== 'string') {
    const rest = { ...out };
    delete rest.nullable;
    return nullable(rest);
  }
  return out;
}

/** `{value, label}` of a choice field (reference 2, Choice fields). */
export function choiceSchema(f: FieldDef): Schema {
  const set = f.choices!;
  return {
    type: 'object',
    properties: {
      value: { type: set.numeric ? 'integer' : 'string', enum: set.choices.map((c) => c.value) },
      label: { type: 'string' },
    },
    required: ['value', 'label'],
    additionalProperties: false,
  };
}

function scalar(f: FieldDef): Schema | null {
  switch (f.kind) {
    case 'string':
    case 'text':
    case 'slug':
    case 'password':
      return { type: 'string', ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}) };
    case 'ipaddress':
    case 'ipprefix':
    case 'mac':
      return { type: 'string' };
    case 'integer':
      return {
        type: 'integer',
        ...(f.min !== undefined ? { minimum: f.min } : {}),
        ...(f.max !== undefined ? { maximum: f.max } : {}),
      };
    case 'decimal':
      return {
        type: 'number',
        ...(f.min !== undefined ? { minimum: f.min } : {}),
        ...(f.max !== undefined ? { maximum: f.max } : {}),
      };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date' };
    case 'datetime':
      return { type: 'string', format: 'date-time' };
    case 'strings':
      return { type: 'array', items: { type: 'string' } };
    case 'integers':
      return { type: 'array', items: { type: 'integer' } };
    case 'contenttype':
      return { type: 'string', ...(f.types ? { enum: f.types } : {}) };
    case 'json':
      return {};
    default:
      return null;
  }
}

const nestedRef = (registry: Registry, to: string) => ref(SCHEMA_NAMES.nested(componentName(registry.get(to))));

/** whether a model named by a field is served in the dialect (a name the registry lacks is kept as declared) */
function servedType(registry: Registry, type: string, dialect: Dialect): boolean {
  const m = registry.find(type);
  return !m || servedIn(m, dialect);
}

/** The schema of one field's rendered value in a form. */
function fieldSchema(
  registry: Registry,
  model: ModelDef,
  key: string,
  f: FieldDef,
  form: Mode,
  dialect: Dialect,
): Schema {
  // shapeIn describes NetBox 3.4's brief and nested forms (a cable as its id); 4.4's nest it as the full form does
  const declared =
    (form === 'full' ? f.shapeInDialect?.[dialect] : undefined) ??
    (form !== 'full' && dialect === '3.4' ? f.shapeIn?.[form as 'brief' | 'nested'] : undefined) ??
    f.shape;
  if (declared) return resolveShape(registry, declared);
  switch (f.kind) {
    case 'choice':
      return f.blank || f.nullable ? nullable(choiceSchema(f)) : choiceSchema(f);
    case 'fk':
      return maybeNull(f, nestedRef(registry, f.to!));
    case 'm2m':
      return { type: 'array', items: f.slugField ? { type: 'string' } : nestedRef(registry, f.to!) };
    case 'generic': {
      // only the types this dialect serves: a 3.4 document has no schema of a NetBox 4 model (an
      // event rule's notification group)
      const types = genericTargets(model, f)?.filter((t) => servedType(registry, t, dialect));
      const any = types
        ? { anyOf: types.map((t) => nestedRef(registry, t)) }
        : { type: 'object', additionalProperties: true };
      return nullable(any);
    }
    case 'computed':
      throw new Error(
        `${model.name}.${key}: a computed field declares its shape (FieldDef.shape) for the OpenAPI document`,
      );
    case 'contenttype':
      return maybeNull(f, {
        type: 'string',
        ...(f.types ? { enum: f.types.filter((t) => servedType(registry, t, dialect)) } : {}),
      });
    default: {
      const s = scalar(f)!;
      return f.kind === 'json' ? s : maybeNull(f, s);
    }
  }
}

const TAGS_SCHEMA = (registry: Registry) => ({ type: 'array', items: nestedRef(registry, 'extras.tag') });

/** The schema of a model's full, brief or nested representation. */
export function representationSchema(
  registry: Registry,
  model: ModelDef,
  form: Mode,
  dialect: Dialect = '3.4',
): Schema {
  const properties: Record<string, Schema> = { id: { type: 'integer' }, url: { type: 'string', format: 'uri' } };
  const plan = planRender(model, form, { dialect });
  if (plan.withDisplayUrl) properties.display_url = { type: 'string', format: 'uri' };
  if (!(form === 'brief' && dialect === '3.4' && model.briefWithoutDisplay)) properties.display = { type: 'string' };
  const optional = new Set<string>();
  plan.keys.forEach((k, i) => {
    const f = model.fields[k];
    const name = plan.names[i]!;
    if (f) {
      properties[name] = fieldSchema(registry, model, k, f, form, dialect);
      if (f.omittable || f.excludable) optional.add(name);
    } else if (k === '_depth' || k in model.counts) properties[name] = { type: 'integer' };
    else if (model.timestamps && (k === 'created' || k === 'last_updated')) properties[name] = timestampSchema(k);
    else if (model.represented?.[k]) properties[name] = resolveShape(registry, model.represented[k]!);
    else
      throw new Error(
        `${model.name}: the ${dialect} ${form} form names ${k}, which is neither a field nor declared in 'represented'`,
      );
  });
  if (plan.withTags) properties.tags = TAGS_SCHEMA(registry);
  if (plan.withCustomFields) properties.custom_fields = { type: 'object', additionalProperties: true };
  if (form === 'full' && model.timestamps) {
    properties.created = timestampSchema('created');
    properties.last_updated = timestampSchema('last_updated');
  }
  for (const k of plan.countKeys) properties[k] = { type: 'integer' };
  if (plan.withDepth) properties._depth = { type: 'integer' };
  return {
    type: 'object',
    properties,
    required: Object.keys(properties).filter((k) => !optional.has(k)),
    additionalProperties: false,
  };
}

/** spec: created is a plain date, last_updated an ISO 8601 UTC timestamp */
function timestampSchema(key: 'created' | 'last_updated'): Schema {
  return nullable({ type: 'string', format: key === 'created' ? 'date' : 'date-time' });
}

/** How a field is written (prepare.ts, resolve-related.ts): related objects by id or attributes. */
function writableFieldSchema(f: FieldDef): Schema | null {
  const byIdOrAttributes = { anyOf: [{ type: 'integer' }, { type: 'object', additionalProperties: true }] };
  switch (f.kind) {
    case 'fk':
      return maybeNull(f, byIdOrAttributes);
    case 'm2m':
      return { type: 'array', items: f.slugField ? { type: 'string' } : { type: 'integer' } };
    case 'choice': {
      const values: Array<string | number> = f.choices!.choices.map((c) => c.value);
      if (f.blank) values.push('');
      const ints = f.choices!.choices.map((c) => c.value);
      // a blank-allowed integer choice also takes '' (so no single type fits it)
      const s = !f.choices!.numeric
        ? { type: 'string', enum: values }
        : f.blank
          ? {
              anyOf: [
                { type: 'integer', enum: ints },
                { type: 'string', enum: [''] },
              ],
            }
          : { type: 'integer', enum: ints };
      return f.blank || f.nullable ? nullable(s) : s;
    }
    case 'computed':
    case 'generic':
      return null;
    default: {
      const s = scalar(f);
      if (!s) return null;
      const withPattern = f.pattern && s.type === 'string' ? { ...s, pattern: f.pattern.regex.source } : s;
      const withSlug = f.kind === 'slug' ? { ...withPattern, pattern: '^[-a-zA-Z0-9_]+$' } : withPattern;
      const typed = f.kind === 'password' ? { ...withSlug, writeOnly: true } : withSlug;
      return f.kind === 'json' ? typed : maybeNull(f, typed);
    }
  }
}

/** The body of a create or full update (`required` marked), or of a partial update (`required` false). */
export function requestSchema(model: ModelDef, withRequired: boolean, dialect: Dialect = '3.4'): Schema {
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const [k, f] of Object.entries(model.fields)) {
    // a field is documented under its name in the document's dialect (it is written under either)
    if (f.readOnly || !shownIn(model, k, f, dialect)) continue;
    const s = writableFieldSchema(f);
    if (!s) continue;
    const name = wireName(model, k, dialect);
    properties[name] = s;
    if (withRequired && (f.required || f.requiredIn?.includes(dialect))) required.push(name);
  }
  if (hasIn(model.tags, dialect))
    properties.tags = {
      type: 'array',
      items: { anyOf: [{ type: 'integer' }, { type: 'object', additionalProperties: true }] },
    };
  if (hasIn(model.customFields, dialect)) properties.custom_fields = { type: 'object', additionalProperties: true };
  Object.assign(properties, writeExtras(model, dialect));
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}
