/**
 * Inventory item templates (NetBox 3.4 InventoryItemTemplate): a tree on one device type, each item
 * optionally naming a modular component template of the same type (`component_type` +
 * `component_id`). NetBox renders `parent` as a bare id here, and `_depth` (its MPTT level).
 */
import { fk } from '../../fields.js';
import type { RequestContext } from '../../../core/context.js';
import { rowById, rowOfType } from '../../../core/crud/row-by-id.js';
import { defineTemplate, sameParent } from './define-template.js';

/** NetBox 3.4 MODULAR_COMPONENT_TEMPLATE_MODELS */
const COMPONENT_TEMPLATE_TYPES = [
  'dcim.consoleporttemplate',
  'dcim.consoleserverporttemplate',
  'dcim.frontporttemplate',
  'dcim.interfacetemplate',
  'dcim.poweroutlettemplate',
  'dcim.powerporttemplate',
  'dcim.rearporttemplate',
];

/**
 * The component template it names exists and is on the same device type. Not checked by NetBox 3.4,
 * whose instantiation would then link a new device's item to a component of another device type's
 * template, that is to nothing on the device: refused here, as inventory items refuse a component
 * of another device.
 */
async function validateComponent(
  rc: RequestContext,
  data: Record<string, unknown>,
): Promise<Record<string, string[]> | undefined> {
  const [type, id] = [data.component_type, data.component_id];
  if ((type == null) !== (id == null))
    return { __all__: ['A component template needs both component_type and component_id.'] };
  if (type == null) return undefined;
  const component = await rowOfType(rc, type, id);
  if (!component) return { component_id: [`Related object not found using the provided value: ${String(id)}.`] };
  if (!sameParent(component, data))
    return { component_id: ['The component template must belong to the same device type.'] };
  return undefined;
}

export const inventoryItemTemplate = defineTemplate({
  name: 'dcim.inventoryitemtemplate',
  path: 'inventory-item-templates',
  verboseName: 'inventory item template',
  modular: false,
  fields: {
    // a bare id both ways (DRF PrimaryKeyRelatedField)
    parent: fk('dcim.inventoryitemtemplate', {
      onDelete: 'cascade',
      shape: { type: 'integer', nullable: true },
      shapeIn: { brief: { type: 'integer', nullable: true }, nested: { type: 'integer', nullable: true } },
      relatedName: 'child_items',
    }),
    role: fk('dcim.inventoryitemrole', { onDelete: 'protect' }),
    manufacturer: fk('dcim.manufacturer', { onDelete: 'protect' }),
    part_id: { kind: 'string', maxLength: 50, label: 'Part ID', help: 'Manufacturer-assigned part identifier' },
    component_type: { kind: 'contenttype', nullable: true, types: COMPONENT_TEMPLATE_TYPES },
    component_id: { kind: 'integer', nullable: true, min: 0 },
    // the template it names goes with it as a dangling reference would: cleared (no cascade)
    component: {
      kind: 'generic',
      generic: { type: 'component_type', id: 'component_id' },
      onDelete: 'set_null',
      shape: { type: 'object', nullable: true, additionalProperties: true },
    },
  },
  async validate(rc, data) {
    if (data.parent_id != null) {
      if (data.id != null && Number(data.parent_id) === Number(data.id))
        return { parent: ['Cannot assign self as parent.'] };
      const parent = await rowById(rc, 'dcim_inventoryitemtemplate', data.parent_id);
      if (parent && Number(parent.device_type_id) !== Number(data.device_type_id)) {
        return { parent: ['Parent inventory item template does not belong to the same device type.'] };
      }
    }
    return validateComponent(rc, data);
  },
  represent(rows, out) {
    rows.forEach((r, i) => {
      if ('parent' in out[i]!) out[i]!.parent = r.parent_id == null ? null : Number(r.parent_id);
    });
  },
  extra: {
    treeParent: 'parent',
    uniqueTogether: [
      {
        fields: ['device_type', 'parent', 'name'],
        message: 'Inventory item template with this Device type, Parent and Name already exists.',
      },
      // NULL parents are distinct to the constraint above; the database's partial index is not fooled
      {
        fields: ['device_type', 'name'],
        whenNull: ['parent'],
        message: 'Inventory item template with this Device type, Parent and Name already exists.',
      },
    ],
    brief: ['name', '_depth'],
    // NetBox 4.0: the brief form gains description, before the counts (#15238)
    netbox44: { brief: ['name', 'description', '_depth'] },
    ordering: ['device_type', 'parent', 'name'],
  },
});
