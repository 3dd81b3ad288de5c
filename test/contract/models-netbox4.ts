/**
 * Contract rows for the models NetBox 4.0-4.4 added, served in the 4.4 dialect only (each row's
 * `dialect`). Brief fields are NetBox 4.4.10's serializers' `brief_fields` besides id, url and
 * display. Spread into CONTRACT by models.ts.
 */
import { type ContractCase, type ContractContext, type Json, named } from './contract-case.js';
import { make44 } from '../factories/netbox4.js';
import { uniq } from '../factories/index.js';

/** a virtual circuit of a new network and type, made in the 4.4 dialect */
async function newVirtualCircuit(ctx: ContractContext): Promise<Json> {
  const provider = await created44(ctx, '/api/circuits/providers/', named('prov'));
  const network = await created44(ctx, '/api/circuits/provider-networks/', { provider: provider.id, name: uniq('pn') });
  const type = await created44(ctx, '/api/circuits/virtual-circuit-types/', named('vctype'));
  return created44(ctx, '/api/circuits/virtual-circuits/', {
    cid: uniq('vc'),
    provider_network: network.id,
    type: type.id,
  });
}

/** a new virtual interface of a new device */
async function newVirtualInterface(ctx: ContractContext): Promise<Json> {
  const site = await created44(ctx, '/api/dcim/sites/', named('site'));
  const mfr = await created44(ctx, '/api/dcim/manufacturers/', named('mfr'));
  const model = uniq('dtype');
  const dtype = await created44(ctx, '/api/dcim/device-types/', { manufacturer: mfr.id, model, slug: model });
  const role = await created44(ctx, '/api/dcim/device-roles/', named('role'));
  const device = await created44(ctx, '/api/dcim/devices/', {
    name: uniq('dev'),
    site: site.id,
    device_type: dtype.id,
    role: role.id,
  });
  return created44(ctx, '/api/dcim/interfaces/', { device: device.id, name: uniq('vif'), type: 'virtual' });
}

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
  {
    model: 'circuits.circuitgroup',
    path: '/api/circuits/circuit-groups/',
    dialect: '4.4',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('cgroup'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('cgroup-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name'],
  },
  {
    model: 'circuits.circuitgroupassignment',
    path: '/api/circuits/circuit-group-assignments/',
    dialect: '4.4',
    required: ['group', 'member_type', 'member_id'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const group = await created44(ctx, '/api/circuits/circuit-groups/', named('cgroup'));
      const vc = await newVirtualCircuit(ctx);
      return { group: group.id, member_type: 'circuits.virtualcircuit', member_id: vc.id, priority: 'primary' };
    },
    update: { priority: 'secondary' },
    altUpdate: { priority: 'inactive' },
    invalid: { priority: 'bogus' },
    briefFields: ['group', 'member_type', 'member_id', 'member', 'priority'],
    search: (_d, c) => String((c.member as Json).cid),
  },
  {
    model: 'circuits.virtualcircuittype',
    path: '/api/circuits/virtual-circuit-types/',
    dialect: '4.4',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('vctype'), color: '00ff00' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('vctype-renamed') }),
    invalid: { color: 'green' },
    briefFields: ['name', 'slug', 'description', 'virtual_circuit_count'],
  },
  {
    model: 'circuits.virtualcircuit',
    path: '/api/circuits/virtual-circuits/',
    dialect: '4.4',
    required: ['cid', 'provider_network', 'type'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const provider = await created44(ctx, '/api/circuits/providers/', named('prov'));
      const network = await created44(ctx, '/api/circuits/provider-networks/', {
        provider: provider.id,
        name: uniq('pn'),
      });
      const type = await created44(ctx, '/api/circuits/virtual-circuit-types/', named('vctype'));
      return { cid: uniq('vc'), provider_network: network.id, type: type.id, status: 'planned' };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: { comments: 'contract' },
    invalid: { status: 'bogus' },
    briefFields: ['provider_network', 'cid', 'description'],
    search: (d) => String(d.cid),
  },
  {
    model: 'circuits.virtualcircuittermination',
    path: '/api/circuits/virtual-circuit-terminations/',
    dialect: '4.4',
    required: ['virtual_circuit', 'interface'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const vc = await newVirtualCircuit(ctx);
      const iface = await newVirtualInterface(ctx);
      return { virtual_circuit: vc.id, interface: iface.id, role: 'hub', description: uniq('vct') };
    },
    update: { role: 'spoke' },
    altUpdate: { description: 'updated by contract' },
    invalid: { role: 'bogus' },
    briefFields: ['virtual_circuit', 'role', 'interface', 'description'],
    search: (d) => String(d.description),
  },
  {
    model: 'ipam.vlantranslationpolicy',
    path: '/api/ipam/vlan-translation-policies/',
    dialect: '4.4',
    required: ['name'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('vtp'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('vtp-renamed') }),
    invalid: { name: 'x'.repeat(101) },
    briefFields: ['name', 'description'],
  },
  {
    model: 'ipam.vlantranslationrule',
    path: '/api/ipam/vlan-translation-rules/',
    dialect: '4.4',
    required: ['policy', 'local_vid', 'remote_vid'],
    sameTwice: 'refused',
    // NetBox 4.4 shows the policy as a bare id, as it is written
    create: async (ctx) => {
      const policy = await created44(ctx, '/api/ipam/vlan-translation-policies/', { name: uniq('vtp') });
      return { policy: policy.id, local_vid: 100, remote_vid: 200, description: 'contract' };
    },
    update: { description: 'updated by contract' },
    altUpdate: { remote_vid: 300 },
    invalid: { local_vid: 5000 },
    briefFields: ['policy', 'local_vid', 'remote_vid', 'description'],
    // NetBox 4.2 searches the policy's name (shown in the display: `100 -> 200 (<policy>)`)
    search: (_d, obj) => /\(([^)]*)\)$/.exec(String(obj.display))![1]!,
  },
  {
    model: 'extras.configcontextprofile',
    path: '/api/extras/config-context-profiles/',
    dialect: '4.4',
    required: ['name'],
    sameTwice: 'refused',
    create: async () => ({ name: uniq('ccp'), schema: { type: 'object' } }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('ccp-renamed') }),
    invalid: { schema: [] },
    briefFields: ['name', 'description'],
  },
  {
    model: 'extras.tableconfig',
    path: '/api/extras/table-configs/',
    dialect: '4.4',
    required: ['object_type', 'table', 'name', 'columns'],
    sameTwice: 'allowed',
    create: async () => ({
      object_type: 'dcim.site',
      table: 'SiteTable',
      name: uniq('tc'),
      columns: ['name', 'status'],
      ordering: ['name'],
    }),
    update: { description: 'updated by contract', weight: 10 },
    altUpdate: { columns: ['name'], shared: false },
    invalid: { columns: ['bogus'] },
    briefFields: ['name', 'description', 'object_type', 'table'],
  },
  {
    model: 'extras.taggeditem',
    path: '/api/extras/tagged-objects/',
    dialect: '4.4',
    readOnly: true,
    seed: async (ctx) => {
      // three assignments, as the read-only suite pages through three objects at least
      const tag = await created44(ctx, '/api/extras/tags/', named('tag'));
      const other = await created44(ctx, '/api/extras/tags/', named('tag'));
      await created44(ctx, '/api/dcim/sites/', { ...named('site'), tags: [tag.id, other.id] });
      await created44(ctx, '/api/dcim/sites/', { ...named('site'), tags: [tag.id] });
    },
    briefFields: ['object_type', 'object_id', 'object', 'tag'],
  },
  {
    model: 'core.objecttype',
    path: '/api/core/object-types/',
    dialect: '4.4',
    readOnly: true,
    // NetBox 4.4.10's ObjectTypeSerializer has no brief_fields; the service renders a brief form
    // (3.4's content type's, with the description every 4.x brief form has)
    briefFields: ['app_label', 'model', 'description'],
  },
  {
    model: 'extras.notificationgroup',
    path: '/api/extras/notification-groups/',
    dialect: '4.4',
    required: ['name'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const user = await created44(ctx, '/api/users/users/', { username: uniq('user'), password: 'Pw-contract-12' });
      return { name: uniq('ng'), description: 'contract', users: [user.id] };
    },
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('ng-renamed'), users: [] }),
    invalid: { name: 'x'.repeat(101) },
    briefFields: ['name', 'description'],
  },
  {
    model: 'extras.notification',
    path: '/api/extras/notifications/',
    dialect: '4.4',
    required: ['object_type', 'object_id', 'user', 'event_type'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const user = await created44(ctx, '/api/users/users/', { username: uniq('user'), password: 'Pw-contract-12' });
      const site = await created44(ctx, '/api/dcim/sites/', named('site'));
      return { object_type: 'dcim.site', object_id: site.id, user: user.id, event_type: 'object_created' };
    },
    update: { read: '2025-01-02T03:04:05Z' },
    altUpdate: { event_type: 'object_updated' },
    invalid: { event_type: 'bogus' },
    briefFields: ['object_type', 'object_id', 'user', 'read', 'event_type'],
    search: (_d, c) => String(c.display),
  },
  {
    model: 'extras.subscription',
    path: '/api/extras/subscriptions/',
    dialect: '4.4',
    required: ['object_type', 'object_id', 'user'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const user = await created44(ctx, '/api/users/users/', { username: uniq('user'), password: 'Pw-contract-12' });
      const site = await created44(ctx, '/api/dcim/sites/', named('site'));
      return { object_type: 'dcim.site', object_id: site.id, user: user.id };
    },
    update: () => ({ object_type: 'dcim.site' }),
    altUpdate: () => ({ object_type: 'dcim.site' }),
    invalid: { object_type: 'dcim.nothing' },
    briefFields: ['object_type', 'object_id', 'user'],
  },
];
