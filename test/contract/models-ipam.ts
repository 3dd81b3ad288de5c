/**
 * Contract rows for the ipam app (NetBox 3.4 reference 3.3; brief fields from NetBox's nested
 * serializers, except the prefix brief form the spec fixes). Spread into CONTRACT by models.ts.
 * Addresses, prefixes, RDs and ASNs come from a per-process counter so every call is unique and
 * no two aggregates or ranges overlap.
 */
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { uniq } from '../factories/index.js';

let counter = Math.floor(Math.random() * 1000);
const next = () => ++counter;
/** a unique /24 inside `first.0.0.0/8` */
const net24 = (first: number) => {
  const n = next();
  return `${first}.${(n >> 8) & 255}.${n & 255}`;
};

const rir = (ctx: ContractContext) => created(ctx, '/api/ipam/rirs/', named('rir'));
const byDescription = (d: Json) => String(d.description);

export const IPAM_CONTRACT: ContractCase[] = [
  {
    model: 'ipam.vrf',
    path: '/api/ipam/vrfs/',
    required: ['name'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('vrf'), rd: `65000:${next()}`, enforce_unique: true, description: 'contract' }),
    update: { description: 'updated by contract', enforce_unique: false },
    altUpdate: () => ({ rd: `65001:${next()}` }),
    invalid: { rd: 'x'.repeat(22) },
    briefFields: ['name', 'rd', 'prefix_count'],
  },
  {
    model: 'ipam.routetarget',
    path: '/api/ipam/route-targets/',
    required: ['name'],
    sameTwice: 'refused',
    create: async () => ({ name: `65000:${next()}`, description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: `65002:${next()}`, comments: 'patched' }),
    invalid: { name: 'x'.repeat(22) },
    briefFields: ['name'],
  },
  {
    model: 'ipam.rir',
    path: '/api/ipam/rirs/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('rir'), is_private: true }),
    update: { description: 'updated by contract' },
    altUpdate: { is_private: false },
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'aggregate_count'],
  },
  {
    model: 'ipam.aggregate',
    path: '/api/ipam/aggregates/',
    required: ['prefix', 'rir'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      prefix: `${net24(10)}.0/24`,
      rir: (await rir(ctx)).id,
      date_added: '2024-01-02',
      description: uniq('agg'),
    }),
    update: { description: 'updated by contract' },
    altUpdate: { date_added: null, comments: 'patched' },
    invalid: { prefix: 'not-a-prefix' },
    briefFields: ['family', 'prefix'],
    briefOwnForm: ['family'],
    search: byDescription,
  },
  {
    model: 'ipam.asn',
    path: '/api/ipam/asns/',
    required: ['asn', 'rir'],
    sameTwice: 'refused',
    create: async (ctx) => ({ asn: 4_200_000_000 + next(), rir: (await rir(ctx)).id, description: uniq('asn') }),
    update: { description: 'updated by contract' },
    altUpdate: { comments: 'patched' },
    invalid: { asn: 0 },
    briefFields: ['asn'],
    search: byDescription,
  },
  {
    model: 'ipam.role',
    path: '/api/ipam/roles/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('role'), weight: 500 }),
    update: { description: 'updated by contract', weight: 100 },
    altUpdate: () => ({ name: uniq('role-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'prefix_count', 'vlan_count'],
  },
  {
    model: 'ipam.prefix',
    path: '/api/ipam/prefixes/',
    required: ['prefix'],
    sameTwice: 'allowed',
    create: async () => ({ prefix: `${net24(11)}.0/24`, status: 'reserved', is_pool: true, description: uniq('pfx') }),
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: { is_pool: false, mark_utilized: true },
    invalid: { status: 'bogus' },
    // spec: exactly id, url, family (integer) and prefix
    briefFields: ['family', 'prefix'],
    briefWithoutDisplay: true,
    briefOwnForm: ['family'],
    search: byDescription,
  },
  {
    model: 'ipam.iprange',
    path: '/api/ipam/ip-ranges/',
    required: ['start_address', 'end_address'],
    sameTwice: 'refused',
    create: async () => {
      const base = net24(12);
      return {
        start_address: `${base}.10/24`,
        end_address: `${base}.20/24`,
        status: 'reserved',
        description: uniq('range'),
      };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: { status: 'deprecated', comments: 'patched' },
    invalid: { status: 'bogus' },
    briefFields: ['family', 'start_address', 'end_address'],
    briefOwnForm: ['family'],
    search: byDescription,
  },
  {
    model: 'ipam.ipaddress',
    path: '/api/ipam/ip-addresses/',
    required: ['address'],
    sameTwice: 'allowed',
    create: async () => ({
      address: `${net24(13)}.1/24`,
      status: 'reserved',
      role: 'loopback',
      dns_name: 'host.example.net',
      description: uniq('ip'),
    }),
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: { role: 'vip', dns_name: 'other.example.net' },
    invalid: { address: 'not-an-address' },
    briefFields: ['family', 'address'],
    briefOwnForm: ['family'],
    search: byDescription,
  },
  {
    model: 'ipam.vlangroup',
    path: '/api/ipam/vlan-groups/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const site = await created(ctx, '/api/dcim/sites/', named('site'));
      return { ...named('vg'), scope_type: 'dcim.site', scope_id: site.id, min_vid: 100, max_vid: 200 };
    },
    update: { description: 'updated by contract' },
    altUpdate: { max_vid: 300 },
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'vlan_count'],
  },
  {
    model: 'ipam.vlan',
    path: '/api/ipam/vlans/',
    required: ['vid', 'name'],
    sameTwice: 'allowed',
    create: async (ctx) => {
      const site = await created(ctx, '/api/dcim/sites/', named('site'));
      return { site: site.id, vid: 1 + (next() % 4000), name: uniq('vlan'), status: 'reserved' };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: { status: 'deprecated', comments: 'patched' },
    invalid: { vid: 5000 },
    briefFields: ['vid', 'name'],
  },
  {
    model: 'ipam.servicetemplate',
    path: '/api/ipam/service-templates/',
    required: ['name', 'ports', 'protocol'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('svc-tpl'), protocol: 'tcp', ports: [22], description: 'contract' }),
    update: { description: 'updated by contract', ports: [22, 2222] },
    altUpdate: { protocol: 'udp', comments: 'patched' },
    invalid: { ports: [0] },
    briefFields: ['name', 'protocol', 'ports'],
  },
  {
    model: 'ipam.service',
    path: '/api/ipam/services/',
    required: ['name', 'ports', 'protocol'],
    sameTwice: 'allowed',
    create: async (ctx) => {
      // a virtual machine parent (a device needs more prerequisites); services/test covers devices
      const type = await created(ctx, '/api/virtualization/cluster-types/', named('ctype'));
      const cluster = await created(ctx, '/api/virtualization/clusters/', { name: uniq('cluster'), type: type.id });
      const vm = await created(ctx, '/api/virtualization/virtual-machines/', { name: uniq('vm'), cluster: cluster.id });
      return { virtual_machine: vm.id, name: uniq('svc'), protocol: 'tcp', ports: [80, 443], description: 'contract' };
    },
    update: { description: 'updated by contract', ports: [8080] },
    altUpdate: () => ({ name: uniq('svc-renamed'), protocol: 'sctp' }),
    invalid: { protocol: 'bogus' },
    briefFields: ['name', 'protocol', 'ports'],
  },
];
