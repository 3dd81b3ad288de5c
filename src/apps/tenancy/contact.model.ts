/**
 * Contacts (NetBox 3.4 Contact, a primary model): a person or team, in any number of groups
 * (NetBox 4.3; 3.4 shows the first: contact-groups.ts). A name is unique within its first group.
 * Email and link are checked like Django's EmailField and URLField.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';
import { contactGroupFilter, firstGroupOf, groupsField, syncContactGroups } from './contact-groups.js';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^(https?|ftps?):\/\/[^\s/$.?#][^\s]*$/i;

export const contact = defineModel({
  name: 'tenancy.contact',
  path: 'contacts',
  verboseName: 'contact',
  fields: {
    group: fk('tenancy.contactgroup', { treeFilter: true }),
    groups: groupsField,
    name: name(100),
    title: { kind: 'string', maxLength: 100 },
    phone: { kind: 'string', maxLength: 50 },
    email: { kind: 'string', maxLength: 254, pattern: { regex: EMAIL_RE, message: 'Enter a valid email address.' } },
    address: { kind: 'string', maxLength: 200 },
    link: { kind: 'string', maxLength: 200, pattern: { regex: URL_RE, message: 'Enter a valid URL.' } },
    description: description(),
    comments: comments(),
  },
  uniqueTogether: [{ fields: ['group', 'name'] }],
  // NetBox 4.3: any of the groups (or the groups below them), in both dialects
  filters: { group: contactGroupFilter(false), group_id: contactGroupFilter(true) },
  hooks: {
    async validate({ rc, data, before, sent, earlier }) {
      // the uniqueness check before the hooks read 3.4's `group`; a written list names the first group here
      if (!sent.has('groups')) return;
      const group = firstGroupOf(data, sent);
      if (group == null) return;
      const clash =
        earlier.some((e) => firstGroupOf(e) === group && e.name === data.name) ||
        (
          await sql`select 1 from tenancy_contact where group_id = ${group} and name = ${data.name}
            and id <> ${before?.id ?? 0}`.execute(rc.q)
        ).rows.length > 0;
      if (clash) return { __all__: ['Contact with this Group and Name already exists.'] };
    },
    prepare({ data, before, sent, m2m }) {
      syncContactGroups(data, before, sent, m2m);
    },
  },
  ui: {
    columns: ['name', 'group', 'title', 'phone', 'email'],
    clone: ['group', 'name', 'title', 'phone', 'email', 'address', 'link'],
    groups: [
      {
        title: 'Contact',
        fields: ['group', 'groups', 'name', 'title', 'phone', 'email', 'address', 'link', 'description'],
      },
    ],
  },
  brief: ['name'],
  netbox44: { hidden: ['group'] },
  ordering: ['name'],
  search: ['name', 'title', 'phone', 'email', 'address', 'link', 'description', 'comments'],
});
