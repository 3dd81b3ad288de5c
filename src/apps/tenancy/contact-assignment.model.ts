/**
 * Contact assignments (NetBox 3.4 ContactAssignment): a contact, in a role, attached to any object
 * through a generic relation (`content_type` "app.model" + `object_id`, read back as `object`).
 * Change-logged; tags and custom fields are NetBox 4's (4.4 dialect only; 3.4 had neither). Deleting the object deletes its
 * assignments (generic relations cascade in the engine); contacts and roles in use are protected.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { fk } from '../fields.js';
import { ContactPriority } from './choices.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';
import { searchTerm } from '../../core/query/filter-conditions.js';
import { likeEscape, likeFor } from '../../core/query/lookups.js';
import type { Row } from '../../core/model/types.js';

const priorityLabel = (row: Row) =>
  row.priority ? (ContactPriority.labels.get(row.priority as string) ?? String(row.priority)) : '';

export const contactAssignment = defineModel({
  name: 'tenancy.contactassignment',
  path: 'contact-assignments',
  verboseName: 'contact assignment',
  fields: {
    content_type: { kind: 'contenttype', required: true },
    object_id: { kind: 'integer', required: true, min: 0 },
    object: { kind: 'generic', generic: { type: 'content_type', id: 'object_id' } },
    contact: fk('tenancy.contact', { required: true, nullable: false, onDelete: 'protect' }),
    role: fk('tenancy.contactrole', { required: true, nullable: false, onDelete: 'protect' }),
    priority: { kind: 'choice', choices: ContactPriority, blank: true },
  },
  // NetBox 4.0 made contact assignments tagged, custom-field models (ContactAssignment is a ChangeLoggedModel with CustomFieldsMixin, TagsMixin)
  tags: '4.4',
  customFields: '4.4',
  uniqueTogether: [
    {
      fields: ['content_type', 'object_id', 'contact', 'role'],
      message: 'Contact assignment with this Content type, Object id, Contact and Role already exists.',
    },
  ],
  filters: {
    // content types are also addressable by their id in extras_contenttype
    content_type_id: idSetFilter({
      param: 'content_type_id',
      target: 'extras.contenttype',
      byId: true,
      match: (ids) =>
        sql`t.content_type in (select ct.app_label || '.' || ct.model from extras_contenttype ct where ct.id in ${ids})`,
    }),
    // the contact's group, subgroups included
    group: idSetFilter({ param: 'group', target: 'tenancy.contactgroup', match: (ids) => inGroups(ids) }),
    group_id: idSetFilter({
      param: 'group_id',
      target: 'tenancy.contactgroup',
      byId: true,
      match: (ids) => inGroups(ids),
    }),
    // NetBox 3.7 searches the contact's and the role's names
    q: {
      async build(values) {
        const q = searchTerm(values);
        if (!q) return null;
        const pattern = `%${likeEscape(q)}%`;
        const op = likeFor(q);
        return sql`(t.contact_id in (select id from tenancy_contact where name ${op} ${pattern})
          or t.role_id in (select id from tenancy_contactrole where name ${op} ${pattern}))`;
      },
    },
  },
  // without the related names at hand (change log, 409 messages); the API shows the full form below
  display: (row) => `Contact ${row.contact_id}${row.priority ? ` (${priorityLabel(row)})` : ''}`,
  hooks: {
    async represent(rc, rows, out) {
      // NetBox 3.4: "<contact> (<Priority>) -> <object>", names loaded once per page
      const contacts = await fetchRowsById(rc, rc.app.registry.get('tenancy.contact'), [
        ...new Set(rows.map((r) => Number(r.contact_id))),
      ]);
      const contactName = new Map(contacts.map((c) => [Number(c.id), String(c.name)]));
      const objects = new Map<string, string>();
      const byType = new Map<string, Set<number>>();
      for (const r of rows) {
        const set = byType.get(r.content_type as string) ?? new Set<number>();
        set.add(Number(r.object_id));
        byType.set(r.content_type as string, set);
      }
      for (const [type, ids] of byType) {
        const target = rc.app.registry.find(type);
        if (!target) continue;
        for (const o of await fetchRowsById(rc, target, [...ids])) objects.set(`${type}:${o.id}`, target.display(o));
      }
      rows.forEach((r, i) => {
        const who = contactName.get(Number(r.contact_id)) ?? '';
        const what = objects.get(`${r.content_type}:${r.object_id}`) ?? '';
        out[i]!.display = `${who}${r.priority ? ` (${priorityLabel(r)})` : ''} -> ${what}`;
      });
    },
  },
  ui: {
    columns: ['content_type', 'object', 'contact', 'role', 'priority'],
    clone: ['content_type', 'object_id', 'role', 'priority'],
    groups: [{ title: '', fields: ['content_type', 'object_id', 'object', 'contact', 'role', 'priority'] }],
  },
  brief: ['contact', 'role', 'priority'],
  // NetBox 4.0: content types became object types
  netbox44: { renamed: { content_type: 'object_type' } },
  ordering: ['priority', 'contact'],
  search: [],
});

/** NetBox 4.3: assignments of contacts in any of the groups (contact-groups.ts) */
function inGroups(ids: ReturnType<typeof sql>) {
  return sql`t.contact_id in (select cg.contact_id from tenancy_contact_groups cg where cg.contactgroup_id in ${ids})`;
}
