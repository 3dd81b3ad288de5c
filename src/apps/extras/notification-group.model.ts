/**
 * Notification groups (NetBox 4.1): users and groups of users an event rule may notify. Served in
 * the 4.4 dialect only. An event rule with action_type 'notification' names one, and the outbox
 * worker notifies its users and its groups' users (core/events/notify.ts notifyGroup).
 */
import { defineModel } from '../../core/model/define-model.js';
import { description } from '../fields.js';
import { membershipFilter } from '../users/membership-filter.js';

export const notificationGroup = defineModel({
  name: 'extras.notificationgroup',
  path: 'notification-groups',
  verboseName: 'notification group',
  dialect: '4.4',
  fields: {
    name: { kind: 'string', required: true, maxLength: 100, unique: true },
    description: description(),
    groups: {
      kind: 'm2m',
      to: 'users.group',
      through: { table: 'extras_notificationgroup_groups', from: 'notificationgroup_id', to: 'group_id' },
    },
    users: {
      kind: 'm2m',
      to: 'users.user',
      through: { table: 'extras_notificationgroup_users', from: 'notificationgroup_id', to: 'user_id' },
    },
  },
  tags: false,
  customFields: false,
  filters: {
    user: membershipFilter('users', 'username'),
    user_id: membershipFilter('users', 'id'),
    group: membershipFilter('groups', 'name'),
    group_id: membershipFilter('groups', 'id'),
  },
  ui: {
    columns: ['name', 'groups', 'users', 'description'],
    groups: [
      { title: 'Notification Group', fields: ['name', 'description'] },
      { title: 'Members', fields: ['groups', 'users'] },
    ],
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description'],
});
