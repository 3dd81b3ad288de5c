/**
 * Query parameters of a model's list and detail operations: pagination, ordering, brief, exclude,
 * and every filter with its lookup variants, as the list query resolves them (query/filters.ts
 * filterParameters), so the document lists exactly the names the service filters on.
 */
import type { ModelDef } from '../model/types.js';
import { filterParameters } from '../query/filter-parameters.js';
import type { ResolvedFilter } from '../query/column-filters.js';
import type { Dialect } from '../model/dialect.js';
import { fkNameFilterDeclared } from '../query/undeclared-fk-filters.js';
import type { Schema } from './shapes.js';
import { cursorParameters } from './request-mechanics.js';

function valueSchema(r: ResolvedFilter): Schema {
  const base: Schema =
    r.type === 'date'
      ? { type: 'string', format: 'date' }
      : r.type === 'date-time'
        ? { type: 'string', format: 'date-time' }
        : { type: r.type };
  return r.choices ? { ...base, enum: r.choices } : base;
}

function describe(name: string, r: ResolvedFilter): string {
  if (name === 'q') return "Search: case-insensitive match over the model's search fields.";
  if (name === 'tag') return 'Tag slug; repeated values must all be present (AND).';
  const lookup = name.includes('__') ? name.slice(name.lastIndexOf('__') + 2) : '';
  const what = LOOKUP_WORDS[lookup] ?? '';
  return `${what}${r.multi ? (lookup === 'n' ? 'Repeated values: none of them.' : 'Repeated values OR.') : ''}`.trim();
}

const LOOKUP_WORDS: Record<string, string> = {
  n: 'Not equal. ',
  ic: 'Contains (case-insensitive). ',
  nic: 'Does not contain (case-insensitive). ',
  isw: 'Starts with (case-insensitive). ',
  nisw: 'Does not start with (case-insensitive). ',
  iew: 'Ends with (case-insensitive). ',
  niew: 'Does not end with (case-insensitive). ',
  ie: 'Equals (case-insensitive). ',
  nie: 'Does not equal (case-insensitive). ',
  lt: 'Less than. ',
  lte: 'Less than or equal. ',
  gt: 'Greater than. ',
  gte: 'Greater than or equal. ',
  empty: 'true: empty or null; false: set. ',
};

/**
 * A foreign key NetBox filters by id only (query/undeclared-fk-filters.ts): its `<key>_id`
 * parameters say that `<key>=` is no filter, so a client reading the document knows the name is
 * ignored, not refused.
 */
function idOnlyNote(model: ModelDef, name: string): string {
  const key = /^(.+)_id(?:__n)?$/.exec(name)?.[1];
  if (!key || model.fields[key]?.kind !== 'fk' || fkNameFilterDeclared(model, key)) return '';
  return ` By ID only: \`${key}\` is not a filter and is ignored, as in NetBox.`;
}

/** spec: Filtering rules 2 - a repeated parameter is an array sent as `name=a&name=b` */
function filterParameter(name: string, r: ResolvedFilter, model?: ModelDef): Schema {
  const description = `${describe(name, r)}${model ? idOnlyNote(model, name) : ''}`.trim();
  return {
    name,
    in: 'query',
    required: false,
    ...(description ? { description } : {}),
    ...(r.multi
      ? { schema: { type: 'array', items: valueSchema(r) }, style: 'form', explode: true }
      : { schema: valueSchema(r) }),
  };
}

const query = (name: string, schema: Schema, description: string): Schema => ({
  name,
  in: 'query',
  required: false,
  description,
  schema,
});

/** `brief` (reference 2: any non-empty value selects the brief form) */
const BRIEF = query('brief', { type: 'boolean' }, 'Return the brief representation.');

function excludeParameter(model: ModelDef): Schema[] {
  const keys = Object.entries(model.fields)
    .filter(([, f]) => f.excludable)
    .map(([k]) => k);
  return keys.length
    ? [query('exclude', { type: 'string', enum: keys }, `Leave out ${keys.join(', ')} (spec: exclude).`)]
    : [];
}

/** NetBox 4.0 `?fields=`, 4.5 `?omit=`: the 4.4 dialect's field selection (crud/read.ts formOf) */
const FIELD_SELECTION = [
  query('fields', { type: 'string' }, 'Comma-separated names of the only fields to show.'),
  query('omit', { type: 'string' }, 'Comma-separated names of fields to leave out.'),
];

export function listParameters(model: ModelDef, dialect: Dialect = '3.4'): Schema[] {
  return [
    query(
      'limit',
      { type: 'integer', minimum: 0 },
      'Number of results to return per page (PAGINATE_COUNT by default, at most MAX_PAGE_SIZE).',
    ),
    query('offset', { type: 'integer', minimum: 0 }, 'The initial index from which to return the results.'),
    ...cursorParameters(dialect),
    query('ordering', { type: 'string' }, 'Comma-separated field names to order by; a leading "-" reverses.'),
    BRIEF,
    ...excludeParameter(model),
    ...(dialect === '4.4' ? FIELD_SELECTION : []),
    ...filterParameters(model, dialect).map(([name, r]) => filterParameter(name, r, model)),
  ];
}

export function detailParameters(model: ModelDef, dialect: Dialect = '3.4'): Schema[] {
  return [
    {
      name: 'id',
      in: 'path',
      required: true,
      description: `A unique integer value identifying this ${model.verboseName}.`,
      schema: { type: 'integer' },
    },
    BRIEF,
    ...excludeParameter(model),
    ...(dialect === '4.4' ? FIELD_SELECTION : []),
  ];
}
