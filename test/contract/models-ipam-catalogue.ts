/** Contract rows of the IPAM models of issue 14: ASN ranges, FHRP groups and their assignments. */
import { uniq } from '../helpers/app.js';
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { device } from './models-dcim.js';

let block = 0;
const rir = (ctx: ContractContext) => created(ctx, '/api/ipam/rirs/', named('rir'));
const group = (ctx: ContractContext) => created(ctx, '/api/ipam/fhrp-groups/', { protocol: 'vrrp2', group_id: 10, name: uniq('fhrp') });

/** one interface per assignment row: (interface, group) is unique */
async function iface(ctx: ContractContext): Promise<Json> {
  return created(ctx, '/api/dcim/interfaces/', { device: (await device(ctx)).id, name: uniq('ge-'), type: '1000base-t' });
}

export const IPAM_CATALOGUE_CONTRACT: ContractCase[] = [
  {
    model: 'ipam.asnrange',
    path: '/api/ipam/asn-ranges/',
    create: async (ctx) => {
      const start = 4_100_000_000 + ++block * 1000;
      return { ...named('asnrange'), rir: (await rir(ctx)).id, start, end: start + 99 };
    },
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('asnrange-renamed') }),
    invalid: { start: 0 },
    briefFields: ['name'],
  },
  {
    model: 'ipam.fhrpgroup',
    path: '/api/ipam/fhrp-groups/',
    create: async () => ({ protocol: 'hsrp', group_id: 1 + (++block % 30000), name: uniq('fhrp'), auth_type: 'md5', auth_key: 's3cret' }),
    update: { description: 'updated by contract', auth_type: 'plaintext' },
    altUpdate: { protocol: 'vrrp3', comments: 'patched' },
    invalid: { protocol: 'bogus' },
    briefFields: ['protocol', 'group_id'],
  },
  {
    model: 'ipam.fhrpgroupassignment',
    path: '/api/ipam/fhrp-group-assignments/',
    create: async (ctx) => ({ group: (await group(ctx)).id, interface_type: 'dcim.interface', interface_id: (await iface(ctx)).id, priority: 100 }),
    update: { priority: 200 },
    altUpdate: { priority: 50 },
    invalid: { priority: 256 },
    briefFields: ['group', 'interface_type', 'interface_id', 'priority'],
    search: (_d, created) => String((created.group as Json).display).split(' ')[0]!,
  },
];
