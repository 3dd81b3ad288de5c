/**
 * NetBox 4.1's `event_types` of an event rule: one list (`object_created`, ... `job_errored`) where
 * 3.4 has five booleans (type_create ... type_job_end). The booleans stay the stored form; the 4.4
 * dialect reads and filters the list, and either dialect may write it. NetBox's own migration
 * (extras 0120) turned type_job_end into all three job endings, and so is it read here; a list
 * naming any of them sets type_job_end.
 */
import { sql } from 'kysely';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import { invalidChoice } from '../../core/query/named-ids.js';

/** NetBox 4.4's event types (core/events.py) and the boolean each one sets */
const FLAG_OF: Record<string, string> = {
  object_created: 'type_create',
  object_updated: 'type_update',
  object_deleted: 'type_delete',
  job_started: 'type_job_start',
  job_completed: 'type_job_end',
  job_errored: 'type_job_end',
  job_failed: 'type_job_end',
};
const EVENT_TYPES = Object.keys(FLAG_OF);

export const eventTypesField: FieldDef = {
  kind: 'strings',
  notStored: true,
  dialect: '4.4',
  label: 'event types',
  help: 'The types of event which will trigger this rule',
  validate: (v) => {
    const bad = (v as string[]).find((t) => !(t in FLAG_OF));
    return bad === undefined ? undefined : `"${bad}" is not a valid choice.`;
  },
  shape: { type: 'array', items: { type: 'string', enum: EVENT_TYPES } },
};

/** The booleans a written `event_types` list sets (all five: the list replaces them). */
export function applyEventTypes(data: Row, sent: ReadonlySet<string>): void {
  if (!sent.has('event_types') || !Array.isArray(data.event_types)) return;
  const set = new Set((data.event_types as string[]).map((t) => FLAG_OF[t]));
  for (const flag of new Set(Object.values(FLAG_OF))) data[flag] = set.has(flag);
}

/** The list a stored rule shows in 4.4, in NetBox's order. */
export function eventTypesOf(row: Row): string[] {
  return EVENT_TYPES.filter((t) => row[FLAG_OF[t]!]);
}

/** NetBox 4.4's `event_type` filter: rules firing on any of the given types. */
export const eventTypeFilter: CustomFilter = {
  lookups: ['n'],
  async build(values, lookup, { alias, param }) {
    // a value that is no event type is a 400, as every choice filter here answers
    const bad = values.find((v) => !(v in FLAG_OF));
    if (bad !== undefined) throw invalidChoice(param, bad);
    const flags = [...new Set(values.map((v) => FLAG_OF[v]!))];
    const any = sql.join(
      flags.map((f) => sql.ref(`${alias}.${f}`)),
      sql` or `,
    );
    return lookup === 'n' ? sql`not (${any})` : sql`(${any})`;
  },
};
