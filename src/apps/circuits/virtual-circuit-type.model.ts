/** Virtual circuit types (NetBox 4.2, fields as in 4.4), served in the 4.4 dialect only. */
import { defineModel } from '../../core/model/define-model.js';
import { description, name, slug } from '../fields.js';

export const virtualCircuitType = defineModel({
  name: 'circuits.virtualcircuittype',
  path: 'virtual-circuit-types',
  verboseName: 'virtual circuit type',
  dialect: '4.4',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    // NetBox BaseCircuitType.color: a ColorField that may be blank
    color: {
      kind: 'string',
      maxLength: 6,
      default: '',
      pattern: { regex: /^([0-9a-f]{6})?$/, message: 'Enter a valid hexadecimal RGB color code.' },
    },
    description: description(),
  },
  counts: { virtual_circuit_count: { model: 'circuits.virtualcircuit', via: 'type' } },
  ui: {
    columns: ['name', 'virtual_circuit_count', 'description'],
    groups: [{ title: 'Virtual Circuit Type', fields: ['name', 'slug', 'color', 'description'] }],
    related: [{ model: 'circuits.virtualcircuit', param: 'type_id' }],
  },
  brief: ['name', 'slug', 'description', 'virtual_circuit_count'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
