/**
 * Contract rows of the dcim models beyond regions, site groups and sites (reference 3.2). Each
 * create builds its prerequisites through the API, with unique names.
 */
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { makeDevice, makeDeviceType, makeManufacturer, makeSite, uniq } from '../factories/index.js';

export const site = (ctx: ContractContext) => makeSite(ctx.t);
const manufacturer = (ctx: ContractContext) => makeManufacturer(ctx.t);
export const deviceType = (ctx: ContractContext) => makeDeviceType(ctx.t);
/** a device with everything it needs */
export const device = (ctx: ContractContext) => makeDevice(ctx.t);

/** one device per test app for interface rows: an interface cannot move to another device (PUT) */
const sharedDevice = new WeakMap<object, Promise<Json>>();
export function deviceOf(ctx: ContractContext): Promise<Json> {
  let d = sharedDevice.get(ctx.t);
  if (!d) sharedDevice.set(ctx.t, (d = device(ctx)));
  return d;
}

async function interfaces(ctx: ContractContext, n: number): Promise<Json[]> {
  const d = await device(ctx);
  const out: Json[] = [];
  for (let i = 0; i < n; i++)
    out.push(await created(ctx, '/api/dcim/interfaces/', { device: d.id, name: `eth${i}`, type: '1000base-t' }));
  return out;
}

const ends = (a: Json, b: Json) => ({
  a_terminations: [{ object_type: 'dcim.interface', object_id: a.id }],
  b_terminations: [{ object_type: 'dcim.interface', object_id: b.id }],
});

export const DCIM_CONTRACT: ContractCase[] = [
  {
    model: 'dcim.location',
    path: '/api/dcim/locations/',
    required: ['name', 'slug', 'site'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      ...named('loc'),
      site: (await site(ctx)).id,
      status: 'planned',
      description: 'contract',
    }),
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('loc-renamed') }),
    invalid: { status: 'bogus' },
    briefFields: ['name', 'slug', 'rack_count', '_depth'],
  },
  {
    model: 'dcim.rackrole',
    path: '/api/dcim/rack-roles/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('rackrole'), color: 'aa1409' }),
    update: { color: '00ff00', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('rackrole-renamed') }),
    invalid: { color: 'nope' },
    briefFields: ['name', 'slug', 'rack_count'],
  },
  {
    model: 'dcim.rack',
    path: '/api/dcim/racks/',
    required: ['name', 'site'],
    sameTwice: 'allowed',
    create: async (ctx) => ({
      name: uniq('rack'),
      site: { slug: (await site(ctx)).slug },
      status: 'planned',
      u_height: 42,
      width: 19,
    }),
    update: { status: 'active', description: 'updated by contract', serial: 'SN1' },
    altUpdate: { width: 23, type: '4-post-cabinet', outer_width: 600, outer_unit: 'mm' },
    invalid: { u_height: 101 },
    briefFields: ['name', 'device_count'],
  },
  {
    model: 'dcim.rackreservation',
    path: '/api/dcim/rack-reservations/',
    required: ['rack', 'units', 'user', 'description'],
    sameTwice: 'allowed',
    create: async (ctx) => {
      const s = await site(ctx);
      const r = await created(ctx, '/api/dcim/racks/', { name: uniq('rack'), site: s.id });
      const user = await created(ctx, '/api/users/users/', { username: uniq('user'), password: 'contract-Pass-1' });
      return { rack: r.id, units: [1, 2, 3], user: user.id, description: uniq('reservation') };
    },
    update: { units: [4, 5], description: 'updated by contract' },
    altUpdate: { comments: 'other' },
    invalid: { units: 'not a list' },
    briefFields: ['user', 'units'],
    search: (d) => String(d.description),
  },
  {
    model: 'dcim.manufacturer',
    path: '/api/dcim/manufacturers/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('mfr'), description: 'contract' }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('mfr-renamed') }),
    invalid: { slug: 'not a slug' },
    briefFields: ['name', 'slug', 'devicetype_count'],
  },
  {
    model: 'dcim.devicetype',
    path: '/api/dcim/device-types/',
    required: ['manufacturer', 'model', 'slug'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const model = uniq('model');
      return { manufacturer: (await manufacturer(ctx)).id, model, slug: model, u_height: 2, part_number: 'PN-1' };
    },
    update: { u_height: 1.5, description: 'updated by contract' },
    altUpdate: { is_full_depth: false, airflow: 'front-to-rear' },
    invalid: { u_height: 1.25 },
    briefFields: ['manufacturer', 'model', 'slug', 'device_count'],
    search: (d) => String(d.model),
  },
  {
    model: 'dcim.devicerole',
    path: '/api/dcim/device-roles/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('role'), color: 'ff0000', vm_role: false }),
    update: { color: '00ff00', description: 'updated by contract' },
    altUpdate: { vm_role: true },
    invalid: { color: 'red' },
    briefFields: ['name', 'slug', 'device_count', 'virtualmachine_count'],
  },
  {
    model: 'dcim.platform',
    path: '/api/dcim/platforms/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async (ctx) => ({ ...named('platform'), manufacturer: (await manufacturer(ctx)).id, napalm_driver: 'ios' }),
    update: { napalm_driver: 'eos', description: 'updated by contract' },
    altUpdate: { manufacturer: null, napalm_args: { timeout: 30 } },
    invalid: { napalm_driver: 'x'.repeat(51) },
    briefFields: ['name', 'slug', 'device_count', 'virtualmachine_count'],
  },
  {
    model: 'dcim.virtualchassis',
    path: '/api/dcim/virtual-chassis/',
    required: ['name'],
    sameTwice: 'allowed',
    create: async () => ({ name: uniq('vc'), domain: 'contract' }),
    update: { domain: 'updated', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('vc-renamed') }),
    invalid: { name: 'x'.repeat(65) },
    briefFields: ['name', 'master', 'member_count'],
  },
  {
    model: 'dcim.device',
    path: '/api/dcim/devices/',
    required: ['device_type', 'device_role', 'site'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const [s, dt, role] = [
        await site(ctx),
        await deviceType(ctx),
        await created(ctx, '/api/dcim/device-roles/', named('role')),
      ];
      return {
        name: uniq('dev'),
        site: s.id,
        device_type: dt.id,
        device_role: role.id,
        status: 'planned',
        serial: 'SER1',
      };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('dev-renamed'), airflow: 'rear-to-front' }),
    invalid: { status: 'bogus' },
    briefFields: ['name', 'display_name'],
  },
  {
    model: 'dcim.interface',
    path: '/api/dcim/interfaces/',
    required: ['device', 'name', 'type'],
    sameTwice: 'refused',
    create: async (ctx) => ({ device: (await deviceOf(ctx)).id, name: uniq('Gi0/'), type: '1000base-t', mtu: 1500 }),
    update: { enabled: false, description: 'updated by contract' },
    altUpdate: { mac_address: '00:1A:2B:3C:4D:5E', mode: 'access' },
    invalid: { type: 'bogus' },
    briefFields: ['device', 'name', 'cable', '_occupied'],
  },
  {
    model: 'dcim.cable',
    path: '/api/dcim/cables/',
    required: [],
    sameTwice: 'refused',
    create: async (ctx) => {
      const [a, b] = await interfaces(ctx, 2);
      return { ...ends(a!, b!), type: 'cat6', status: 'planned', label: uniq('cable') };
    },
    // status and label show in the nested interfaces of the ends, so this PATCH leaves them
    update: { description: 'updated by contract', comments: 'patched' },
    altUpdate: { color: 'ff0000', length: 3, length_unit: 'm' },
    invalid: { type: 'bogus' },
    briefFields: ['label'],
    search: (d) => String(d.label),
  },
  {
    model: 'dcim.cabletermination',
    path: '/api/dcim/cable-terminations/',
    readOnly: true,
    seed: async (ctx) => {
      const [a, b, c, d] = await interfaces(ctx, 4);
      await created(ctx, '/api/dcim/cables/', ends(a!, b!));
      await created(ctx, '/api/dcim/cables/', ends(c!, d!));
    },
    briefFields: ['cable', 'cable_end', 'termination_type', 'termination_id'],
  },
];
