/**
 * `<field>_id` of a single content type field (NetBox: the ContentType foreign key's id filter, as
 * image attachments' `content_type_id`): the ids are those of extras_contenttype, whose rows name
 * the `app_label.model` the column holds. Repeated values OR; `__n` excludes them.
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { parseFilterValue } from '../../core/query/parse-value.js';

export function contentTypeIdFilter(column: string): CustomFilter {
  return {
    lookups: ['n'],
    type: 'integer',
    async build(values, lookup, { alias, param }) {
      const ids = values.map((v) => parseFilterValue(param, 'id', v));
      const match = sql`${sql.ref(`${alias}.${column}`)} in (select ct.app_label || '.' || ct.model from extras_contenttype ct where ct.id = any(${ids}::bigint[]))`;
      return lookup === 'n' ? sql`not (${match})` : match;
    },
  };
}
