/**
 * Contact groups: a named tree of contacts (NetBox 3.4 ContactGroup, a nested group model). Names
 * and slugs are unique among siblings and at the top level; `contact_count` includes subgroups.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { descendantsSql } from '../../core/represent/load-related.js';
import { comments, description, fk, name, slug } from '../fields.js';
import { CONTACT_GROUPS, refreshFirstGroups } from './contact-groups.js';

export const contactGroup = defineModel({
  name: 'tenancy.contactgroup',
  path: 'contact-groups',
  verboseName: 'contact group',
  fields: {
    name: name(100),
    slug: slug(100),
    // NetBox 3.4: `parent` and `parent_id` match direct children only, as for regions
    parent: fk('tenancy.contactgroup', { onDelete: 'cascade' }),
    description: description(),
    // NetBox 4.3: comments, shown in the 4.4 dialect only
    comments: { ...comments(), dialect: '4.4' },
  },
  treeParent: 'parent',
  // NetBox 4.3: the contacts in the group through their groups (contact-groups.ts)
  counts: {
    contact_count: { through: { table: CONTACT_GROUPS.table, column: CONTACT_GROUPS.to }, cumulative: true },
  },
  uniqueTogether: [
    // NetBox 3.4 ContactGroup (parent, name): Django's unique_error_message; the other three follow
    // the region's constraints (NetBox 3.4 has them on regions and site groups)
    { fields: ['parent', 'name'] },
    { fields: ['parent', 'slug'] },
    { fields: ['name'], whenNull: ['parent'], message: 'A top-level contact group with this name already exists.' },
    { fields: ['slug'], whenNull: ['parent'], message: 'A top-level contact group with this slug already exists.' },
  ],
  hooks: {
    async validate({ rc, data, before }) {
      // a group may not sit below itself or one of its own subgroups
      if (!before || data.parent_id == null) return;
      const model = rc.app.registry.get('tenancy.contactgroup');
      const res = await sql<{ id: number }>`select id from ${descendantsSql(model, sql`select ${before.id}::bigint`)} d
        where id = ${data.parent_id}`.execute(rc.q);
      if (res.rows.length) return { parent: ['Cannot assign self or child as parent.'] };
    },
    async afterDelete({ rc }) {
      await refreshFirstGroups(rc);
    },
  },
  ui: {
    columns: ['name', 'contact_count', 'description'],
    groups: [{ title: 'Contact Group', fields: ['parent', 'name', 'slug', 'description'] }],
    related: [{ model: 'tenancy.contact', param: 'group_id' }],
  },
  brief: ['name', 'slug', 'contact_count', '_depth'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'contact_count', '_depth'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
