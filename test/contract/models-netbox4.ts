/**
 * Contract rows for the models NetBox 4.0-4.4 added, served in the 4.4 dialect only (each row's
 * `dialect`). Brief fields are NetBox 4.4.10's serializers' `brief_fields` besides id, url and
 * display. Spread into CONTRACT by models.ts.
 */
import { type ContractCase, type ContractContext, type Json, named } from './contract-case.js';
import { make44 } from '../factories/netbox4.js';
import { uniq } from '../factories/index.js';

/** a prerequisite made in the 4.4 dialect */
const created44 = (ctx: ContractContext, path: string, data: Json): Promise<Json> => make44(ctx.t, path, data);

export const NETBOX4_CONTRACT: ContractCase[] = [
  {
    model: 'dcim.racktype',
    path: '/api/dcim/rack-types/',
    dialect: '4.4',
    required: ['manufacturer', 'model', 'slug', 'form_factor'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const mfr = await created44(ctx, '/api/dcim/manufacturers/', named('mfr'));
      const model = uniq('rtype');
      return { manufacturer: mfr.id, model, slug: model, form_factor: 'wall-frame', u_height: 12 };
    },
    update: { description: 'updated by contract', u_height: 24 },
    altUpdate: { outer_width: 600, outer_unit: 'mm' },
    invalid: { form_factor: 'bogus' },
    briefFields: ['manufacturer', 'model', 'slug', 'description'],
    search: (d) => String(d.model),
  },
  {
    model: 'dcim.moduletypeprofile',
    path: '/api/dcim/module-type-profiles/',
    dialect: '4.4',
    required: ['name'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('mtprof'), schema: { type: 'object', properties: { a: { type: 'string' } } } }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('mtprof-renamed') }),
    invalid: { schema: 'not a schema' },
    briefFields: ['name', 'description'],
  },
];
