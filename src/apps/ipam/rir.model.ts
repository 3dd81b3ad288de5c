/** Regional Internet Registries (reference 3.3): the authorities aggregates and ASNs come from. */
import { defineModel } from '../../core/model/define-model.js';
import { description, name, slug } from '../fields.js';

export const rir = defineModel({
  name: 'ipam.rir',
  path: 'rirs',
  verboseName: 'RIR',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    is_private: { kind: 'boolean', default: false, label: 'private' },
    description: description(),
  },
  counts: { aggregate_count: { model: 'ipam.aggregate', via: 'rir' } },
  ui: {
    columns: ['name', 'is_private', 'aggregate_count', 'description'],
    groups: [{ title: 'RIR', fields: ['name', 'slug', 'is_private', 'description'] }],
    related: [
      { model: 'ipam.asnrange', param: 'rir_id' },
      { model: 'ipam.asn', param: 'rir_id' },
      { model: 'ipam.aggregate', param: 'rir_id' },
    ],
  },
  brief: ['name', 'slug', 'aggregate_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'aggregate_count'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
