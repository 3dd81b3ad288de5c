/** Contract rows of the users app (spread into CONTRACT by models.ts). */
import { type ContractCase, suiteUserId } from './contract-case.js';
import { uniq } from '../factories/index.js';

export const USERS_CONTRACT: ContractCase[] = [
  {
    model: 'users.user',
    path: '/api/users/users/',
    required: ['username', 'password'],
    sameTwice: 'refused',
    create: async () => ({ username: uniq('user'), password: 'contract-Pass-1', first_name: 'Con' }),
    update: { first_name: 'Updated', email: 'updated@example.com' },
    altUpdate: { last_name: 'Other', is_active: false },
    invalid: { username: 'not valid!' },
    briefFields: ['username'],
    search: (d) => String(d.username),
  },
  {
    model: 'users.group',
    path: '/api/users/groups/',
    required: ['name'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('group') }),
    // a group has one writable attribute, so both patches rename it
    update: () => ({ name: uniq('group-renamed') }),
    altUpdate: () => ({ name: uniq('group-other') }),
    invalid: { name: 'x'.repeat(151) },
    briefFields: ['name'],
  },
  {
    model: 'users.token',
    path: '/api/users/tokens/',
    required: ['user'],
    sameTwice: 'allowed',
    create: async (ctx) => ({ user: await suiteUserId(ctx), description: uniq('token'), write_enabled: false }),
    update: { description: 'updated by contract', write_enabled: true },
    altUpdate: { expires: '2099-01-01T00:00:00Z' },
    invalid: { expires: 'not a date' },
    briefFields: ['key', 'write_enabled'],
    search: (d) => String(d.description),
  },
  {
    model: 'users.objectpermission',
    path: '/api/users/permissions/',
    required: ['name', 'object_types', 'actions'],
    sameTwice: 'allowed',
    create: async () => ({
      name: uniq('perm'),
      object_types: ['dcim.site'],
      actions: ['view'],
      description: 'contract',
    }),
    update: { enabled: false, description: 'updated by contract' },
    altUpdate: { actions: ['view', 'change'] },
    invalid: { name: 'x'.repeat(101) },
    briefFields: ['name', 'enabled', 'object_types', 'groups', 'users', 'actions'],
  },
];
