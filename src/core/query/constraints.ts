/**
 * Object-permission constraints (reference 7.4) compiled to SQL: an object of Django-style lookups
 * is ANDed, a list of objects is ORed, `$user` stands for the requesting user's id. Paths cross
 * foreign keys (`site__region__slug`) through sub-selects, so any declared model can be constrained.
 */
import { sql } from 'kysely';
import type { Constraints, RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import type { Registry } from '../model/registry.js';
import { Errors } from '../errors.js';
import { type Cond, likeEscape, likeFor } from './lookups.js';

const LOOKUPS = new Set([
  'exact',
  'iexact',
  'in',
  'contains',
  'icontains',
  'startswith',
  'istartswith',
  'endswith',
  'iendswith',
  'gt',
  'gte',
  'lt',
  'lte',
  'isnull',
  'n',
]);

export class ConstraintError extends Error {}

function resolveUser(v: unknown, userId: number | null): unknown {
  if (v === '$user') return userId;
  if (Array.isArray(v)) return v.map((x) => resolveUser(x, userId));
  return v;
}

function like(c: Cond, v: unknown, ci: boolean, wrap: (s: string) => string) {
  const s = wrap(likeEscape(String(v)));
  return ci ? sql`${c}::text ${likeFor(String(v))} ${s}` : sql`${c}::text like ${s}`;
}

function compare(c: Cond, lookup: string, v: unknown): Cond {
  switch (lookup) {
    case 'exact':
      return v === null ? sql`${c} is null` : sql`${c}::text = ${String(v)}`;
    case 'n':
      return sql`${c}::text is distinct from ${v === null ? null : String(v)}`;
    case 'iexact':
      return sql`lower(${c}::text) = lower(${String(v)})`;
    case 'in':
      if (!Array.isArray(v)) throw new ConstraintError('in needs a list');
      return sql`${c}::text = any(${v.map(String)}::text[])`;
    case 'contains':
    case 'icontains':
      return like(c, v, lookup === 'icontains', (s) => `%${s}%`);
    case 'startswith':
    case 'istartswith':
      return like(c, v, lookup === 'istartswith', (s) => `${s}%`);
    case 'endswith':
    case 'iendswith':
      return like(c, v, lookup === 'iendswith', (s) => `%${s}`);
    case 'isnull':
      return v ? sql`${c} is null` : sql`${c} is not null`;
    default: {
      const op = { gt: '>', gte: '>=', lt: '<', lte: '<=' }[lookup]!;
      return sql`${c} ${sql.raw(op)} ${v as number}`;
    }
  }
}

/** One `path: value` pair against `alias` of `model`. */
function pathCondition(registry: Registry, model: ModelDef, alias: string, path: string[], value: unknown): Cond {
  const [head, ...rest] = path;
  let lookup = 'exact';
  if (rest.length === 0 || (rest.length === 1 && LOOKUPS.has(rest[0]!))) {
    if (rest.length === 1) lookup = rest[0]!;
    if (head === 'id' || head === 'pk') return compare(sql.ref(`${alias}.id`), lookup, value);
    if (head!.endsWith('_id') && model.fields[head!.slice(0, -3)]?.kind === 'fk') {
      return compare(sql.ref(`${alias}.${head}`), lookup, value);
    }
    const f = model.fields[head!];
    if (!f || f.kind === 'm2m' || f.kind === 'computed' || f.kind === 'password') {
      throw new ConstraintError(`unknown field ${head}`);
    }
    return compare(sql.ref(`${alias}.${f.kind === 'fk' ? `${head}_id` : head}`), lookup, value);
  }
  const f = model.fields[head!];
  if (f?.kind !== 'fk') throw new ConstraintError(`cannot traverse ${head}`);
  const target = registry.get(f.to!);
  const sub = `${alias}_${head}`;
  const inner = pathCondition(registry, target, sub, rest, value);
  return sql`${sql.ref(`${alias}.${head}_id`)} in (select ${sql.ref(`${sub}.id`)} from ${sql.table(target.table)} as ${sql.id(sub)} where ${inner})`;
}

/** SQL for a list of granted constraints (ORed); null in the list grants every object. */
export function constraintsSql(rc: RequestContext, model: ModelDef, granted: Constraints[]): Cond | null {
  if (granted.some((g) => g === null)) return null;
  const userId = rc.user?.id ?? null;
  const alts: Cond[] = [];
  for (const g of granted) {
    const sets = Array.isArray(g) ? g : [g!];
    for (const set of sets) {
      const entries = Object.entries(set);
      if (entries.length === 0) return null; // {} constrains nothing
      try {
        alts.push(
          sql`(${sql.join(
            entries.map(([k, v]) => pathCondition(rc.app.registry, model, 't', k.split('__'), resolveUser(v, userId))),
            sql` and `,
          )})`,
        );
      } catch (err) {
        if (!(err instanceof ConstraintError)) throw err;
        // NetBox takes any constraint when the permission is written and fails when it is used; so
        // does this, with a 400 that names the constraint instead of a 500 (it grants nothing)
        throw Errors.permissionConstraint(
          `A permission constraint cannot filter ${model.verboseNamePlural}: ${JSON.stringify(set)} (${err.message}).`,
        );
      }
    }
  }
  return alts.length ? sql`(${sql.join(alts, sql` or `)})` : sql`false`;
}

/** Flattens nested attribute dicts (`{name, site: {slug}}` -> `site__slug`), as NetBox does for related writes. */
export function flattenAttributes(attrs: Record<string, unknown>, prefix = ''): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  for (const [k, v] of Object.entries(attrs)) {
    if (typeof v === 'object' && v !== null && !Array.isArray(v))
      out.push(...flattenAttributes(v as Record<string, unknown>, `${prefix}${k}__`));
    else out.push([`${prefix}${k}`, v]);
  }
  return out;
}

/** Condition matching objects of `model` (alias t) that have all the given attributes; throws ConstraintError on unknown names. */
export function attributesCondition(registry: Registry, model: ModelDef, attrs: Record<string, unknown>): Cond {
  const pairs = flattenAttributes(attrs);
  if (pairs.length === 0) throw new ConstraintError('no attributes');
  return sql`(${sql.join(
    pairs.map(([k, v]) => pathCondition(registry, model, 't', k.split('__'), v)),
    sql` and `,
  )})`;
}
