/** Regions and site groups share one shape (reference 3.1): a named tree with sites. */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { UiRelated } from '../../core/model/types.js';
import { descendantsSql } from '../../core/represent/load-related.js';
import { comments, description, fk, name, slug } from '../fields.js';
import { contactFilters } from '../tenancy/contact-filters.js';

/** `related`: the object page's related-object links, which differ between regions and site groups */
export function defineSiteTree(id: string, path: string, verboseName: string, siteField: string, related: UiRelated[]) {
  return defineModel({
    name: id,
    path,
    verboseName,
    fields: {
      name: name(100),
      slug: slug(100),
      // NetBox 3.4: `parent` and `parent_id` match direct children only (a plain ModelMultipleChoiceFilter);
      // only locations' parent filter takes descendants too
      parent: fk(id, { onDelete: 'cascade' }),
      description: description(),
      // NetBox 4.3: comments, shown in the 4.4 dialect only
      comments: { ...comments(), dialect: '4.4' },
    },
    treeParent: 'parent',
    filters: contactFilters(),
    counts: { site_count: { model: 'dcim.site', via: siteField, cumulative: true } },
    uniqueTogether: [
      // NetBox 3.4: Django's unique_error_message ("Region with this Parent and Name already exists.")
      { fields: ['parent', 'name'] },
      { fields: ['parent', 'slug'] },
      // NetBox 3.4: these two constraints carry their own violation_error_message
      { fields: ['name'], whenNull: ['parent'], message: `A top-level ${verboseName} with this name already exists.` },
      { fields: ['slug'], whenNull: ['parent'], message: `A top-level ${verboseName} with this slug already exists.` },
    ],
    hooks: {
      async validate({ rc, data, before }) {
        // a node may not be its own ancestor
        if (!before || data.parent_id == null) return;
        const model = rc.app.registry.get(id);
        const res = await sql<{
          id: number;
        }>`select id from ${descendantsSql(model, sql`select ${before.id}::bigint`)} d
          where id = ${data.parent_id}`.execute(rc.q);
        if (res.rows.length) return { parent: ['Cannot assign self or child as parent.'] };
      },
    },
    ui: {
      columns: ['name', 'site_count', 'description'],
      groups: [{ title: '', fields: ['parent', 'name', 'slug', 'description'] }],
      related,
    },
    brief: ['name', 'slug', 'site_count', '_depth'],
    // NetBox 4.0: the brief form gains description, before the counts (#15238)
    netbox44: { brief: ['name', 'slug', 'description', 'site_count', '_depth'] },
    ordering: ['name'],
    search: ['name', 'slug', 'description'],
  });
}
