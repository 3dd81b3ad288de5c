/**
 * Bookmarks (NetBox 3.6): a user's bookmark on any object, through a generic relation; one per
 * object and user; deleted with the object (core/crud/delete-collector.ts cascades generic
 * relations) and with the user. Not change-logged, only a creation time, as in NetBox.
 *
 * Who sees whose: NetBox's ordinary object permissions, and its DEFAULT_PERMISSIONS give every
 * user view/add/change/delete of bookmarks constrained to `{"user": "$user"}` (config.ts), so a
 * plain user sees and writes only their own while superusers see all. NetBox 3.7's serializer
 * requires `user`; here it defaults to the caller when left out (a superset).
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import { fk } from '../fields.js';
import { contentTypeIdFilter } from './content-type-filters.js';

/**
 * `q` (NetBox's bookmark filters have none; every list here takes one): the object type contains
 * the text, or the object id is the number.
 */
const searchFilter: CustomFilter = {
  async build(values, _lookup, { alias }) {
    const text = (values[0] ?? '').trim();
    if (!text) return null;
    const id = /^\d{1,15}$/.test(text) ? Number(text) : null;
    const like = sql`${sql.ref(`${alias}.object_type`)} ${likeFor(text)} ${`%${likeEscape(text)}%`}`;
    return id === null ? like : sql`(${like} or ${sql.ref(`${alias}.object_id`)} = ${id})`;
  },
};

const DUPLICATE = 'Bookmark with this Object type, Object id and User already exists.';

export const bookmark = defineModel({
  name: 'extras.bookmark',
  path: 'bookmarks',
  verboseName: 'bookmark',
  fields: {
    object_type: { kind: 'contenttype', required: true },
    object_id: { kind: 'integer', required: true, min: 0 },
    object: { kind: 'generic', generic: { type: 'object_type', id: 'object_id' } },
    // NetBox's serializer requires it; left out, the caller's (the constraint `{"user": "$user"}` holds it)
    user: { ...fk('users.user'), nullable: false, onDelete: 'cascade', requiredIn: ['3.4', '4.4'] },
    created: { kind: 'datetime', readOnly: true },
  },
  tags: false,
  customFields: false,
  changelog: false,
  timestamps: false,
  uniqueTogether: [{ fields: ['object_type', 'object_id', 'user'], message: DUPLICATE }],
  display: (row) => `${String(row.object_type)}:${String(row.object_id)}`,
  hooks: {
    // the pair check (uniqueTogether) ran before the owner was filled in: check the caller's own
    async validate({ rc, data, before, sent, earlier }) {
      if (before || sent.has('user') || !rc.user) return;
      const owner = rc.user.id;
      const same = (o: Record<string, unknown>) =>
        o.object_type === data.object_type &&
        Number(o.object_id) === Number(data.object_id) &&
        (o.user_id == null || Number(o.user_id) === owner);
      if (earlier.some(same)) return { __all__: [DUPLICATE] };
      const dup =
        await sql`select 1 from extras_bookmark where object_type = ${data.object_type} and object_id = ${data.object_id}
        and user_id = ${rc.user.id}`.execute(rc.q);
      if (dup.rows.length) return { __all__: [DUPLICATE] };
    },
    prepare({ rc, data, before, sent }) {
      if (!before && !sent.has('user')) data.user_id = rc.user?.id ?? null;
    },
    // NetBox 3.6 shows a bookmark as its object, in every form: one query per object type
    async represent(rc, rows, out) {
      const byType = new Map<string, number[]>();
      for (const r of rows)
        byType.set(String(r.object_type), [...(byType.get(String(r.object_type)) ?? []), Number(r.object_id)]);
      const shown = new Map<string, string>();
      for (const [type, ids] of byType) {
        const target = rc.app.registry.find(type);
        if (!target) continue;
        const res = await sql<
          Record<string, unknown>
        >`select * from ${sql.table(target.table)} where id = any(${ids}::bigint[])`.execute(rc.q);
        for (const row of res.rows) shown.set(`${type}:${String(row.id)}`, target.display(row));
      }
      rows.forEach((r, i) => {
        const display = shown.get(`${String(r.object_type)}:${String(r.object_id)}`);
        if (display !== undefined && 'display' in out[i]!) out[i]!.display = display;
      });
    },
  },
  filters: { q: searchFilter, object_type_id: contentTypeIdFilter('object_type') },
  brief: ['object_id', 'object_type'],
  // NetBox 4.0: in the full form's order
  netbox44: { brief: ['object_type', 'object_id'] },
  ordering: ['created', 'id'],
  search: ['object_type'],
});
