/**
 * Contract rows for the vpn app (NetBox 3.7 vpn models; brief fields from its nested serializers).
 * L2VPNs and their terminations are also served under /api/ipam/ (test/api/vpn/l2vpns.test.ts
 * checks that path); the rows use the model's own path. Spread into CONTRACT by models.ts.
 */
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { deviceOf } from './models-dcim.js';
import { uniq } from '../factories/index.js';

const ikeProposal = (ctx: ContractContext) =>
  created(ctx, '/api/vpn/ike-proposals/', {
    name: uniq('ikep'),
    authentication_method: 'certificates',
    encryption_algorithm: 'aes-128-gcm',
    group: 19,
  });
const ipsecProposal = (ctx: ContractContext) =>
  created(ctx, '/api/vpn/ipsec-proposals/', { name: uniq('ipsecp'), authentication_algorithm: 'hmac-sha512' });
const tunnel = (ctx: ContractContext) =>
  created(ctx, '/api/vpn/tunnels/', { name: uniq('tun'), encapsulation: 'ip-ip' });
const l2vpn = (ctx: ContractContext, extra: Json = {}) =>
  created(ctx, '/api/vpn/l2vpns/', { ...named('l2vpn'), type: 'evpl', ...extra });
const iface = async (ctx: ContractContext) =>
  created(ctx, '/api/dcim/interfaces/', { device: (await deviceOf(ctx)).id, name: uniq('tun'), type: 'virtual' });

// objects an update moves terminations to, written by attributes, made once per app
const SHARED_TUNNEL = uniq('contract-tunnel');
const SHARED_L2VPNS = [uniq('contract-l2vpn-a'), uniq('contract-l2vpn-b')];
const shared = new WeakMap<object, Promise<unknown>>();
function ensureShared(ctx: ContractContext): Promise<unknown> {
  let p = shared.get(ctx.t);
  if (!p) {
    p = (async () => {
      await created(ctx, '/api/vpn/tunnels/', { name: SHARED_TUNNEL, encapsulation: 'gre' });
      for (const slug of SHARED_L2VPNS) await created(ctx, '/api/vpn/l2vpns/', { name: slug, slug, type: 'vxlan' });
    })();
    shared.set(ctx.t, p);
  }
  return p;
}

export const VPN_CONTRACT: ContractCase[] = [
  {
    model: 'vpn.tunnelgroup',
    path: '/api/vpn/tunnel-groups/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('tgroup'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('tgroup2') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'tunnel_count'],
  },
  {
    model: 'vpn.tunnel',
    path: '/api/vpn/tunnels/',
    required: ['name', 'encapsulation'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('tun'), status: 'planned', encapsulation: 'gre', tunnel_id: 7 }),
    update: { status: 'disabled', description: 'updated by contract' },
    altUpdate: { encapsulation: 'ipsec-transport', tunnel_id: null },
    invalid: { encapsulation: 'bogus' },
    briefFields: ['name'],
  },
  {
    model: 'vpn.tunneltermination',
    path: '/api/vpn/tunnel-terminations/',
    required: ['tunnel', 'termination_type'],
    sameTwice: 'refused',
    create: async (ctx) => {
      await ensureShared(ctx);
      return {
        tunnel: (await tunnel(ctx)).id,
        role: 'spoke',
        termination_type: 'dcim.interface',
        termination_id: (await iface(ctx)).id,
      };
    },
    update: { role: 'hub' },
    altUpdate: { tunnel: { name: SHARED_TUNNEL } },
    invalid: { role: 'bogus' },
    briefFields: [],
    search: (_d, obj) => String((obj.tunnel as Json).name),
  },
  {
    model: 'vpn.ikeproposal',
    path: '/api/vpn/ike-proposals/',
    required: ['name', 'authentication_method', 'encryption_algorithm', 'group'],
    sameTwice: 'refused',
    create: async () => ({
      name: uniq('ikep'),
      authentication_method: 'preshared-keys',
      encryption_algorithm: 'aes-256-cbc',
      authentication_algorithm: 'hmac-sha256',
      group: 14,
    }),
    update: { group: 20, sa_lifetime: 3600 },
    altUpdate: { authentication_algorithm: '', comments: 'patched' },
    invalid: { group: 3 },
    briefFields: ['name'],
  },
  {
    model: 'vpn.ikepolicy',
    path: '/api/vpn/ike-policies/',
    required: ['name'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      name: uniq('ikepol'),
      version: 1,
      mode: 'aggressive',
      proposals: [(await ikeProposal(ctx)).id],
      preshared_key: uniq('key'),
    }),
    update: { mode: 'main', description: 'updated by contract' },
    altUpdate: { proposals: [], comments: 'patched' },
    invalid: { version: 9 },
    briefFields: ['name'],
  },
  {
    model: 'vpn.ipsecproposal',
    path: '/api/vpn/ipsec-proposals/',
    required: ['name'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('ipsecp'), encryption_algorithm: '3des-cbc', sa_lifetime_seconds: 3600 }),
    update: { authentication_algorithm: 'hmac-md5', sa_lifetime_data: 1024 },
    altUpdate: { encryption_algorithm: 'aes-192-gcm', sa_lifetime_seconds: null },
    invalid: { encryption_algorithm: 'rot13' },
    briefFields: ['name'],
  },
  {
    model: 'vpn.ipsecpolicy',
    path: '/api/vpn/ipsec-policies/',
    required: ['name'],
    sameTwice: 'refused',
    create: async (ctx) => ({ name: uniq('ipsecpol'), proposals: [(await ipsecProposal(ctx)).id], pfs_group: 5 }),
    update: { pfs_group: null, description: 'updated by contract' },
    altUpdate: { proposals: [], comments: 'patched' },
    invalid: { pfs_group: 4 },
    briefFields: ['name'],
  },
  {
    model: 'vpn.ipsecprofile',
    path: '/api/vpn/ipsec-profiles/',
    required: ['name', 'mode', 'ike_policy', 'ipsec_policy'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const ike = await created(ctx, '/api/vpn/ike-policies/', {
        name: uniq('ikepol'),
        proposals: [(await ikeProposal(ctx)).id],
      });
      const ipsec = await created(ctx, '/api/vpn/ipsec-policies/', {
        name: uniq('ipsecpol'),
        proposals: [(await ipsecProposal(ctx)).id],
      });
      return { name: uniq('profile'), mode: 'esp', ike_policy: ike.id, ipsec_policy: ipsec.id };
    },
    update: { mode: 'ah', description: 'updated by contract' },
    altUpdate: { comments: 'patched' },
    invalid: { mode: 'gre' },
    briefFields: ['name'],
  },
  {
    model: 'vpn.l2vpn',
    path: '/api/vpn/l2vpns/',
    required: ['name', 'slug', 'type'],
    sameTwice: 'refused',
    create: async () => ({
      ...named('l2vpn'),
      type: 'vxlan-evpn',
      identifier: 10000 + Math.floor(Math.random() * 1e6),
      description: 'contract',
    }),
    update: { type: 'mpls-evpn', description: 'updated by contract' },
    altUpdate: { identifier: null, comments: 'patched' },
    invalid: { type: 'bogus' },
    briefFields: ['identifier', 'name', 'slug', 'type'],
  },
  {
    model: 'vpn.l2vpntermination',
    path: '/api/vpn/l2vpn-terminations/',
    required: ['l2vpn', 'assigned_object_type', 'assigned_object_id'],
    sameTwice: 'refused',
    create: async (ctx) => {
      await ensureShared(ctx);
      return {
        l2vpn: (await l2vpn(ctx)).id,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: (await iface(ctx)).id,
      };
    },
    update: { l2vpn: { slug: SHARED_L2VPNS[0] } },
    altUpdate: { l2vpn: { slug: SHARED_L2VPNS[1] } },
    invalid: { assigned_object_type: 'dcim.site' },
    briefFields: ['l2vpn'],
    search: (_d, obj) => String((obj.l2vpn as Json).name),
  },
];
