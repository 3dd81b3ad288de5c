/**
 * Contract rows for NetBox 3.6/3.7 user data in extras: saved filters, bookmarks and custom field
 * choice sets (brief fields from NetBox 3.7's nested serializers). The dashboard is no model:
 * test/api/extras/dashboard.test.ts. Spread into CONTRACT by models.ts.
 */
import { type ContractCase, created, named, suiteUserId } from './contract-case.js';
import { uniq } from '../factories/index.js';

export const USERDATA_CONTRACT: ContractCase[] = [
  {
    model: 'extras.savedfilter',
    path: '/api/extras/saved-filters/',
    required: ['content_types', 'name', 'slug', 'parameters'],
    sameTwice: 'refused',
    create: async () => ({
      ...named('sf'),
      content_types: ['dcim.site'],
      parameters: { status: ['active', 'planned'] },
      weight: 10,
    }),
    update: { description: 'updated by contract', parameters: { status: 'retired' } },
    altUpdate: { shared: false, enabled: false, content_types: ['dcim.site', 'dcim.device'] },
    invalid: { parameters: ['not', 'an', 'object'] },
    briefFields: ['name', 'slug'],
  },
  {
    model: 'extras.bookmark',
    path: '/api/extras/bookmarks/',
    required: ['object_type', 'object_id', 'user'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const site = await created(ctx, '/api/dcim/sites/', named('site'));
      return { object_type: 'dcim.site', object_id: site.id, user: await suiteUserId(ctx) };
    },
    // a bookmark has nothing to change but what it points at and whose it is
    update: { object_type: 'dcim.site' },
    altUpdate: {},
    invalid: { object_type: 'dcim.nothing' },
    briefFields: ['object_id', 'object_type'],
    search: (_data, obj) => String(obj.object_id),
  },
  {
    model: 'extras.customfieldchoiceset',
    path: '/api/extras/custom-field-choice-sets/',
    required: ['name', 'extra_choices'],
    sameTwice: 'refused',
    create: async () => ({
      name: uniq('cfcs'),
      extra_choices: [
        ['gold', 'Gold'],
        ['silver', 'Silver'],
      ],
    }),
    update: {
      description: 'updated by contract',
      extra_choices: [
        ['bronze', 'Bronze'],
        ['copper', 'Copper'],
      ],
    },
    altUpdate: { order_alphabetically: true },
    invalid: { base_choices: 'bogus' },
    briefFields: ['name', 'choices_count'],
  },
];
