/**
 * Filters whose values name objects of another model (by id, or by its natural key) that the
 * listed objects reach by some path the caller writes in SQL: circuits by the sites of their
 * terminations, any object by its contact assignments. Unknown values are a 400 naming the
 * parameter (reference 8.3); tree targets include their descendants (NetBox
 * TreeNodeMultipleChoiceFilter); `__n` excludes every object the values match.
 */
import { sql } from 'kysely';
import type { CustomFilter, FilterBuildContext } from '../model/types.js';
import type { Cond } from './lookups.js';
import { namedIds } from './named-ids.js';
import { descendantsSql } from '../represent/load-related.js';

export interface IdSetFilterOptions {
  /** the parameter's name, for error bodies */
  param: string;
  /** model identity the values name */
  target: string;
  /** values are ids (`site_id`) rather than natural keys (`site`) */
  byId?: boolean;
  /** the target's column the values name when not its natural key (an L2VPN's `identifier`) */
  key?: string;
  /** condition on the listed model, given a SQL set of target ids */
  match(ids: Cond, ctx: FilterBuildContext): Cond;
}

export function idSetFilter(opts: IdSetFilterOptions): CustomFilter {
  return {
    lookups: ['n'],
    type: opts.byId ? 'integer' : 'string',
    async build(values, lookup, ctx) {
      const target = ctx.rc.app.registry.get(opts.target);
      // `null` would mean "reaches nothing"; NetBox does not offer it on these filters
      const raw = values.filter((v) => v !== 'null');
      if (!raw.length) return null;
      const column = opts.byId ? 'id' : (opts.key ?? target.naturalKey ?? 'id');
      const ids = await namedIds(ctx.rc, opts.param, target.table, column, raw);
      const set = target.treeParent
        ? descendantsSql(target, sql`select unnest(${ids}::bigint[])`)
        : sql`(select unnest(${ids}::bigint[]))`;
      const cond = opts.match(set, ctx);
      return lookup === 'n' ? sql`not (${cond})` : cond;
    },
  };
}
