/**
 * The times a copy keeps from its source: `created`, `last_updated` and a token's `last_used`,
 * set in SQL once every write is done (later writes would touch them), and the time of day of a
 * `created` NetBox renders as a date, taken from the copied change log.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../core/context.js';
import type { ModelDef } from '../core/model/types.js';
import type { Rep } from './source.js';

/** the times a copy keeps from its source: set by the service, so read-only to a write */
const TIMES = ['created', 'last_updated', 'last_used'] as const;

/** the time columns a model keeps (every model with timestamps; a token's `created` and `last_used`) */
export function timesOf(m: ModelDef): string[] {
  return TIMES.filter((k) => (m.timestamps && k !== 'last_used') || m.fields[k]?.kind === 'datetime');
}

/** the source's times, set last, once nothing the copy writes touches them again */
export async function restoreTimes(rc: RequestContext, model: ModelDef, stamps: Rep[]) {
  const cols = timesOf(model);
  if (!stamps.length || !cols.length) return;
  // `last_used` may be null at the source; a `created` or `last_updated` is kept when the source has none
  const set = sql.join(
    cols.map((c) =>
      c === 'last_used'
        ? sql`${sql.ref(c)} = s.${sql.ref(c)}`
        : sql`${sql.ref(c)} = coalesce(s.${sql.ref(c)}, t.${sql.ref(c)})`,
    ),
  );
  const shape = sql.join([sql`id bigint`, ...cols.map((c) => sql`${sql.ref(c)} timestamptz`)]);
  await sql`update ${sql.table(model.table)} as t set ${set}
    from jsonb_to_recordset(${JSON.stringify(stamps)}::jsonb) as s(${shape})
    where t.id = s.id`.execute(rc.q);
}

/**
 * NetBox renders most objects' `created` as a date: the time of day comes from the copied change
 * log, whose record of the creation holds it (only where that record's day is the object's)
 */
export async function createdFromChangeLog(rc: RequestContext, model: ModelDef): Promise<void> {
  if (!timesOf(model).includes('created')) return;
  await sql`update ${sql.table(model.table)} as t set created = oc.time
    from extras_objectchange oc
    where oc.changed_object_type = ${model.name} and oc.changed_object_id = t.id and oc.action = 'create'
      and (oc.time at time zone 'UTC')::date = (t.created at time zone 'UTC')::date
      and t.created = date_trunc('day', t.created at time zone 'UTC') at time zone 'UTC'`.execute(rc.q);
}
