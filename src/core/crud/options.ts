/**
 * OPTIONS metadata in DRF's shape (reference 9). `actions` (field descriptions, with choices for
 * choice fields) appear only for a caller allowed to add (POST) or change (PUT) the model, with a
 * token that may write (NetBox checks the token's write flag there too; spec: Authentication 6).
 */
import { hasPermission } from '../auth/permissions.js';
import type { RequestContext } from '../context.js';
import type { FieldDef, ModelDef } from '../model/types.js';
import { type Dialect, hasIn, isTreeIn, shownIn, wireName } from '../model/dialect.js';
import { writeExtras } from '../openapi/request-mechanics.js';

const TYPE_BY_KIND: Record<string, string> = {
  string: 'string',
  text: 'string',
  slug: 'slug',
  integer: 'integer',
  decimal: 'decimal',
  boolean: 'boolean',
  date: 'date',
  datetime: 'datetime',
  choice: 'field',
  fk: 'nested object',
  m2m: 'field',
  json: 'json',
  strings: 'list',
  integers: 'list',
  password: 'string',
  ipaddress: 'string',
  ipprefix: 'string',
  mac: 'string',
  contenttype: 'field',
  generic: 'field',
  computed: 'field',
};

function titleCase(s: string): string {
  return s.replace(/_/g, ' ').replace(/\b\w/g, (c) => c.toUpperCase());
}

function describeField(key: string, f: FieldDef, dialect: Dialect): Record<string, unknown> {
  const readOnly = !!f.readOnly || f.kind === 'computed' || f.kind === 'generic';
  const out: Record<string, unknown> = {
    type: TYPE_BY_KIND[f.kind] ?? 'field',
    required: (!!f.required || !!f.requiredIn?.includes(dialect)) && !readOnly,
    read_only: readOnly,
    label: f.label ? titleCase(f.label) : titleCase(key),
  };
  if (f.help) out.help_text = f.help;
  if (f.maxLength !== undefined) out.max_length = f.maxLength;
  if (f.min !== undefined) out.min_value = f.min;
  if (f.max !== undefined) out.max_value = f.max;
  if (f.kind === 'choice' && !readOnly) {
    out.choices = f.choices!.choices.map((c) => ({ value: c.value, display_name: c.label }));
  }
  return out;
}

function describeFields(model: ModelDef, dialect: Dialect): Record<string, unknown> {
  const ro = (label: string, type = 'field') => ({ type, required: false, read_only: true, label });
  const out: Record<string, unknown> = { id: ro('ID', 'integer'), url: ro('Url'), display: ro('Display') };
  // the fields of the request's dialect, by its names (a rack's 4.4 `airflow` is not 3.4's)
  for (const [key, f] of Object.entries(model.fields))
    if (shownIn(model, key, f, dialect)) out[wireName(model, key, dialect)] = describeField(key, f, dialect);
  if (hasIn(model.tags, dialect)) out.tags = { type: 'list', required: false, read_only: false, label: 'Tags' };
  if (hasIn(model.customFields, dialect))
    out.custom_fields = { type: 'field', required: false, read_only: false, label: 'Custom fields' };
  if (model.timestamps) {
    out.created = ro('Created', 'date');
    out.last_updated = ro('Last updated', 'datetime');
  }
  for (const k of Object.keys(model.counts)) out[k] = ro(titleCase(k), 'integer');
  if (isTreeIn(model, dialect)) out._depth = ro(' depth', 'integer');
  // what a 4.4 write body takes besides the fields (NetBox 4.4's changelog_message, 4.6's
  // add_tags/remove_tags), as the 4.4 document describes them (openapi/request-mechanics.ts)
  for (const [k, schema] of Object.entries(writeExtras(model, dialect))) {
    const extra: Record<string, unknown> = {
      type: schema.type === 'array' ? 'list' : 'string',
      required: false,
      read_only: false,
      label: titleCase(k),
    };
    if (typeof schema.maxLength === 'number') extra.max_length = schema.maxLength;
    out[k] = extra;
  }
  return out;
}

export async function describeModel(rc: RequestContext, model: ModelDef, isList: boolean) {
  const body: Record<string, unknown> = {
    name: titleCase(model.verboseName),
    description: model.description ?? '',
    renders: ['application/json', 'text/html'],
    parses: ['application/json'],
  };
  if (model.readOnly || (rc.token && !rc.token.write_enabled)) return body;
  const actions: Record<string, unknown> = {};
  if (await hasPermission(rc, model, 'change')) actions.PUT = describeFields(model, rc.dialect);
  if (isList && (await hasPermission(rc, model, 'add'))) actions.POST = describeFields(model, rc.dialect);
  if (Object.keys(actions).length) body.actions = actions;
  return body;
}
