/** Circuit types (NetBox 3.4 CircuitType, an organizational model); counts their circuits. */
import { defineModel } from '../../core/model/define-model.js';
import { description, name, slug } from '../fields.js';

export const circuitType = defineModel({
  name: 'circuits.circuittype',
  path: 'circuit-types',
  verboseName: 'circuit type',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    description: description(),
  },
  counts: { circuit_count: { model: 'circuits.circuit', via: 'type', kept: true } },
  ui: {
    columns: ['name', 'circuit_count', 'description'],
    groups: [{ title: '', fields: ['name', 'slug', 'description'] }],
    related: [{ model: 'circuits.circuit', param: 'type_id' }],
  },
  brief: ['name', 'slug', 'circuit_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'circuit_count'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
