/**
 * Saved filters (NetBox 3.4+, fields as in 3.7): named sets of list filter parameters for some
 * object types, applied to a list with `?filter=<slug>` or `?filter_id=<id>`
 * (core/query/saved-filters.ts). The owner (`user`) is written and rendered as a user id, as
 * NetBox's serializer does; it defaults to the caller.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { parseFilterValue } from '../../core/query/parse-value.js';
import { description, fk } from '../fields.js';
import { contentTypesFilters, objectTypesFilters } from './content-type-filters.js';

const isScalar = (v: unknown) =>
  typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));

/**
 * NetBox 3.7 SavedFilter.clean: the parameters are a dictionary. Each value becomes query parameter
 * values, so it must be a string, number or boolean, or a list of them (stricter than NetBox,
 * which would fail only once the filter is used).
 */
function parametersError(v: unknown): string | undefined {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    return 'Filter parameters must be stored as a dictionary of keyword arguments.';
  for (const [key, value] of Object.entries(v)) {
    const ok = isScalar(value) || (Array.isArray(value) && value.every(isScalar));
    if (!ok) return `Invalid value for parameter "${key}": a string, number or boolean, or a list of them.`;
  }
  return undefined;
}

/**
 * NetBox 3.7 `usable` (4.3 table configs too): true lists enabled ones that are shared or the caller's own; false the
 * others. Anonymous callers own none.
 */
export const usableFilter: CustomFilter = {
  type: 'boolean',
  async build(values, _lookup, { rc, param, alias }) {
    const usable = parseFilterValue(param, 'boolean', values[0] ?? '');
    const t = (c: string) => sql.ref(`${alias}.${c}`);
    const mine = rc.user ? sql`${t('user_id')} = ${rc.user.id}` : sql`false`;
    const cond = sql`(${t('enabled')} and (${t('shared')} or ${mine}))`;
    return usable ? cond : sql`not ${cond}`;
  },
};

export const savedFilter = defineModel({
  name: 'extras.savedfilter',
  path: 'saved-filters',
  verboseName: 'saved filter',
  fields: {
    content_types: { kind: 'strings', required: true },
    name: { kind: 'string', required: true, maxLength: 100, unique: true },
    slug: { kind: 'slug', required: true, maxLength: 100, unique: true },
    description: description(),
    user: { ...fk('users.user'), onDelete: 'set_null', shape: { type: 'integer', nullable: true } },
    weight: { kind: 'integer', default: 100, min: 0, max: 32767 },
    enabled: { kind: 'boolean', default: true },
    shared: { kind: 'boolean', default: true },
    parameters: { kind: 'json', required: true, validate: parametersError },
  },
  tags: false,
  customFields: false,
  filters: { ...contentTypesFilters, usable: usableFilter },
  hooks: {
    async validate({ rc, data }) {
      const cts = (data.content_types as string[] | null) ?? [];
      const errors: string[] = cts.length ? [] : ['This list may not be empty.'];
      for (const ct of cts) if (!rc.app.registry.find(ct)) errors.push(`Invalid content type: ${ct}`);
      if (errors.length) return { content_types: errors };
    },
    prepare({ rc, data, before, sent }) {
      if (!before && !sent.has('user')) data.user_id = rc.user?.id ?? null;
    },
    // NetBox 3.7 renders the owner as a primary key
    represent(_rc, rows, out) {
      rows.forEach((row, i) => {
        if ('user' in out[i]!) out[i]!.user = row.user_id == null ? null : Number(row.user_id);
      });
    },
  },
  ui: {
    columns: ['name', 'content_types', 'user', 'description', 'enabled', 'shared'],
    clone: ['content_types', 'weight', 'enabled', 'parameters'],
    groups: [
      {
        title: 'Saved Filter',
        fields: ['name', 'slug', 'content_types', 'description', 'weight', 'enabled', 'shared'],
      },
      { title: 'Parameters', fields: ['parameters'] },
    ],
  },
  brief: ['name', 'slug'],
  // NetBox 4.0: content types became object types
  netbox44: { renamed: { content_types: 'object_types' }, filters: objectTypesFilters },
  ordering: ['weight', 'name'],
  search: ['name', 'description'],
});
