/** Contract rows of the dcim app (spread into CONTRACT by models.ts). */
import { type ContractCase, type ContractContext, created, named } from './contract-case.js';
import { uniq } from '../factories/index.js';

let asnCounter = 0;
/** a new ASN (and RIR) to assign: sites carry an m2m of ASNs (reference 3.1) */
async function newAsn(ctx: ContractContext) {
  const rir = await created(ctx, '/api/ipam/rirs/', named('rir'));
  return created(ctx, '/api/ipam/asns/', { asn: 4_100_000_000 + ++asnCounter, rir: rir.id });
}

export const DCIM_SITES_CONTRACT: ContractCase[] = [
  {
    model: 'dcim.region',
    path: '/api/dcim/regions/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('region'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('region-renamed') }),
    invalid: { name: 'x'.repeat(101) },
    briefFields: ['name', 'slug', 'site_count', '_depth'],
  },
  {
    model: 'dcim.sitegroup',
    path: '/api/dcim/site-groups/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('sg'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('sg-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'site_count', '_depth'],
  },
  {
    model: 'dcim.site',
    path: '/api/dcim/sites/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const region = await created(ctx, '/api/dcim/regions/', named('region'));
      const asn = await newAsn(ctx);
      // the region is written by attributes (spec: Writing related objects)
      return {
        ...named('site'),
        status: 'planned',
        region: { slug: region.slug },
        facility: 'F1',
        time_zone: 'UTC',
        latitude: 12.5,
        asns: [asn.id],
      };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: { facility: 'F2', latitude: 40.7128, region: null, asns: [] },
    invalid: { status: 'bogus' },
    briefFields: ['name', 'slug'],
  },
];
