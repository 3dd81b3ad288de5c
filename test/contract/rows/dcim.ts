/** Contract rows of the dcim app (see ../models.ts). */
import { uniq } from '../../helpers/app.js';
import { type ContractCase, created, named } from '../contract-case.js';

export const dcimRows: ContractCase[] = [
  {
    model: 'dcim.region',
    path: '/api/dcim/regions/',
    create: async () => ({ ...named('region'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('region-renamed') }),
    invalid: { name: 'x'.repeat(101) },
    briefFields: ['name', 'slug', 'site_count', '_depth'],
  },
  {
    model: 'dcim.sitegroup',
    path: '/api/dcim/site-groups/',
    create: async () => ({ ...named('sg'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('sg-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'site_count', '_depth'],
  },
  {
    model: 'dcim.site',
    path: '/api/dcim/sites/',
    create: async (ctx) => {
      const region = await created(ctx, '/api/dcim/regions/', named('region'));
      // the region is written by attributes (spec: Writing related objects)
      return { ...named('site'), status: 'planned', region: { slug: region.slug }, facility: 'F1', time_zone: 'UTC', latitude: 12.5 };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: { facility: 'F2', latitude: 40.7128, region: null },
    invalid: { status: 'bogus' },
    briefFields: ['name', 'slug'],
  },
];
