/**
 * Contract rows of the component templates and module types (NetBox 3.4). Templates of one test
 * app share one device type (a template cannot move to another type, and PUT sends fresh data);
 * device bay templates share a parent type.
 */
import { type ContractCase, type ContractContext, created, type Json, named } from './contract-case.js';
import { uniq } from '../factories/index.js';

const manufacturer = (ctx: ContractContext) => created(ctx, '/api/dcim/manufacturers/', named('mfr'));

async function deviceType(ctx: ContractContext, extra: Json = {}): Promise<Json> {
  const model = uniq('tpl-type');
  return created(ctx, '/api/dcim/device-types/', {
    manufacturer: (await manufacturer(ctx)).id,
    model,
    slug: model,
    ...extra,
  });
}

/** one device type (and one parent type) per test app */
const shared = new WeakMap<object, Map<string, Promise<Json>>>();
function sharedType(ctx: ContractContext, key: 'plain' | 'parent'): Promise<Json> {
  const byKey = shared.get(ctx.t) ?? new Map<string, Promise<Json>>();
  shared.set(ctx.t, byKey);
  let p = byKey.get(key);
  if (!p) byKey.set(key, (p = deviceType(ctx, key === 'parent' ? { subdevice_role: 'parent' } : {})));
  return p;
}

const onType = async (ctx: ContractContext, prefix: string, extra: Json = {}) => ({
  device_type: (await sharedType(ctx, 'plain')).id,
  name: uniq(prefix),
  ...extra,
});

/** one device per test app for module rows, each module in a bay of its own */
const sharedDevice = new WeakMap<object, Promise<Json>>();
function deviceOf(ctx: ContractContext): Promise<Json> {
  let d = sharedDevice.get(ctx.t);
  if (!d) {
    sharedDevice.set(
      ctx.t,
      (d = (async () => {
        const [site, role, type] = [
          await created(ctx, '/api/dcim/sites/', named('site')),
          await created(ctx, '/api/dcim/device-roles/', named('role')),
          await deviceType(ctx),
        ];
        return created(ctx, '/api/dcim/devices/', {
          name: uniq('chassis'),
          site: site.id,
          device_role: role.id,
          device_type: type.id,
        });
      })()),
    );
  }
  return d;
}

/** rows of the templates that differ only in their `type` choices */
const simple = (
  model: string,
  path: string,
  type: string,
  prefix: string,
): Omit<ContractCase, 'required' | 'sameTwice'> => ({
  model,
  path,
  create: (ctx) => onType(ctx, prefix, { type, label: 'lbl' }),
  update: { description: 'updated by contract', label: 'new label' },
  altUpdate: () => ({ name: uniq(`${prefix}-renamed`) }),
  invalid: { type: 'bogus' },
  briefFields: ['name'],
});

export const DCIM_TEMPLATE_CONTRACT: ContractCase[] = [
  {
    model: 'dcim.module',
    path: '/api/dcim/modules/',
    required: ['device', 'module_bay', 'module_type'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const device = await deviceOf(ctx);
      const bay = await created(ctx, '/api/dcim/module-bays/', { device: device.id, name: uniq('bay'), position: '1' });
      const type = await created(ctx, '/api/dcim/module-types/', {
        manufacturer: (await manufacturer(ctx)).id,
        model: uniq('lc'),
      });
      return { device: device.id, module_bay: bay.id, module_type: type.id, serial: uniq('sn'), status: 'planned' };
    },
    update: { status: 'active', description: 'updated by contract' },
    altUpdate: () => ({ asset_tag: uniq('tag'), comments: 'patched' }),
    invalid: { status: 'bogus' },
    briefFields: ['device', 'module_bay', 'module_type'],
    search: (d) => String(d.serial),
  },
  {
    model: 'dcim.inventoryitemtemplate',
    path: '/api/dcim/inventory-item-templates/',
    required: ['device_type', 'name'],
    sameTwice: 'refused',
    create: (ctx) => onType(ctx, 'item', { part_id: 'P-1', label: 'lbl' }),
    update: { label: 'new label', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('item-renamed'), part_id: 'P-2' }),
    invalid: { part_id: 'x'.repeat(51) },
    briefFields: ['name', '_depth'],
  },
  {
    model: 'dcim.moduletype',
    path: '/api/dcim/module-types/',
    required: ['manufacturer', 'model'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      manufacturer: (await manufacturer(ctx)).id,
      model: uniq('module-type'),
      part_number: 'MT-1',
    }),
    update: { description: 'updated by contract', weight: 2.5, weight_unit: 'kg' },
    altUpdate: () => ({ model: uniq('module-type-renamed'), comments: 'patched' }),
    invalid: { weight_unit: 'stone' },
    briefFields: ['manufacturer', 'model'],
    search: (d) => String(d.model),
  },
  {
    ...simple('dcim.consoleporttemplate', '/api/dcim/console-port-templates/', 'rj-45', 'con'),
    required: ['name'],
    sameTwice: 'refused',
  },
  {
    ...simple('dcim.consoleserverporttemplate', '/api/dcim/console-server-port-templates/', 'rj-45', 'cs'),
    required: ['name'],
    sameTwice: 'refused',
  },
  {
    ...simple('dcim.powerporttemplate', '/api/dcim/power-port-templates/', 'iec-60320-c14', 'psu'),
    required: ['name'],
    sameTwice: 'refused',
    update: { maximum_draw: 500, allocated_draw: 250, description: 'updated by contract' },
    invalid: { maximum_draw: 0 },
  },
  {
    ...simple('dcim.poweroutlettemplate', '/api/dcim/power-outlet-templates/', 'iec-60320-c13', 'out'),
    required: ['name'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const pp = await created(ctx, '/api/dcim/power-port-templates/', await onType(ctx, 'psu'));
      return onType(ctx, 'out', { type: 'iec-60320-c13', power_port: pp.id, feed_leg: 'A' });
    },
    update: { feed_leg: 'B', description: 'updated by contract' },
    invalid: { feed_leg: 'D' },
  },
  {
    ...simple('dcim.interfacetemplate', '/api/dcim/interface-templates/', '1000base-t', 'eth'),
    required: ['name', 'type'],
    sameTwice: 'refused',
    update: { enabled: false, mgmt_only: true, poe_mode: 'pse', description: 'updated by contract' },
  },
  {
    ...simple('dcim.rearporttemplate', '/api/dcim/rear-port-templates/', '8p8c', 'rear'),
    required: ['name', 'type'],
    sameTwice: 'refused',
    update: { positions: 4, color: 'aa1409', description: 'updated by contract' },
    invalid: { positions: 0 },
  },
  {
    ...simple('dcim.frontporttemplate', '/api/dcim/front-port-templates/', '8p8c', 'front'),
    required: ['name', 'type', 'rear_port'],
    sameTwice: 'refused',
    create: async (ctx) => {
      const rear = await created(
        ctx,
        '/api/dcim/rear-port-templates/',
        await onType(ctx, 'rear', { type: '8p8c', positions: 2 }),
      );
      return onType(ctx, 'front', { type: '8p8c', rear_port: rear.id, rear_port_position: 2 });
    },
    update: { color: 'ff0000', description: 'updated by contract' },
  },
  {
    model: 'dcim.modulebaytemplate',
    path: '/api/dcim/module-bay-templates/',
    required: ['device_type', 'name'],
    sameTwice: 'refused',
    create: (ctx) => onType(ctx, 'bay', { position: '1', label: 'lbl' }),
    update: { position: '2', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('bay-renamed') }),
    invalid: { position: 'x'.repeat(31) },
    briefFields: ['name'],
  },
  {
    model: 'dcim.devicebaytemplate',
    path: '/api/dcim/device-bay-templates/',
    required: ['device_type', 'name'],
    sameTwice: 'refused',
    create: async (ctx) => ({ device_type: (await sharedType(ctx, 'parent')).id, name: uniq('slot'), label: 'lbl' }),
    update: { label: 'new label', description: 'updated by contract' },
    altUpdate: () => ({ name: uniq('slot-renamed') }),
    invalid: { name: '' },
    briefFields: ['name'],
  },
];
