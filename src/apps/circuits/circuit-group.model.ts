/**
 * Circuit groups (NetBox 4.1, fields as in 4.4): an administrative grouping of circuits and virtual
 * circuits, whose members are its assignments (circuit-group-assignment.model.ts). Served in the
 * 4.4 dialect only. `circuit_count` counts the assignments, as NetBox's serializer does.
 */
import { defineModel } from '../../core/model/define-model.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';
import { description, name, slug, tenantField } from '../fields.js';

export const circuitGroup = defineModel({
  name: 'circuits.circuitgroup',
  path: 'circuit-groups',
  verboseName: 'circuit group',
  dialect: '4.4',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    description: description(),
    tenant: tenantField(),
  },
  counts: { circuit_count: { model: 'circuits.circuitgroupassignment', via: 'group' } },
  filters: tenancyFilters(),
  ui: {
    columns: ['name', 'circuit_count', 'tenant', 'description'],
    groups: [
      { title: 'Circuit Group', fields: ['name', 'slug', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    related: [{ model: 'circuits.circuitgroupassignment', param: 'group_id', label: 'Assignments' }],
  },
  // NetBox 4.4.10 CircuitGroupSerializer brief_fields: the name alone, without the description
  // every other 4.4 brief form gained (so declared for 4.4 too, where one is otherwise added)
  brief: ['name'],
  netbox44: { brief: ['name'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
