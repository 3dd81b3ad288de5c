/** Contract rows of the tenancy app (spread into CONTRACT by models.ts). */
import { type ContractCase, created, named } from './contract-case.js';
import { uniq } from '../factories/index.js';

export const TENANCY_CONTRACT: ContractCase[] = [
  {
    model: 'tenancy.tenantgroup',
    path: '/api/tenancy/tenant-groups/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('tg'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('tg-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'tenant_count', '_depth'],
  },
  {
    model: 'tenancy.tenant',
    path: '/api/tenancy/tenants/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const group = await created(ctx, '/api/tenancy/tenant-groups/', named('tg'));
      return { ...named('tenant'), group: group.id, comments: 'contract' };
    },
    update: { description: 'updated by contract', comments: 'patched' },
    altUpdate: { group: null },
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug'],
  },
];
