/**
 * Contract rows of the virtualization app (see ../models.ts; reference 3.5, brief fields from
 * NetBox 3.4's nested serializers). Each create builds its prerequisites through the API.
 */
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { uniq } from '../factories/index.js';

async function cluster(ctx: ContractContext): Promise<Json> {
  const type = await created(ctx, '/api/virtualization/cluster-types/', named('ctype'));
  return created(ctx, '/api/virtualization/clusters/', { name: uniq('cluster'), type: type.id });
}

/** one VM per test app for the interface rows (names are unique per VM, ids keep them apart) */
const sharedVm = new WeakMap<object, Promise<Json>>();
function vmOf(ctx: ContractContext): Promise<Json> {
  let vm = sharedVm.get(ctx.t);
  if (!vm)
    sharedVm.set(
      ctx.t,
      (vm = cluster(ctx).then((c) =>
        created(ctx, '/api/virtualization/virtual-machines/', { name: uniq('vm'), cluster: c.id }),
      )),
    );
  return vm;
}

export const VIRTUALIZATION_CONTRACT: ContractCase[] = [
  {
    model: 'virtualization.clustertype',
    path: '/api/virtualization/cluster-types/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('ctype'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('ctype-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'cluster_count'],
  },
  {
    model: 'virtualization.clustergroup',
    path: '/api/virtualization/cluster-groups/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('cgroup'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('cgroup-renamed') }),
    invalid: { name: 'x'.repeat(101) },
    briefFields: ['name', 'slug', 'cluster_count'],
  },
  {
    model: 'virtualization.cluster',
    path: '/api/virtualization/clusters/',
    required: ['name', 'type'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const [type, group, site] = [
        await created(ctx, '/api/virtualization/cluster-types/', named('ctype')),
        await created(ctx, '/api/virtualization/cluster-groups/', named('cgroup')),
        await created(ctx, '/api/dcim/sites/', named('site')),
      ];
      // the type is written by attributes (spec: Writing related objects)
      return { name: uniq('cluster'), type: { slug: type.slug }, group: group.id, site: site.id, status: 'planned' };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('cluster-renamed'), comments: 'patched' }),
    invalid: { status: 'bogus' },
    briefFields: ['name', 'virtualmachine_count'],
  },
  {
    model: 'virtualization.virtualmachine',
    path: '/api/virtualization/virtual-machines/',
    required: ['name'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const [c, role] = [
        await cluster(ctx),
        await created(ctx, '/api/dcim/device-roles/', { ...named('role'), vm_role: true }),
      ];
      return { name: uniq('vm'), cluster: c.id, role: role.id, status: 'planned', vcpus: 2, memory: 2048, disk: 20 };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('vm-renamed'), vcpus: 1.5, local_context_data: { ntp: ['192.0.2.1'] } }),
    invalid: { status: 'bogus' },
    briefFields: ['name'],
  },
  {
    model: 'virtualization.vminterface',
    path: '/api/virtualization/interfaces/',
    required: ['virtual_machine', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      virtual_machine: (await vmOf(ctx)).id,
      name: uniq('eth'),
      mtu: 1500,
      description: 'contract',
    }),
    update: { enabled: false, description: 'updated by contract' },
    altUpdate: { mac_address: '00:1A:2B:3C:4D:5E', mode: 'access' },
    invalid: { mtu: 0 },
    briefFields: ['virtual_machine', 'name'],
  },
];
