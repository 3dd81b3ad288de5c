/** Inventory item roles (NetBox 3.4 InventoryItemRole): what an inventory item is (optic, fan, PSU...). */
import { defineModel } from '../../../core/model/define-model.js';
import { color, description, name, slug } from '../../fields.js';

export const inventoryItemRole = defineModel({
  name: 'dcim.inventoryitemrole',
  path: 'inventory-item-roles',
  verboseName: 'inventory item role',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    color: color(),
    description: description(),
  },
  counts: { inventoryitem_count: { model: 'dcim.inventoryitem', via: 'role' } },
  ui: {
    columns: ['name', 'inventoryitem_count', 'color', 'description'],
    groups: [{ title: 'Inventory Item Role', fields: ['name', 'slug', 'color', 'description'] }],
  },
  brief: ['name', 'slug', 'inventoryitem_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'inventoryitem_count'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
