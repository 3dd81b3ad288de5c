/**
 * Device types (reference 3.2): a make and model. Heights are whole or half units; a child type
 * (it lives in a parent's device bay) takes no rack units.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, slug } from '../fields.js';
import { Airflow, SubdeviceRole, WeightUnit } from './choices.js';

const halfUnits = (v: unknown) => (Number(v) * 2) % 1 === 0 ? undefined : 'Height must be in increments of 0.5 rack units.';

export const deviceType = defineModel({
  name: 'dcim.devicetype',
  path: 'device-types',
  verboseName: 'device type',
  fields: {
    manufacturer: fk('dcim.manufacturer', { required: true, nullable: false, onDelete: 'protect' }),
    model: { kind: 'string', required: true, maxLength: 100 },
    slug: slug(100),
    part_number: { kind: 'string', maxLength: 50, help: 'Discrete part number (optional)' },
    u_height: { kind: 'decimal', default: 1.0, min: 0, max: 999.5, decimalPlaces: 1, label: 'height (U)', validate: halfUnits },
    is_full_depth: { kind: 'boolean', default: true },
    subdevice_role: { kind: 'choice', choices: SubdeviceRole, blank: true },
    airflow: { kind: 'choice', choices: Airflow, blank: true },
    weight: { kind: 'decimal', nullable: true, min: 0, decimalPlaces: 2 },
    weight_unit: { kind: 'choice', choices: WeightUnit, blank: true },
    description: description(),
    comments: comments(),
  },
  counts: { device_count: { model: 'dcim.device', via: 'device_type' } },
  uniqueTogether: [
    { fields: ['manufacturer', 'model'] },
    { fields: ['manufacturer', 'slug'] },
  ],
  hooks: {
    async validate({ data }): Promise<Record<string, string[]> | undefined> {
      // NetBox 3.4 DeviceType.clean()
      if (data.subdevice_role === 'child' && Number(data.u_height) !== 0) {
        return { u_height: ['Child device types must be 0U.'] };
      }
      if (data.weight != null && !data.weight_unit) return { weight_unit: ['Must specify a unit when setting a weight'] };
    },
  },
  display: (row) => String(row.model),
  brief: ['manufacturer', 'model', 'slug', 'device_count'],
  ordering: ['manufacturer', 'model'],
  search: ['model', 'part_number', 'description', 'comments'],
});
