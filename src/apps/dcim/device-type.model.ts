/**
 * Device types (reference 3.2): a make and model. Heights are whole or half units; a child type
 * (it lives in a parent's device bay) takes no rack units.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, slug } from '../fields.js';
import { Airflow, SubdeviceRole, WeightUnit } from './choices.js';
import { hasTemplates, MODULAR_TEMPLATE_FILTERS } from './module-type.model.js';
import { templateTabs } from './templates/template-tabs.js';

const halfUnits = (v: unknown) =>
  (Number(v) * 2) % 1 === 0 ? undefined : 'Height must be in increments of 0.5 rack units.';

export const deviceType = defineModel({
  name: 'dcim.devicetype',
  path: 'device-types',
  verboseName: 'device type',
  fields: {
    manufacturer: fk('dcim.manufacturer', { required: true, nullable: false, onDelete: 'protect' }),
    // NetBox 3.6: what a new device of the type takes when it names no platform (device.model.ts)
    default_platform: fk('dcim.platform', { onDelete: 'set_null', dialect: '4.4', treeFilter: '4.4' }),
    model: { kind: 'string', required: true, maxLength: 100 },
    slug: slug(100),
    part_number: { kind: 'string', maxLength: 50, help: 'Discrete part number (optional)' },
    u_height: {
      kind: 'decimal',
      default: 1.0,
      min: 0,
      max: 999.5,
      decimalPlaces: 1,
      label: 'height (U)',
      validate: halfUnits,
    },
    is_full_depth: { kind: 'boolean', default: true },
    subdevice_role: { kind: 'choice', choices: SubdeviceRole, blank: true },
    airflow: { kind: 'choice', choices: Airflow, blank: true },
    weight: { kind: 'decimal', nullable: true, min: 0, decimalPlaces: 2 },
    weight_unit: { kind: 'choice', choices: WeightUnit, blank: true },
    description: description(),
    comments: comments(),
  },
  counts: {
    device_count: { model: 'dcim.device', via: 'device_type', kept: true },
    // NetBox 3.6+ DeviceTypeSerializer: the number of templates of each kind
    console_port_template_count: { model: 'dcim.consoleporttemplate', via: 'device_type' },
    console_server_port_template_count: { model: 'dcim.consoleserverporttemplate', via: 'device_type' },
    power_port_template_count: { model: 'dcim.powerporttemplate', via: 'device_type' },
    power_outlet_template_count: { model: 'dcim.poweroutlettemplate', via: 'device_type' },
    interface_template_count: { model: 'dcim.interfacetemplate', via: 'device_type' },
    front_port_template_count: { model: 'dcim.frontporttemplate', via: 'device_type' },
    rear_port_template_count: { model: 'dcim.rearporttemplate', via: 'device_type' },
    device_bay_template_count: { model: 'dcim.devicebaytemplate', via: 'device_type' },
    module_bay_template_count: { model: 'dcim.modulebaytemplate', via: 'device_type' },
    inventory_item_template_count: { model: 'dcim.inventoryitemtemplate', via: 'device_type' },
  },
  // NetBox DeviceTypeFilterSet: "has templates of this kind"
  filters: hasTemplates('device_type_id', {
    ...MODULAR_TEMPLATE_FILTERS,
    device_bays: ['dcim_devicebaytemplate'],
    module_bays: ['dcim_modulebaytemplate'],
    inventory_items: ['dcim_inventoryitemtemplate'],
  }),
  uniqueTogether: [{ fields: ['manufacturer', 'model'] }, { fields: ['manufacturer', 'slug'] }],
  hooks: {
    async validate({ data }): Promise<Record<string, string[]> | undefined> {
      // NetBox 3.4 DeviceType.clean()
      if (data.subdevice_role === 'child' && Number(data.u_height) !== 0) {
        return { u_height: ['Child device types must be 0U.'] };
      }
      if (data.weight != null && !data.weight_unit)
        return { weight_unit: ['Must specify a unit when setting a weight'] };
    },
  },
  display: (row) => String(row.model),
  ui: {
    columns: ['model', 'manufacturer', 'part_number', 'u_height', 'is_full_depth', 'device_count'],
    // NetBox's device type tabs: its component templates
    tabs: templateTabs('devicetype_id', true),
    clone: ['manufacturer', 'u_height', 'is_full_depth', 'subdevice_role', 'airflow', 'weight', 'weight_unit'],
    groups: [
      { title: 'Device Type', fields: ['manufacturer', 'model', 'slug', 'description'] },
      {
        title: 'Chassis',
        fields: ['u_height', 'is_full_depth', 'part_number', 'subdevice_role', 'airflow', 'weight', 'weight_unit'],
      },
    ],
    related: [{ model: 'dcim.device', param: 'device_type_id' }],
  },
  brief: ['manufacturer', 'model', 'slug', 'device_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['manufacturer', 'model', 'slug', 'description', 'device_count'] },
  ordering: ['manufacturer', 'model'],
  search: ['model', 'part_number', 'description', 'comments'],
});
