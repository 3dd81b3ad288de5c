/**
 * Inventory items (NetBox 3.4 InventoryItem): the parts inside a device (optics, fans, supervisor
 * cards), in a tree per device, optionally tied to the component they are in (an optic in its
 * interface) through a generic link.
 */
import { defineModel } from '../../../core/model/define-model.js';
import { description, fk } from '../../fields.js';
import { InventoryItemStatus } from '../netbox4-choices.js';
import { componentFields, componentFilters, labelDisplay } from './component.js';
import { rowById, rowOfType } from '../../../core/crud/row-by-id.js';
import { deviceIdOf } from './same-device.js';

/** NetBox 3.4 MODULAR_COMPONENT_MODELS: what an inventory item may sit in */
const INVENTORY_COMPONENT_TYPES = [
  'dcim.consoleport',
  'dcim.consoleserverport',
  'dcim.frontport',
  'dcim.interface',
  'dcim.poweroutlet',
  'dcim.powerport',
  'dcim.rearport',
];

export const inventoryItem = defineModel({
  name: 'dcim.inventoryitem',
  path: 'inventory-items',
  verboseName: 'inventory item',
  fields: {
    device: componentFields().device!,
    parent: fk('dcim.inventoryitem', { onDelete: 'cascade', label: 'parent', relatedName: 'child_items' }),
    name: componentFields().name!,
    label: componentFields().label!,
    role: fk('dcim.inventoryitemrole', { onDelete: 'protect' }),
    manufacturer: fk('dcim.manufacturer', { onDelete: 'protect' }),
    part_id: { kind: 'string', maxLength: 50, label: 'Part ID', help: 'Manufacturer-assigned part identifier' },
    serial: { kind: 'string', maxLength: 50, label: 'serial number' },
    asset_tag: {
      kind: 'string',
      maxLength: 50,
      nullable: true,
      unique: true,
      help: 'A unique tag used to identify this item',
    },
    discovered: { kind: 'boolean', default: false, help: 'This item was automatically discovered' },
    // NetBox 4.2, shown in the 4.4 dialect only
    status: { kind: 'choice', choices: InventoryItemStatus, default: 'active', dialect: '4.4' },
    description: description(),
    component_type: { kind: 'contenttype', nullable: true, types: INVENTORY_COMPONENT_TYPES },
    component_id: { kind: 'integer', nullable: true, min: 0 },
    // NetBox 3.4: components hold a GenericRelation to their items, so deleting one deletes them
    component: { kind: 'generic', generic: { type: 'component_type', id: 'component_id' }, onDelete: 'cascade' },
  },
  treeParent: 'parent',
  uniqueTogether: [
    {
      fields: ['device', 'parent', 'name'],
      message: 'Inventory item with this Device, Parent and Name already exists.',
    },
  ],
  relatedObject: 'device',
  filters: componentFilters(),
  hooks: {
    // NetBox 3.4: unlike other components, an inventory item may move to another device
    async validate({ rc, data, before }): Promise<Record<string, string[]> | undefined> {
      const deviceId = deviceIdOf(data, before);
      // NetBox 3.4 InventoryItem.clean()
      const parentId = 'parent_id' in data ? data.parent_id : before?.parent_id;
      if (before && parentId != null && Number(parentId) === Number(before.id))
        return { parent: ['Cannot assign self as parent.'] };
      const parent = await rowById(rc, 'dcim_inventoryitem', parentId);
      if (parent && Number(parent.device_id) !== deviceId)
        return { parent: ['Parent inventory item does not belong to the same device.'] };
      const type = 'component_type' in data ? data.component_type : before?.component_type;
      const id = 'component_id' in data ? data.component_id : before?.component_id;
      if ((type == null) !== (id == null))
        return { __all__: ['A component needs both component_type and component_id.'] };
      if (type == null) return;
      const component = await rowOfType(rc, type, id);
      if (!component) return { component_id: [`Related object not found using the provided value: ${String(id)}.`] };
      if (Number(component.device_id) !== deviceId)
        return { device: ['Cannot assign inventory item to component on another device'] };
    },
    prepare({ data }) {
      // NetBox stores a blank asset tag as null (it is unique)
      if (data.asset_tag === '') data.asset_tag = null;
    },
    represent(_rc, rows, out) {
      labelDisplay(rows, out);
    },
  },
  ui: {
    columns: ['name', 'device', 'label', 'role', 'manufacturer', 'part_id', 'serial', 'asset_tag'],
    tabs: [{ slug: 'children', model: 'dcim.inventoryitem', param: 'parent_id' }],
    clone: ['device', 'parent', 'role', 'manufacturer', 'part_id'],
    groups: [
      { title: 'Inventory Item', fields: ['device', 'parent', 'name', 'label', 'role', 'description'] },
      { title: 'Hardware', fields: ['manufacturer', 'part_id', 'serial', 'asset_tag'] },
      { title: 'Component Assignment', fields: ['component_type', 'component_id', 'component'] },
    ],
    pickerFilters: { parent: { device_id: 'device' } },
  },
  brief: ['device', 'name', '_depth'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['device', 'name', 'description', '_depth'] },
  ordering: ['device', 'parent', 'name'],
  search: ['name', 'label', 'description', 'serial', 'asset_tag', 'part_id'],
});
