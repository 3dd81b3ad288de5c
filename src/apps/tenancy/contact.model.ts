/**
 * Contacts (NetBox 3.4 Contact, a primary model): a person or team, optionally in a group. A name
 * is unique within its group. Email and link are checked like Django's EmailField and URLField.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const URL_RE = /^(https?|ftps?):\/\/[^\s/$.?#][^\s]*$/i;

export const contact = defineModel({
  name: 'tenancy.contact',
  path: 'contacts',
  verboseName: 'contact',
  fields: {
    group: fk('tenancy.contactgroup', { treeFilter: true }),
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
  ui: {
    columns: ['name', 'group', 'title', 'phone', 'email'],
    clone: ['group', 'name', 'title', 'phone', 'email', 'address', 'link'],
    groups: [
      { title: 'Contact', fields: ['group', 'name', 'title', 'phone', 'email', 'address', 'link', 'description'] },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'title', 'phone', 'email', 'address', 'link', 'description', 'comments'],
});
