/**
 * Contract rows of the device components (NetBox 3.4 dcim ComponentModel kinds). A component
 * cannot move to another device, so the rows of one test app share a device (PUT keeps it).
 */
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { device, deviceOf, deviceType, site } from './models-dcim.js';
import { uniq } from '../factories/index.js';

const CABLED_BRIEF = ['device', 'name', 'cable', '_occupied'];

/** a parent device (its type has subdevice_role parent), one per test app: bays need one */
const sharedParent = new WeakMap<object, Promise<Json>>();
function parentOf(ctx: ContractContext): Promise<Json> {
  let d = sharedParent.get(ctx.t);
  if (!d) {
    d = (async () => {
      const [s, role] = [await site(ctx), await created(ctx, '/api/dcim/device-roles/', named('role'))];
      const dt = await deviceType(ctx);
      await ctx.t.patch(`/api/dcim/device-types/${String(dt.id)}/`, { subdevice_role: 'parent' });
      return created(ctx, '/api/dcim/devices/', {
        name: uniq('chassis'),
        site: s.id,
        device_type: dt.id,
        role: role.id,
      });
    })();
    sharedParent.set(ctx.t, d);
  }
  return d;
}

/** a rear port on the shared device, for each front port row */
const rearPort = async (ctx: ContractContext) =>
  created(ctx, '/api/dcim/rear-ports/', {
    device: (await deviceOf(ctx)).id,
    name: uniq('rear'),
    type: '8p8c',
    positions: 4,
  });

export const DCIM_COMPONENTS_CONTRACT: ContractCase[] = [
  {
    model: 'dcim.consoleport',
    path: '/api/dcim/console-ports/',
    required: ['device', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({ device: (await deviceOf(ctx)).id, name: uniq('con'), type: 'rj-45', speed: 9600 }),
    update: { speed: 115200, description: 'updated by contract' },
    altUpdate: { type: 'usb-c', mark_connected: true },
    invalid: { type: 'bogus' },
    briefFields: CABLED_BRIEF,
  },
  {
    model: 'dcim.consoleserverport',
    path: '/api/dcim/console-server-ports/',
    required: ['device', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({ device: (await deviceOf(ctx)).id, name: uniq('port'), type: 'rj-45' }),
    update: { speed: 9600, description: 'updated by contract' },
    altUpdate: () => ({ label: uniq('label') }),
    invalid: { speed: 1234 },
    briefFields: CABLED_BRIEF,
  },
  {
    model: 'dcim.powerport',
    path: '/api/dcim/power-ports/',
    required: ['device', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      device: (await deviceOf(ctx)).id,
      name: uniq('PSU'),
      type: 'iec-60320-c14',
      maximum_draw: 500,
      allocated_draw: 250,
    }),
    update: { allocated_draw: 300, description: 'updated by contract' },
    altUpdate: { type: 'iec-60320-c20' },
    invalid: { maximum_draw: 0 },
    briefFields: CABLED_BRIEF,
  },
  {
    model: 'dcim.poweroutlet',
    path: '/api/dcim/power-outlets/',
    required: ['device', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      device: (await deviceOf(ctx)).id,
      name: uniq('outlet'),
      type: 'iec-60320-c13',
      feed_leg: 'A',
    }),
    update: { feed_leg: 'B', description: 'updated by contract' },
    altUpdate: { type: 'iec-60320-c19' },
    invalid: { feed_leg: 'D' },
    briefFields: CABLED_BRIEF,
  },
  {
    model: 'dcim.rearport',
    path: '/api/dcim/rear-ports/',
    required: ['device', 'name', 'type'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      device: (await deviceOf(ctx)).id,
      name: uniq('rear'),
      type: 'lc',
      positions: 2,
      color: 'aa1409',
    }),
    update: { positions: 4, description: 'updated by contract' },
    altUpdate: { type: 'sc', color: '' },
    invalid: { positions: 0 },
    briefFields: CABLED_BRIEF,
  },
  {
    model: 'dcim.frontport',
    path: '/api/dcim/front-ports/',
    required: ['device', 'name', 'type', 'rear_port'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      device: (await deviceOf(ctx)).id,
      name: uniq('front'),
      type: '8p8c',
      rear_port: (await rearPort(ctx)).id,
      rear_port_position: 1,
    }),
    update: { rear_port_position: 2, description: 'updated by contract' },
    altUpdate: { type: '110-punch', color: '00ff00' },
    invalid: { type: 'bogus' },
    briefFields: CABLED_BRIEF,
  },
  {
    model: 'dcim.modulebay',
    path: '/api/dcim/module-bays/',
    required: ['device', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({ device: (await deviceOf(ctx)).id, name: uniq('slot'), position: '1' }),
    update: { position: '2', description: 'updated by contract' },
    altUpdate: () => ({ label: uniq('label') }),
    invalid: { position: 'x'.repeat(31) },
    briefFields: ['name'],
  },
  {
    model: 'dcim.devicebay',
    path: '/api/dcim/device-bays/',
    required: ['device', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({ device: (await parentOf(ctx)).id, name: uniq('bay') }),
    update: { description: 'updated by contract' },
    altUpdate: () => ({ label: uniq('label') }),
    invalid: { name: '' },
    briefFields: ['device', 'name'],
  },
  {
    model: 'dcim.inventoryitemrole',
    path: '/api/dcim/inventory-item-roles/',
    required: ['name', 'slug'],
    sameTwice: 'refused',
    create: async () => ({ ...named('invrole'), color: 'aa1409' }),
    update: { color: '00ff00', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('invrole-renamed') }),
    invalid: { color: 'nope' },
    briefFields: ['name', 'slug', 'inventoryitem_count'],
  },
  {
    model: 'dcim.inventoryitem',
    path: '/api/dcim/inventory-items/',
    required: ['device', 'name'],
    sameTwice: 'allowed',
    create: async (ctx) => ({
      device: (await device(ctx)).id,
      name: uniq('optic'),
      part_id: 'SFP-10G-LR',
      serial: uniq('SN'),
      discovered: true,
    }),
    update: { serial: 'SN-updated', description: 'updated by contract' },
    altUpdate: () => ({ asset_tag: uniq('tag'), label: 'slot 1' }),
    invalid: { asset_tag: 'x'.repeat(51) },
    briefFields: ['device', 'name', '_depth'],
  },
];
