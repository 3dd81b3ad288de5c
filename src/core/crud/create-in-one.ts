/**
 * A create written as one statement (docs/performance.md, "What makes it fast"): the rows are
 * inserted and PostgreSQL writes their change records from the inserted rows in the same statement,
 * so nothing waits for the rows to come back before the change log can be written. Where the
 * statement ends its transaction (the POST route's, for a single object), the COMMIT goes out right
 * behind it (db/pg-driver/commit-follows.ts): BEGIN, the statement and COMMIT share one write and
 * one round trip, where a create took two (the insert; then its change records with the COMMIT).
 *
 * Taken only when PostgreSQL can write the change record exactly as changelog.ts would:
 * - every key of the snapshot reads in SQL as the row parsers give it to changelog.ts
 *   (columnSql: a decimal of more than 6 places or 15 digits does not);
 * - no m2m member and no tag is given (the snapshot's lists are empty), nor a `changelog_message`;
 * - the object's display is one column's text (displayColumn), for this row too;
 * - no hook runs after the write, no constraint is checked after it, no event rule listens.
 * Anything else is written the way every write is (write-service.ts).
 */
import { CompiledQuery, type RawBuilder, sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { FieldDef, FieldKind, ModelDef, Row } from '../model/types.js';
import { activeRules } from '../events/active-rules.js';
import { insertFromJson, jsonRows, keptTexts } from '../../db/bulk-insert.js';
import { COMMIT_FOLLOWS } from '../../db/client.js';
import { relatedSource, type SnapshotSource, snapshotSources } from './changelog.js';
import type { PreparedItem } from './prepare.js';

/**
 * A column of `r` as the row parsers give it (db/type-parsers.ts), for jsonb_build_object: null
 * when no SQL reads it so. Timestamps: PostgreSQL's text in UTC ("2026-11-28 19:35:46.05479+00")
 * made "2026-11-28T19:35:46.054790Z" as parseTimestamptz does (a timestamp without zone: only the
 * T); inet, cidr, macaddr: their text with the mask always (parseInet). A decimal is a JavaScript
 * number's text in changelog.ts ("12.5" for 12.500000): for up to 15 significant digits that is
 * the decimal with its trailing zeros trimmed, written without an exponent from 0.000001 up, so
 * for up to 6 places and values under 1e9 (every decimal field declares both).
 */
function columnSql(column: string, field: FieldDef): RawBuilder<unknown> | null {
  const ref = sql.ref(`r.${column}`);
  switch (field.kind) {
    case 'string':
    case 'text':
    case 'slug':
    case 'choice':
    case 'contenttype':
    case 'integer':
    case 'boolean':
    case 'date':
    case 'json':
    case 'strings':
    case 'integers':
    case 'fk':
      return sql`${ref}`;
    case 'datetime':
      return timestampSql(column);
    case 'ipaddress':
    case 'ipprefix':
    case 'mac':
      return sql`${ref}::text`;
    case 'decimal':
      return field.decimalPlaces !== undefined &&
        field.decimalPlaces <= 6 &&
        Math.max(Math.abs(field.max ?? Infinity), Math.abs(field.min ?? 0)) < 1e9
        ? sql`trim_scale(${ref})::text`
        : null;
    default:
      return null;
  }
}

function timestampSql(column: string): RawBuilder<unknown> {
  const text = sql`${sql.ref(`r.${column}`)}::text`;
  // a fraction padded to six digits, as parseTimestamptz pads it (PostgreSQL drops trailing zeros)
  // (backslashes doubled: a tagged template's text is its cooked string)
  const fraction = sql`coalesce(rpad(substring(${text} from '\\.(\\d+)\\+00$'), 6, '0'), '')`;
  return sql`regexp_replace(replace(replace(${text}, ' ', 'T'), '+00', 'Z'), '\\.\\d+Z$', '.' || ${fraction} || 'Z')`;
}

function sourceSql(source: SnapshotSource): RawBuilder<unknown> | null {
  switch (source.from) {
    case 'column':
      return columnSql(source.column, source.field);
    case 'm2m':
    case 'tags':
      return sql`'[]'::jsonb`;
    case 'custom_fields':
      return sql`coalesce(r.custom_field_data, '{}'::jsonb)`;
    case 'timestamp':
      return timestampSql(source.column);
  }
}

/** jsonb_build_object takes at most 100 arguments: the keys go in groups of 50, joined by || */
const KEYS_PER_CALL = 50;

/** The snapshot of a just-created row `r` with no m2m members and no tags; null when SQL cannot read a key. */
function snapshotSql(model: ModelDef): RawBuilder<unknown> | null {
  const pairs: Array<RawBuilder<unknown>> = [];
  for (const [key, source] of snapshotSources(model)) {
    const value = sourceSql(source);
    if (!value) return null;
    pairs.push(sql`${sql.lit(key)}::text, ${value}`);
  }
  if (pairs.length === 0) return sql`'{}'::jsonb`;
  const calls: Array<RawBuilder<unknown>> = [];
  for (let i = 0; i < pairs.length; i += KEYS_PER_CALL)
    calls.push(sql`jsonb_build_object(${sql.join(pairs.slice(i, i + KEYS_PER_CALL))})`);
  return sql.join(calls, sql` || `);
}

/** kinds whose stored text is the column's text in SQL (object_repr) */
const TEXT_KINDS = new Set<FieldKind>(['string', 'text', 'slug', 'choice', 'ipaddress', 'ipprefix']);

/**
 * The column a model's display shows as it is, or null: the display of a row whose every column
 * reads as a marker of its name must be exactly one column's marker (a display that joins
 * columns, formats them or shows the id is not). Whether a given row takes that branch is checked
 * per row (showsColumn).
 */
function displayColumn(model: ModelDef): string | null {
  const marker = (k: string) => `\u0001${k}\u0001`;
  const probe = new Proxy({}, { get: (_t, k) => (typeof k === 'string' ? marker(k) : undefined) });
  let shown: unknown;
  try {
    shown = model.display(probe);
  } catch {
    return null;
  }
  const m = typeof shown === 'string' ? /^\u0001([a-z0-9_]+)\u0001$/.exec(shown) : null;
  const field = m ? model.fields[m[1]!] : undefined;
  return m && field && TEXT_KINDS.has(field.kind) && !field.notStored ? m[1]! : null;
}

/** per model, what its statement is built from; null: a model this path does not write */
export interface OneStatementPlan {
  /** the snapshot of a just-created row `r` (no m2m members, no tags), as changelog.ts writes it */
  snapshot: RawBuilder<unknown>;
  /** the column the display shows */
  display: string;
}
const plans = new WeakMap<ModelDef, OneStatementPlan | null>();

export function planOf(model: ModelDef): OneStatementPlan | null {
  if (plans.has(model)) return plans.get(model)!;
  const { afterWrite, writesAfter, afterCreate } = model.hooks;
  const snapshot = model.changelog && (!afterWrite || writesAfter) && !afterCreate ? snapshotSql(model) : null;
  const display = snapshot ? displayColumn(model) : null;
  const plan = snapshot && display ? { snapshot, display } : null;
  plans.set(model, plan);
  return plan;
}

/**
 * this row's display is its display column's text (a row with that column empty may show
 * something else; a display that cannot read values not yet stored leaves the row to the usual way)
 */
function showsColumn(model: ModelDef, column: string, values: Row): boolean {
  const v = values[column];
  if (typeof v !== 'string' || v === '') return false;
  try {
    return model.display(values) === v;
  } catch {
    return false;
  }
}

/** Whether these items can be written by createInOne (`scope`: the permission's constraint, checked after a write). */
export async function canCreateInOne(
  rc: RequestContext,
  model: ModelDef,
  items: PreparedItem[],
  values: Row[],
  scope: unknown,
): Promise<boolean> {
  const plan = planOf(model);
  if (!plan || scope) return false;
  const writesAfter = model.hooks.afterWrite ? model.hooks.writesAfter : undefined;
  for (const [i, it] of items.entries()) {
    // a change record with a changelog_message is written the usual way (this statement writes none)
    if (it.tags?.length || it.message !== undefined) return false;
    if (writesAfter?.(values[i]!)) return false;
    for (const members of it.m2m.values()) if (members.length) return false;
    if (!showsColumn(model, plan.display, values[i]!)) return false;
  }
  const rules = await activeRules(rc);
  return !rules.some((r) => r.type_create && r.content_types.includes(model.name));
}

/** statement texts per model, column list, count (one row or many) and whether COMMIT follows */
const statementTexts = keptTexts();

function statementText(
  rc: RequestContext,
  model: ModelDef,
  plan: OneStatementPlan,
  columns: string[],
  single: boolean,
  commitFollows: boolean,
): string {
  const key = `${model.name}|${single ? 1 : 0}|${commitFollows ? 1 : 0}|${columns.join(',')}`;
  return statementTexts(key, () => {
    const related = relatedSource(rc, model);
    const relatedType = related?.typeColumn
      ? sql.ref(`r.${related.typeColumn}`)
      : related?.typeName
        ? sql`${sql.lit(related.typeName)}::text`
        : sql`null`;
    const relatedId = related ? sql.ref(`r.${related.idColumn}`) : sql`null`;
    // ids follow the input order (the sequence in insertion order); the change records follow them
    return (
      sql`with ins as (${insertFromJson(model.table, columns, single)} returning *),
      log as (insert into extras_objectchange (user_id, user_name, request_id, action, changed_object_type, changed_object_id,
          related_object_type, related_object_id, object_repr, prechange_data, postchange_data)
        select ${'$user_id'}::bigint, ${'$user_name'}::text, ${'$request_id'}::uuid, 'create', ${sql.lit(model.name)}::text, r.id,
          ${relatedType}, ${relatedId}, left(${sql.ref(`r.${plan.display}`)}::text, 200), null, ${plan.snapshot}
        from ins as r order by r.id)
      select * from ins order by id`.compile(rc.q).sql + (commitFollows ? ` ${COMMIT_FOLLOWS}` : '')
    );
  });
}

/**
 * Inserts the rows and writes their change records in one statement; returns the rows in input
 * order. `commitFollows`: nothing else is written in this transaction, so its COMMIT may be sent
 * right behind the statement (the caller's transaction must end with this write).
 */
export async function createInOne(
  rc: RequestContext,
  model: ModelDef,
  values: Row[],
  commitFollows: boolean,
): Promise<Row[]> {
  const { single, columns, json } = jsonRows(values);
  const text = statementText(rc, model, planOf(model)!, columns, single, commitFollows);
  const res = await rc.q.executeQuery<Row>(
    CompiledQuery.raw(text, [json, rc.user?.id ?? null, rc.user?.username ?? '', rc.requestId]),
  );
  return res.rows;
}
