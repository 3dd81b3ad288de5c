/**
 * Jobs (NetBox 3.5-3.7 core.Job), read-only: the record of background work. Two kinds here, read
 * through one view (core_job_view, migration 0143):
 * - data source syncs, recorded in core_job by data-source-sync.ts;
 * - webhook deliveries (core/events/), each read as a job of its webhook: pending while queued,
 *   scheduled while a retry waits, running, then completed (delivered, or its rule's conditions did
 *   not match) or failed. The view computes them when read, so the delivery worker writes nothing
 *   more than it did, and a delivery's job id is its background-task id (the ids share a sequence).
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, FieldDef } from '../../core/model/types.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { parseFilterValue } from '../../core/query/parse-value.js';
import { JobStatus } from './choices.js';

/**
 * NetBox 3.7 JobFilterSet: `<time>` (exact), `<time>__after` (>=) and `<time>__before` (<=), each
 * a filter of its own (after and before are no lookups of the generic table).
 */
function timeFilter(column: string, op: '=' | '>=' | '<='): CustomFilter {
  return {
    type: 'string',
    async build(values, _lookup, { alias, param }) {
      const times = values.map((v) => parseFilterValue(param, 'datetime', v) as string);
      const ref = sql.ref(`${alias}.${column}`);
      if (op === '=') return sql`${ref} = any(${times}::timestamptz[])`;
      return sql`(${sql.join(
        times.map((t) => sql`${ref} ${sql.raw(op)} ${t}::timestamptz`),
        sql` and `,
      )})`;
    },
  };
}

const timeFilters = (column: string): Record<string, CustomFilter> => ({
  [column]: timeFilter(column, '='),
  [`${column}__after`]: timeFilter(column, '>='),
  [`${column}__before`]: timeFilter(column, '<='),
});

/** NetBox 3.7: `user` takes user ids (a plain model filter), not usernames */
const userFilter: CustomFilter = {
  type: 'integer',
  lookups: ['n'],
  async build(values, lookup, { alias, param }) {
    const ids = values.map((v) => parseFilterValue(param, 'id', v));
    const c = sql`coalesce(${sql.ref(`${alias}.user_id`)} = any(${ids}::bigint[]), false)`;
    return lookup === 'n' ? sql`not ${c}` : c;
  },
};

/** NetBox 3.7: the job's name or its user's username contains the text */
const searchFilter: CustomFilter = {
  async build(values, _lookup, { alias }) {
    const q = searchTerm(values);
    if (!q) return null;
    const p = `%${likeEscape(q)}%`;
    const op = likeFor(q);
    return sql`(${sql.ref(`${alias}.name`)} ${op} ${p}
      or exists (select 1 from users_user u where u.id = ${sql.ref(`${alias}.user_id`)} and u.username ${op} ${p}))`;
  },
};

const time = (): FieldDef => ({ kind: 'datetime', nullable: true, readOnly: true, noFilter: true });
const TIMES = ['created', 'scheduled', 'started', 'completed'];

export const job = defineModel({
  name: 'core.job',
  path: 'jobs',
  table: 'core_job_view',
  verboseName: 'job',
  fields: {
    object_type: { kind: 'contenttype', readOnly: true },
    object_id: { kind: 'integer', nullable: true, readOnly: true, min: 0 },
    name: { kind: 'string', maxLength: 200, readOnly: true },
    status: { kind: 'choice', choices: JobStatus, readOnly: true },
    created: { ...time(), nullable: false },
    scheduled: time(),
    interval: { kind: 'integer', nullable: true, readOnly: true, min: 1, help: 'Recurrence interval (in minutes)' },
    started: time(),
    completed: time(),
    user: { kind: 'fk', to: 'users.user', nullable: true, readOnly: true },
    data: { kind: 'json', nullable: true, readOnly: true, noFilter: true },
    // NetBox 3.7 (not in 3.5): the error a job ended with
    error: { kind: 'text', readOnly: true, noFilter: true },
    job_id: { kind: 'string', readOnly: true, noFilter: true, label: 'job ID' },
  },
  readOnly: true,
  tags: false,
  customFields: false,
  changelog: false,
  timestamps: false,
  filters: {
    ...(Object.assign({}, ...TIMES.map(timeFilters)) as Record<string, CustomFilter>),
    user: userFilter,
    q: searchFilter,
  },
  display: (row) => String(row.job_id),
  ui: { columns: ['id', 'object_type', 'name', 'status', 'created', 'started', 'completed', 'user'] },
  // NetBox 3.7 NestedJobSerializer (url, created, completed, user, status; id and display besides)
  brief: ['created', 'completed', 'user', 'status'],
  // NetBox 4.0 JobSerializer.brief_fields, in the full form's order (4.4 shows no id or display; kept here)
  netbox44: { brief: ['status', 'created', 'completed', 'user'] },
  ordering: ['-created'],
  search: ['name'],
});
