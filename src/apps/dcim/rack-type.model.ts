/**
 * Rack types (NetBox 4.1, fields as in 4.4): a manufacturer's rack model, the dimensions a rack of
 * that model shares. Served in the 4.4 dialect only; a rack of a type copies its dimensions
 * (rack-type-link.ts).
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, slug } from '../fields.js';
import { DimensionUnit, RackType, RackWidth, WeightUnit } from './choices.js';

export const rackType = defineModel({
  name: 'dcim.racktype',
  path: 'rack-types',
  verboseName: 'rack type',
  dialect: '4.4',
  fields: {
    manufacturer: fk('dcim.manufacturer', { required: true, nullable: false, onDelete: 'protect' }),
    model: { kind: 'string', required: true, maxLength: 100 },
    // NetBox 4.4: slug is unique across all rack types, and per manufacturer
    slug: slug(100, { unique: true }),
    description: description(),
    // RackFormFactorChoices: the values of 3.4's rack `type`
    form_factor: { kind: 'choice', choices: RackType, required: true },
    width: { kind: 'choice', choices: RackWidth, default: 19, help: 'Rail-to-rail width' },
    u_height: { kind: 'integer', default: 42, min: 1, max: 100, label: 'height (U)' },
    starting_unit: { kind: 'integer', default: 1, min: 1, max: 32767, help: 'Starting unit for rack' },
    desc_units: { kind: 'boolean', default: false, label: 'descending units' },
    outer_width: { kind: 'integer', nullable: true, min: 0, max: 32767 },
    outer_height: { kind: 'integer', nullable: true, min: 0, max: 32767 },
    outer_depth: { kind: 'integer', nullable: true, min: 0, max: 32767 },
    outer_unit: { kind: 'choice', choices: DimensionUnit, blank: true },
    weight: { kind: 'decimal', nullable: true, min: 0, decimalPlaces: 2 },
    max_weight: { kind: 'integer', nullable: true, min: 0 },
    weight_unit: { kind: 'choice', choices: WeightUnit, blank: true },
    mounting_depth: { kind: 'integer', nullable: true, min: 0, max: 32767 },
    comments: comments(),
  },
  uniqueTogether: [
    { fields: ['manufacturer', 'model'], message: 'Rack type with this Manufacturer and Model already exists.' },
    { fields: ['manufacturer', 'slug'], message: 'Rack type with this Manufacturer and Slug already exists.' },
  ],
  hooks: {
    validate({ data }) {
      // NetBox 4.4 RackType.clean() (and WeightMixin.clean for the weight)
      const errors: string[] = [];
      const dims = [data.outer_width, data.outer_height, data.outer_depth].some((v) => v != null && v !== 0);
      if (dims && !data.outer_unit) errors.push('Must specify a unit when setting an outer dimension');
      if (data.max_weight && !data.weight_unit) errors.push('Must specify a unit when setting a maximum weight');
      if (errors.length) return Promise.resolve({ __all__: errors });
      if (data.weight != null && !data.weight_unit)
        return Promise.resolve({ weight_unit: ['Must specify a unit when setting a weight'] });
      return Promise.resolve(undefined);
    },
    prepare({ data, before }) {
      // NetBox 4.4 RackType.save(): no outer dimension, no unit
      const all = { ...before, ...data };
      if ([all.outer_width, all.outer_height, all.outer_depth].every((v) => !v) && all.outer_unit) data.outer_unit = '';
    },
  },
  display: (row) => String(row.model),
  ui: {
    columns: ['model', 'manufacturer', 'form_factor', 'width', 'u_height', 'description'],
    clone: [
      'manufacturer',
      'form_factor',
      'width',
      'u_height',
      'desc_units',
      'outer_width',
      'outer_height',
      'outer_depth',
      'outer_unit',
      'mounting_depth',
      'weight',
      'max_weight',
      'weight_unit',
    ],
    groups: [
      { title: 'Rack Type', fields: ['manufacturer', 'model', 'slug', 'description'] },
      { title: 'Dimensions', fields: ['form_factor', 'width', 'u_height', 'starting_unit', 'desc_units'] },
      {
        title: 'Outer Dimensions',
        fields: ['outer_width', 'outer_height', 'outer_depth', 'outer_unit', 'mounting_depth'],
      },
      { title: 'Weight', fields: ['weight', 'max_weight', 'weight_unit'] },
    ],
  },
  brief: ['manufacturer', 'model', 'slug', 'description'],
  ordering: ['manufacturer', 'model'],
  search: ['model', 'description', 'comments'],
});
