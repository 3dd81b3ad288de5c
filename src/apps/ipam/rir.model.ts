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
  brief: ['name', 'slug', 'aggregate_count'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
