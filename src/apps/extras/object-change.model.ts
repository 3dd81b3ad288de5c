/**
 * The change log (reference 11; spec: Events 5), written by core/crud/changelog.ts in each
 * mutation's transaction and read here: newest first, read-only. NetBox 4.1 moved it to
 * `/api/core/object-changes/` (#16388); both paths serve it (alsoAt), in either dialect, so a 3.4
 * client and a 4.4 one each find it where they look. NetBox 4.4 adds the write's `message`
 * (#19713), shown in the 4.4 dialect.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { parseFilterValue } from '../../core/query/parse-value.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { ObjectChangeAction } from './choices.js';
import { objectTypeIdFilter } from './object-type-id-filter.js';
import { timeBoundFilter } from './time-bound-filter.js';

/** `request_id`: a UUID, as NetBox's UUIDFilter takes it (the column is a uuid; text would not cast) */
const requestIdFilter: CustomFilter = {
  type: 'string',
  lookups: ['n'],
  async build(values, lookup, { alias, param }) {
    const ids = values.map((v) => parseFilterValue(param, 'uuid', v) as string);
    const c = sql`${sql.ref(`${alias}.request_id`)} = any(${ids}::uuid[])`;
    return lookup === 'n' ? sql`not ${c}` : c;
  },
};

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function displayOf(row: Record<string, unknown>, type: string): string {
  return `${type} ${row.object_repr} ${ObjectChangeAction.labels.get(row.action as string)?.toLowerCase()} by ${row.user_name}`;
}

export const objectChange = defineModel({
  name: 'extras.objectchange',
  path: 'object-changes',
  alsoAt: ['core'],
  verboseName: 'object change',
  fields: {
    time: { kind: 'datetime', readOnly: true },
    user: { kind: 'fk', to: 'users.user', nullable: true, readOnly: true },
    user_name: { kind: 'string', readOnly: true },
    request_id: { kind: 'string', readOnly: true },
    action: { kind: 'choice', choices: ObjectChangeAction, readOnly: true },
    changed_object_type: { kind: 'string', readOnly: true },
    changed_object_id: { kind: 'integer', readOnly: true },
    // the changed object's nested form, of whichever model it is; null once deleted
    changed_object: { kind: 'computed', shape: { type: 'object', additionalProperties: true, nullable: true } },
    related_object_type: { kind: 'string', readOnly: true, nullable: true },
    related_object_id: { kind: 'integer', readOnly: true, nullable: true },
    object_repr: { kind: 'string', readOnly: true },
    // NetBox 4.4: the message a write carried (its `changelog_message`); '' when none
    message: { kind: 'string', maxLength: 200, readOnly: true, dialect: '4.4' },
    prechange_data: { kind: 'json', readOnly: true },
    postchange_data: { kind: 'json', readOnly: true },
  },
  readOnly: true,
  tags: false,
  customFields: false,
  changelog: false,
  timestamps: false,
  filters: {
    time_after: timeBoundFilter('time', '>='),
    time_before: timeBoundFilter('time', '<='),
    request_id: requestIdFilter,
    // NetBox 3.7's ObjectChangeFilterSet: the changed object's type by its content type's id
    changed_object_type_id: objectTypeIdFilter('changed_object_type', 'changed_object_type_id'),
  },
  display: (row) => displayOf(row, String(row.changed_object_type)),
  hooks: {
    async represent(rc, rows, out) {
      // the live object, nested, or null once it is gone
      const byType = new Map<string, number[]>();
      for (const r of rows) {
        const list = byType.get(r.changed_object_type as string) ?? [];
        list.push(Number(r.changed_object_id));
        byType.set(r.changed_object_type as string, list);
      }
      const live = new Map<string, Record<string, unknown>>();
      for (const [type, ids] of byType) {
        const model = rc.app.registry.find(type);
        if (!model) continue;
        const rendered = await render(rc, model, await fetchRowsById(rc, model, ids), 'nested');
        for (const o of rendered) live.set(`${type}:${o.id}`, o);
      }
      rows.forEach((r, i) => {
        const o = out[i]!;
        if ('changed_object' in o)
          o.changed_object = live.get(`${r.changed_object_type}:${r.changed_object_id}`) ?? null;
        // NetBox's str(ObjectChange) names the type "<app_label> | <verbose name>", as in
        // "ipam | IP address 10.0.0.1/32 created by admin", not by its dotted identity
        const changed = rc.app.registry.find(r.changed_object_type as string);
        if (changed) o.display = displayOf(r, `${changed.app} | ${changed.verboseName}`);
        // jsonb keeps its own key order; NetBox shows snapshots with sorted keys
        for (const k of ['prechange_data', 'postchange_data'])
          if (o[k]) o[k] = sortKeys(o[k] as Record<string, unknown>);
      });
    },
  },
  ui: {
    // NetBox's ObjectChangeTable default columns, with the request id in the place of 4.4's message
    // (a 4.4 field; the pages speak 3.4) so a request's changes are one click away
    columns: ['time', 'user_name', 'action', 'changed_object_type', 'object_repr', 'request_id'],
    linkColumns: { object_repr: 'changed_object' },
    // NetBox 4.1 serves the change log's pages at /core/changelog/ (#16388); 3.x had /extras/changelog/
    path: '/core/changelog/',
    formerPaths: ['/extras/changelog/', '/extras/object-changes/'],
    // NetBox's ObjectChangeFilterForm: time after/before, action, user, object type
    filters: [
      { name: 'time_after', label: 'After', input: 'datetime' },
      { name: 'time_before', label: 'Before', input: 'datetime' },
      { name: 'changed_object_type', label: 'Object type', input: 'objecttype' },
      { name: 'request_id', label: 'Request ID', input: 'text' },
    ],
  },
  brief: ['action', 'changed_object_type', 'changed_object_id', 'object_repr'],
  // NetBox 4.4 declares no brief form for changes: `?brief=1` shows the full one (4.4's full form)
  netbox44: {
    brief: [
      'time',
      'user',
      'user_name',
      'request_id',
      'action',
      'changed_object_type',
      'changed_object_id',
      'changed_object',
      'prechange_data',
      'postchange_data',
    ],
  },
  ordering: ['-time', '-id'],
  search: ['object_repr', 'user_name', 'changed_object_type'],
});
