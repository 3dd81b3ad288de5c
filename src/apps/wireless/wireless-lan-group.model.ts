/** Wireless LAN groups (NetBox 3.4 WirelessLANGroup): a tree of groups for wireless LANs. */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { descendantsSql } from '../../core/represent/load-related.js';
import { comments, description, fk, name, slug } from '../fields.js';

export const wirelessLanGroup = defineModel({
  name: 'wireless.wirelesslangroup',
  path: 'wireless-lan-groups',
  verboseName: 'wireless LAN group',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    // NetBox 3.4: `parent` and `parent_id` match direct children only, as for regions
    parent: fk('wireless.wirelesslangroup', { onDelete: 'cascade' }),
    description: description(),
    // NetBox 4.3: comments, shown in the 4.4 dialect only
    comments: { ...comments(), dialect: '4.4' },
  },
  treeParent: 'parent',
  counts: { wirelesslan_count: { model: 'wireless.wirelesslan', via: 'group', cumulative: true } },
  uniqueTogether: [
    { fields: ['parent', 'name'], message: 'Wireless LAN group with this Parent and Name already exists.' },
  ],
  hooks: {
    async validate({ rc, data, before }) {
      // a group may not be its own ancestor
      if (!before || data.parent_id == null) return;
      const model = rc.app.registry.get('wireless.wirelesslangroup');
      const res =
        await sql`select id from ${descendantsSql(model, sql`select ${before.id}::bigint`)} d where id = ${data.parent_id}`.execute(
          rc.q,
        );
      if (res.rows.length) return { parent: ['Cannot assign self or child as parent.'] };
    },
  },
  ui: {
    columns: ['name', 'wirelesslan_count', 'description'],
    groups: [{ title: 'Wireless LAN Group', fields: ['parent', 'name', 'slug', 'description'] }],
    related: [{ model: 'wireless.wirelesslan', param: 'group_id' }],
  },
  brief: ['name', 'slug', 'wirelesslan_count', '_depth'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'wirelesslan_count', '_depth'] },
  ordering: ['name', 'id'],
  search: ['name', 'slug', 'description'],
});
