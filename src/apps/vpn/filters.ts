/**
 * Filters of the vpn models that reach through other tables: policy proposals (a join table, with
 * the lookups of the proposal's name or id), and the objects a generic termination points at.
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { type Cond, INTEGER_LOOKUPS, STRING_LOOKUPS } from '../../core/query/lookups.js';
import { parseBooleanLookup, parseFilterValue } from '../../core/query/parse-value.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';

const NEGATED: Record<string, string> = { n: 'exact', nic: 'ic', nie: 'ie', nisw: 'isw', niew: 'iew' };

export interface MemberPath {
  /** join table and its columns: the listed object's, the member's */
  table: string;
  own: string;
  other: string;
  /** the members' table and the column the lookups apply to */
  memberTable: string;
  column: 'name' | 'id';
}

/**
 * NetBox 3.7 `proposal` / `proposal_id` of IKE and IPSec policies (MultiValueChar/NumberFilter on
 * `proposals__name` / `proposals__id`): objects with a member matching; a negated lookup keeps the
 * objects none of whose members match; `__empty` asks for objects without members (true) or with.
 */
export function memberFilter(param: string, path: MemberPath): CustomFilter {
  const byId = path.column === 'id';
  const table = byId ? INTEGER_LOOKUPS : STRING_LOOKUPS;
  return {
    type: byId ? 'integer' : 'string',
    lookups: Object.keys(table).filter((k) => k !== 'exact'),
    async build(values, lookup, { alias, param: sent }) {
      const own = sql`${sql.ref(`${alias}.id`)} in (select j.${sql.ref(path.own)} from ${sql.table(path.table)} j`;
      if (lookup === 'empty') {
        const empty = parseBooleanLookup(sent, values[0]!);
        const any = sql`${own})`;
        return empty ? sql`not ${any}` : any;
      }
      const positive = NEGATED[lookup] ?? lookup;
      const parsed = byId ? values.map((v) => parseFilterValue(sent || param, 'integer', v)) : values;
      const match: Cond = table[positive]!(sql.ref(`m.${path.column}`), parsed, false);
      const any = sql`${own} join ${sql.table(path.memberTable)} m on m.id = j.${sql.ref(path.other)} where ${match})`;
      return NEGATED[lookup] ? sql`not ${any}` : any;
    },
  };
}

export interface GenericColumns {
  type: string;
  id: string;
}

/**
 * `<name>` / `<name>_id` of a generic relation: objects pointing at those targets of one type
 * (NetBox 3.7 `interface`, `vminterface_id`, `vlan`...). Unknown targets are a 400, `__n` excludes.
 */
export function genericTargetPair(name: string, target: string, cols: GenericColumns): Record<string, CustomFilter> {
  const match = (ids: Cond) => sql`(t.${sql.ref(cols.type)} = ${target} and t.${sql.ref(cols.id)} in ${ids})`;
  return {
    [name]: idSetFilter({ param: name, target, match }),
    [`${name}_id`]: idSetFilter({ param: `${name}_id`, target, byId: true, match }),
  };
}

/**
 * `<name>` / `<name>_id` through the parent of a generic target: terminations on the interfaces of
 * those devices (NetBox 3.7 `device`, `virtual_machine_id`...).
 */
export function genericParentPair(
  name: string,
  parent: string,
  via: { type: string; table: string; column: string },
  cols: GenericColumns,
): Record<string, CustomFilter> {
  const match = (ids: Cond) => sql`(t.${sql.ref(cols.type)} = ${via.type} and t.${sql.ref(cols.id)} in
    (select i.id from ${sql.table(via.table)} i where i.${sql.ref(via.column)} in ${ids}))`;
  return {
    [name]: idSetFilter({ param: name, target: parent, match }),
    [`${name}_id`]: idSetFilter({ param: `${name}_id`, target: parent, byId: true, match }),
  };
}
