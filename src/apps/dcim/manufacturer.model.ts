import { defineModel } from '../../core/model/define-model.js';
import { description, name, slug } from '../fields.js';
import { contactFilters } from '../tenancy/contact-filters.js';

/** Manufacturers (reference 3.2) of device types and platforms. */
export const manufacturer = defineModel({
  name: 'dcim.manufacturer',
  path: 'manufacturers',
  verboseName: 'manufacturer',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    description: description(),
  },
  filters: contactFilters(),
  counts: {
    devicetype_count: { model: 'dcim.devicetype', via: 'manufacturer' },
    // NetBox 3.4 ManufacturerSerializer
    inventoryitem_count: { model: 'dcim.inventoryitem', via: 'manufacturer' },
    platform_count: { model: 'dcim.platform', via: 'manufacturer' },
  },
  ui: {
    columns: ['name', 'devicetype_count', 'inventoryitem_count', 'platform_count', 'description', 'slug'],
    groups: [{ title: 'Manufacturer', fields: ['name', 'slug', 'description'] }],
    related: [
      { model: 'dcim.devicetype', param: 'manufacturer_id' },
      { model: 'dcim.moduletype', param: 'manufacturer_id' },
      { model: 'dcim.platform', param: 'manufacturer_id' },
      { model: 'dcim.inventoryitem', param: 'manufacturer_id' },
    ],
  },
  brief: ['name', 'slug', 'devicetype_count'],
  // NetBox 4.4.9 dropped devicetype_count from the brief form (#17976)
  netbox44: { brief: ['name', 'slug', 'description'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
