/**
 * NetBox 4's `object_type_id` filter of a model with one object type (a content type stored as
 * "app.model"): the values are ids of content types (extras_contenttype, core/object-types).
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';

export const objectTypeIdFilter = (column: string, param = 'object_type_id'): CustomFilter =>
  idSetFilter({
    param,
    target: 'extras.contenttype',
    byId: true,
    match: (ids, { alias }) =>
      sql`${sql.ref(`${alias}.${column}`)} in (select ct.app_label || '.' || ct.model from extras_contenttype ct where ct.id in ${ids})`,
  });
