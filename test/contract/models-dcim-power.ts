/**
 * Contract rows of power panels and power feeds (NetBox 3.4 PowerPanel, PowerFeed). Brief forms
 * from NetBox 3.4's nested serializers.
 */
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { uniq } from '../factories/index.js';

const site = (ctx: ContractContext) => created(ctx, '/api/dcim/sites/', named('site'));

async function panel(ctx: ContractContext): Promise<Json> {
  return created(ctx, '/api/dcim/power-panels/', { site: (await site(ctx)).id, name: uniq('panel') });
}

export const DCIM_POWER_CONTRACT: ContractCase[] = [
  {
    model: 'dcim.powerpanel',
    path: '/api/dcim/power-panels/',
    required: ['site', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({ site: (await site(ctx)).id, name: uniq('panel'), description: 'contract' }),
    update: { description: 'updated by contract', comments: 'patched' },
    altUpdate: () => ({ name: uniq('panel-renamed') }),
    invalid: { site: 999999 },
    briefFields: ['name', 'powerfeed_count'],
  },
  {
    model: 'dcim.powerfeed',
    path: '/api/dcim/power-feeds/',
    required: ['power_panel', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      power_panel: (await panel(ctx)).id,
      name: uniq('feed'),
      status: 'planned',
      voltage: 230,
      amperage: 16,
    }),
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('feed-renamed'), phase: 'three-phase', max_utilization: 90 }),
    invalid: { supply: 'bogus' },
    briefFields: ['name', 'cable', '_occupied'],
  },
];
