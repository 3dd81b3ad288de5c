/**
 * Table configs (NetBox 4.3, fields as in 4.4): a named choice of columns and ordering for one
 * table of one object type, a user's own or shared. Served in the 4.4 dialect only. The owner
 * (`user`) is written and shown as a user id, as NetBox's serializer does. NetBox checks the table
 * and columns against its table classes; this service has other tables, so it checks that the
 * columns and ordering name fields of the object type's representation.
 */
import { defineModel } from '../../core/model/define-model.js';
import type { ModelDef } from '../../core/model/types.js';
import { description, fk } from '../fields.js';
import { objectTypeIdFilter } from './object-type-id-filter.js';
import { usableFilter } from './saved-filter.model.js';

/** the names a column of a model's table may have: its fields, counts and fixed keys */
function columnNames(m: ModelDef): Set<string> {
  const names = new Set(['id', 'display', ...Object.keys(m.fields), ...Object.keys(m.counts)]);
  if (m.tags) names.add('tags');
  if (m.timestamps) for (const k of ['created', 'last_updated']) names.add(k);
  return names;
}

export const tableConfig = defineModel({
  name: 'extras.tableconfig',
  path: 'table-configs',
  verboseName: 'table config',
  dialect: '4.4',
  fields: {
    object_type: { kind: 'contenttype', required: true },
    table: { kind: 'string', required: true, maxLength: 100 },
    name: { kind: 'string', required: true, maxLength: 100 },
    description: description(),
    user: { ...fk('users.user'), onDelete: 'set_null', shape: { type: 'integer', nullable: true } },
    weight: { kind: 'integer', default: 1000, min: 0, max: 32767 },
    enabled: { kind: 'boolean', default: true },
    shared: { kind: 'boolean', default: true },
    columns: { kind: 'strings', required: true },
    ordering: { kind: 'strings', nullable: true },
  },
  tags: false,
  customFields: false,
  filters: { object_type_id: objectTypeIdFilter('object_type'), usable: usableFilter },
  hooks: {
    validate({ rc, data }) {
      // NetBox 4.3 TableConfig.clean(), against this service's representations
      const m = rc.app.registry.find(String(data.object_type));
      if (!m) return Promise.resolve(undefined);
      const known = columnNames(m);
      const badOrder = ((data.ordering as string[] | null) ?? []).find((c) => !known.has(c.replace(/^-/, '')));
      if (badOrder !== undefined)
        return Promise.resolve({ ordering: [`Unknown column: ${badOrder.replace(/^-/, '')}`] });
      const badColumn = ((data.columns as string[] | null) ?? []).find((c) => !known.has(c));
      if (badColumn !== undefined) return Promise.resolve({ columns: [`Unknown column: ${badColumn}`] });
      return Promise.resolve(undefined);
    },
    // NetBox 4.3 renders the owner as a primary key
    represent(_rc, rows, out) {
      rows.forEach((row, i) => {
        if ('user' in out[i]!) out[i]!.user = row.user_id == null ? null : Number(row.user_id);
      });
    },
  },
  ui: {
    columns: ['name', 'object_type', 'table', 'user', 'description', 'enabled', 'shared'],
    clone: ['object_type', 'table', 'enabled', 'shared', 'columns', 'ordering'],
    groups: [
      { title: 'Table Config', fields: ['name', 'object_type', 'table', 'description', 'weight', 'enabled', 'shared'] },
      { title: 'Columns', fields: ['columns', 'ordering'] },
    ],
  },
  brief: ['name', 'description', 'object_type', 'table'],
  ordering: ['weight', 'name'],
  search: ['name', 'description', 'table'],
});
