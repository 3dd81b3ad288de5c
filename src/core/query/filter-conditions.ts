/**
 * The SQL conditions of one filter parameter, per kind of field: the lookup tables (lookups.ts)
 * applied to a column, foreign keys by id or natural key, tags, the change-log request filters,
 * the `q` search, networks, MACs and content types. filters.ts decides which one a name means.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { FieldDef, ModelDef } from '../model/types.js';
import { descendantsSql } from '../represent/load-related.js';
import { BOOLEAN_VALUED, type Cond, equalsAny, likeEscape, likeFor, LOOKUPS_BY_KIND } from './lookups.js';
import { normaliseMac } from '../net/mac.js';
import { invalidChoice, namedIds } from './named-ids.js';
import { parseBooleanLookup, parseFilterValue, parseNetworks } from './parse-value.js';
import { format } from '../net/ip.js';

export const col = (name: string) => sql.ref(`t.${name}`);

/**
 * Applies a kind's lookup table to one column. Returns null when the lookup does not apply (a
 * filter name NetBox does not have, ignored like any unknown name); every value must parse.
 */
export function lookupCondition(
  param: string,
  kind: string,
  column: Cond,
  lookup: string,
  raw: string[],
  f?: FieldDef,
): Cond | null {
  const table = LOOKUPS_BY_KIND[kind];
  const fn = table?.[lookup];
  if (!fn) return null;
  const nullable = f?.nullable ?? true;
  if (BOOLEAN_VALUED.has(lookup)) return fn(column, [parseBooleanLookup(param, raw[0]!)], nullable);
  const values: unknown[] = [];
  for (const r of raw) {
    if (kind === 'choice') {
      const v = f!.choices!.numeric ? Number(r) : r;
      if (!f!.choices!.labels.has(v as string)) throw invalidChoice(param, r);
      values.push(v);
      continue;
    }
    values.push(parseFilterValue(param, kind, r));
  }
  return values.length ? fn(column, values, nullable) : null;
}

/** `<fk>_id=` : ids (or `null`) that must exist */
export async function fkIdCondition(
  rc: RequestContext,
  param: string,
  key: string,
  f: FieldDef,
  lookup: string,
  raw: string[],
) {
  if (lookup !== 'exact' && lookup !== 'n') return null;
  const target = rc.app.registry.get(f.to!);
  const wantNull = raw.some((r) => r === 'null');
  const ids = raw.filter((r) => r !== 'null').map((r) => parseFilterValue(param, 'id', r) as number);
  if (ids.length) {
    const found = await sql<{
      id: number;
    }>`select id from ${sql.table(target.table)} where id = any(${ids}::bigint[])`.execute(rc.q);
    const have = new Set(found.rows.map((r) => Number(r.id)));
    const missing = ids.find((id) => !have.has(id));
    if (missing !== undefined) throw invalidChoice(param, String(missing));
  }
  return idSetCondition(rc, `${key}_id`, f, lookup, ids, wantNull);
}

/** `<fk>=` : natural key (slug or name) of the target; tree fks include descendants */
export async function fkKeyCondition(
  rc: RequestContext,
  param: string,
  key: string,
  f: FieldDef,
  lookup: string,
  raw: string[],
) {
  if (lookup !== 'exact' && lookup !== 'n') return null;
  const target = rc.app.registry.get(f.to!);
  const nk = target.naturalKey ?? 'id';
  const wantNull = raw.some((r) => r === 'null');
  const keys = raw.filter((r) => r !== 'null');
  let ids: number[] = [];
  if (keys.length) ids = await namedIds(rc, param, target.table, nk, keys);
  return idSetCondition(rc, `${key}_id`, f, lookup, ids, wantNull);
}

/** `column` is one of the ids (`= $1` for the usual one: lookups.ts equalsAny) */
export function oneOf(column: Cond, ids: number[]): Cond {
  return equalsAny(column, ids, 'bigint');
}

function idSetCondition(
  rc: RequestContext,
  column: string,
  f: FieldDef,
  lookup: string,
  ids: number[],
  wantNull: boolean,
) {
  const c = col(column);
  const target = rc.app.registry.get(f.to!);
  const parts: Cond[] = [];
  // NetBox 4.0 (#15383): a location's own `parent` filter matches direct children; the old meaning
  // (descendants too) is 4.x's `ancestor`, which passes a copy of the field (filters.ts)
  const ownParent = rc.dialect === '4.4' && target.fields[target.treeParent ?? ''] === f;
  if (ids.length) {
    parts.push(
      (f.treeFilter === true || f.treeFilter === rc.dialect) && target.treeParent && !ownParent
        ? sql`${c} in ${descendantsSql(target, sql`select unnest(${ids}::bigint[])`)}`
        : oneOf(c, ids),
    );
  }
  if (wantNull) parts.push(sql`${c} is null`);
  if (!parts.length) return null;
  const any = sql`(${sql.join(parts, sql` or `)})`;
  return lookup === 'n' ? sql`not coalesce(${any}, false)` : any;
}

export async function tagCondition(rc: RequestContext, model: ModelDef, param: string, lookup: string, raw: string[]) {
  if (lookup !== 'exact' && lookup !== 'n') return null;
  const found = await sql<{ slug: string }>`select slug from extras_tag where slug = any(${raw})`.execute(rc.q);
  const have = new Set(found.rows.map((r) => r.slug));
  const missing = raw.find((s) => !have.has(s));
  if (missing !== undefined) throw invalidChoice(param, missing);
  const has = (slug: string) => sql`exists (select 1 from extras_taggeditem ti join extras_tag tg on tg.id = ti.tag_id
    where ti.content_type = ${model.name} and ti.object_id = t.id and tg.slug = ${slug})`;
  // spec: Filtering rules 2 - repeated tags AND; tag__n excludes objects carrying any of them
  return lookup === 'n'
    ? sql`not (${sql.join(raw.map(has), sql` or `)})`
    : sql`(${sql.join(raw.map(has), sql` and `)})`;
}

export const BY_REQUEST_ACTIONS: Record<string, string[]> = {
  // spec: created_by_request matches objects created or updated by the request
  created_by_request: ['create', 'update'],
  updated_by_request: ['update'],
  modified_by_request: ['create', 'update', 'delete'],
};

export function byRequestCondition(model: ModelDef, param: string, raw: string[]) {
  for (const r of raw) parseFilterValue(param, 'uuid', r);
  return sql`t.id in (select changed_object_id from extras_objectchange where changed_object_type = ${model.name}
    and request_id = any(${raw}::uuid[]) and action = any(${BY_REQUEST_ACTIONS[param]}))`;
}

/** The `q` value: the first non-blank one, trimmed (NetBox's search takes one). */
export function searchTerm(raw: string[]): string | undefined {
  return raw.find((v) => v.trim() !== '')?.trim();
}

/** `q`: case-insensitive contains over the fields, OR-ed; a model's own `q` filter may add more. */
export function textSearchConditions(alias: string, fields: string[], q: string): Cond[] {
  const pattern = `%${likeEscape(q)}%`;
  const op = likeFor(q);
  return fields.map((f) => sql`${sql.ref(`${alias}.${f}`)}::text ${op} ${pattern}`);
}

export function searchCondition(model: ModelDef, raw: string[]) {
  const q = searchTerm(raw);
  if (!q || model.search.length === 0) return null;
  return sql`(${sql.join(textSearchConditions('t', model.search, q), sql` or `)})`;
}

/**
 * Exact address or prefix match. A value that is no address is a 400 (NetBox matches nothing;
 * docs/api-differences.md, "Strict input"); a prefix is compared as its network, host bits dropped,
 * as netaddr's `.cidr` does.
 */
export function networkCondition(
  param: string,
  base: string,
  kind: 'ipaddress' | 'ipprefix',
  lookup: string,
  raw: string[],
): Cond | null {
  if (lookup !== 'exact' && lookup !== 'n') return null;
  const values =
    kind === 'ipprefix'
      ? parseNetworks(param, raw).map(format)
      : raw.map((r) => format(parseFilterValue(param, 'network', r)));
  const any = sql`${col(base)} = any(${values}::${kind === 'ipprefix' ? sql`cidr` : sql`inet`}[])`;
  return lookup === 'n' ? sql`not (${any})` : any;
}

/** A content type value names a registered model (`app.model`), one of the field's types when it lists them. */
export function contentTypeValues(rc: RequestContext, param: string, f: FieldDef, raw: string[]): string[] {
  for (const v of raw) {
    const known = f.types ? f.types.includes(v) : !!rc.app.registry.find(v);
    if (!known) throw invalidChoice(param, v);
  }
  return raw;
}

/** MAC addresses compare in their stored form; an exact match needs a MAC address, a partial one any text. */
export function macValues(param: string, lookup: string, raw: string[]): string[] {
  if (lookup === 'exact' || lookup === 'n') return raw.map((v) => parseFilterValue(param, 'mac', v) as string);
  return raw.map((v) => normaliseMac(v) ?? v);
}

export function stringsCondition(base: string, lookup: string, raw: string[]): Cond {
  const c = sql`${col(base)} && ${raw}::text[]`;
  return lookup === 'n' ? sql`not ${c}` : c;
}
