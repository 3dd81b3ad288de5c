/**
 * NetBox's `<field>_after` / `<field>_before` filters (a change's `time_after`, a journal entry's
 * `created_after`): each value bounds the column's time; repeated values all apply.
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { parseFilterValue } from '../../core/query/parse-value.js';

export function timeBoundFilter(column: string, op: '>=' | '<='): CustomFilter {
  return {
    type: 'string',
    async build(values, _lookup, { alias, param }) {
      const bounds = values.map(
        (v) =>
          sql`${sql.ref(`${alias}.${column}`)} ${sql.raw(op)} ${parseFilterValue(param, 'datetime', v)}::timestamptz`,
      );
      return sql`(${sql.join(bounds, sql` and `)})`;
    },
  };
}
