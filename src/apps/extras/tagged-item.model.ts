/**
 * Tagged objects (NetBox 4.3 `/api/extras/tagged-objects/`): a read-only view of the tag
 * assignments every tagged model keeps in extras_taggeditem (core/crud writes them with the
 * objects' `tags`). Served in the 4.4 dialect only, where the stored `content_type` is shown as
 * `object_type`, as NetBox's serializer names it.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { objectTypeIdFilter } from './object-type-id-filter.js';

/** NetBox 4.3 searches the tag's name, slug and description */
const searchFilter: CustomFilter = {
  async build(values, _lookup, { alias }) {
    const q = searchTerm(values);
    if (!q) return null;
    const pattern = `%${likeEscape(q)}%`;
    const op = likeFor(q);
    return sql`${sql.ref(`${alias}.tag_id`)} in (select id from extras_tag
      where name ${op} ${pattern} or slug ${op} ${pattern} or description ${op} ${pattern})`;
  },
};

export const taggedItem = defineModel({
  name: 'extras.taggeditem',
  path: 'tagged-objects',
  verboseName: 'tagged item',
  dialect: '4.4',
  fields: {
    content_type: { kind: 'contenttype', readOnly: true },
    object_id: { kind: 'integer', readOnly: true },
    object: { kind: 'generic', generic: { type: 'content_type', id: 'object_id' } },
    tag: { kind: 'fk', to: 'extras.tag', readOnly: true, onDelete: 'cascade' },
  },
  netbox44: {
    brief: ['content_type', 'object_id', 'object', 'tag'],
    renamed: { content_type: 'object_type' },
  },
  readOnly: true,
  tags: false,
  customFields: false,
  changelog: false,
  timestamps: false,
  filters: { object_type_id: objectTypeIdFilter('content_type'), q: searchFilter },
  display: (row) => `${row.content_type} ${row.object_id} tagged with tag ${row.tag_id}`,
  hooks: {
    async represent(rc, rows, out) {
      // django-taggit: "<object> tagged with <tag>", the tags' names read once per page
      const tags = await fetchRowsById(rc, rc.app.registry.get('extras.tag'), [
        ...new Set(rows.map((r) => Number(r.tag_id))),
      ]);
      const names = new Map(tags.map((t) => [Number(t.id), String(t.name)]));
      rows.forEach((r, i) => {
        const o = out[i]!;
        const obj = o.object as { display?: string } | null | undefined;
        const tag = names.get(Number(r.tag_id));
        if ('display' in o && tag !== undefined)
          o.display = `${obj?.display ?? `${r.content_type} ${r.object_id}`} tagged with ${tag}`;
      });
    },
  },
  ui: { columns: ['content_type', 'object', 'tag'] },
  brief: ['content_type', 'object_id', 'object', 'tag'],
  ordering: ['id'],
  search: [],
});
