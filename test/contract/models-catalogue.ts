/** Contract rows of the rest of the catalogue: ASN ranges, FHRP groups and assignments, provider accounts, virtual disks, VDCs. */
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { device } from './models-dcim.js';
import { uniq } from '../factories/index.js';

let block = 0;
const rir = (ctx: ContractContext) => created(ctx, '/api/ipam/rirs/', named('rir'));
const group = (ctx: ContractContext) =>
  created(ctx, '/api/ipam/fhrp-groups/', { protocol: 'vrrp2', group_id: 10, name: uniq('fhrp') });

/** one interface per assignment row: (interface, group) is unique */
async function iface(ctx: ContractContext): Promise<Json> {
  return created(ctx, '/api/dcim/interfaces/', {
    device: (await device(ctx)).id,
    name: uniq('ge-'),
    type: '1000base-t',
  });
}

export const IPAM_CATALOGUE_CONTRACT: ContractCase[] = [
  {
    model: 'ipam.asnrange',
    path: '/api/ipam/asn-ranges/',
    required: ['name', 'slug', 'rir', 'start', 'end'],
    sameTwice: 'refused',
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
    required: ['protocol', 'group_id'],
    sameTwice: 'allowed',
    create: async () => ({
      protocol: 'hsrp',
      group_id: 1 + (++block % 30000),
      name: uniq('fhrp'),
      auth_type: 'md5',
      auth_key: 's3cret',
    }),
    update: { description: 'updated by contract', auth_type: 'plaintext' },
    altUpdate: { protocol: 'vrrp3', comments: 'patched' },
    invalid: { protocol: 'bogus' },
    briefFields: ['protocol', 'group_id'],
  },
  {
    model: 'ipam.fhrpgroupassignment',
    path: '/api/ipam/fhrp-group-assignments/',
    required: ['group', 'interface_type', 'interface_id', 'priority'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      group: (await group(ctx)).id,
      interface_type: 'dcim.interface',
      interface_id: (await iface(ctx)).id,
      priority: 100,
    }),
    update: { priority: 200 },
    altUpdate: { priority: 50 },
    invalid: { priority: 256 },
    briefFields: ['group', 'interface_type', 'interface_id', 'priority'],
    search: (_d, created) => String((created.group as Json).display).split(' ')[0]!,
  },
];

/** Contract rows of the catalogue's smaller models in other apps: provider accounts, virtual disks, VDCs. */
export const SMALL_CATALOGUE_CONTRACT: ContractCase[] = [
  {
    model: 'circuits.provideraccount',
    path: '/api/circuits/provider-accounts/',
    required: ['provider', 'account'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      provider: (await created(ctx, '/api/circuits/providers/', named('prov'))).id,
      account: uniq('acct'),
      name: uniq('acct-name'),
    }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ account: uniq('acct-renamed'), comments: 'patched' }),
    invalid: { account: '' },
    briefFields: ['name', 'account'],
  },
  {
    model: 'virtualization.virtualdisk',
    path: '/api/virtualization/virtual-disks/',
    required: ['virtual_machine', 'name', 'size'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const type = await created(ctx, '/api/virtualization/cluster-types/', named('ctype'));
      const cluster = await created(ctx, '/api/virtualization/clusters/', { name: uniq('cluster'), type: type.id });
      const vm = await created(ctx, '/api/virtualization/virtual-machines/', { name: uniq('vm'), cluster: cluster.id });
      return { virtual_machine: vm.id, name: uniq('disk'), size: 40 };
    },
    update: { size: 80, description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('disk-renamed') }),
    invalid: { size: -1 },
    briefFields: ['virtual_machine', 'name', 'size'],
  },
  {
    model: 'dcim.virtualdevicecontext',
    path: '/api/dcim/virtual-device-contexts/',
    required: ['name', 'device', 'status'],
    sameTwice: 'refused',
    create: async (ctx) => ({ device: (await device(ctx)).id, name: uniq('vdc'), status: 'active', identifier: 1 }),
    update: { status: 'planned', description: 'updated by contract' },
    altUpdate: { identifier: 2, comments: 'patched' },
    invalid: { status: 'bogus' },
    briefFields: ['name', 'identifier', 'device'],
  },
];

/** Contract rows of the wireless app. */
export const WIRELESS_CONTRACT: ContractCase[] = [
  {
    model: 'wireless.wirelesslangroup',
    path: '/api/wireless/wireless-lan-groups/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => named('wlangroup'),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('wlangroup-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'wirelesslan_count', '_depth'],
  },
  {
    model: 'wireless.wirelesslan',
    path: '/api/wireless/wireless-lans/',
    required: ['ssid'],
    sameTwice: 'allowed',
    create: async () => ({
      ssid: uniq('ssid').slice(0, 32),
      auth_type: 'wpa-personal',
      auth_cipher: 'aes',
      auth_psk: 'secret-psk',
    }),
    update: { status: 'disabled', description: 'updated by contract' },
    altUpdate: { auth_type: 'open', comments: 'patched' },
    invalid: { status: 'bogus' },
    briefFields: ['ssid'],
    search: (d) => String(d.ssid),
  },
  {
    model: 'wireless.wirelesslink',
    path: '/api/wireless/wireless-links/',
    required: ['interface_a', 'interface_b'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const d = await device(ctx);
      const radio = () =>
        created(ctx, '/api/dcim/interfaces/', { device: d.id, name: uniq('wlan'), type: 'ieee802.11ac' });
      return { interface_a: (await radio()).id, interface_b: (await radio()).id, ssid: uniq('ptp').slice(0, 32) };
    },
    update: { status: 'planned', description: 'updated by contract' },
    altUpdate: { auth_type: 'wpa-personal', auth_psk: 'k' },
    invalid: { status: 'bogus' },
    briefFields: ['ssid'],
    search: (d) => String(d.ssid),
  },
];
