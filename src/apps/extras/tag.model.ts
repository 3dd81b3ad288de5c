import { defineModel } from '../../core/model/define-model.js';
import { color, description, name, slug } from '../fields.js';

export const tag = defineModel({
  name: 'extras.tag',
  path: 'tags',
  verboseName: 'tag',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    color: color(),
    description: description(),
    // NetBox 4.3: orders tags where they are listed; shown in the 4.4 dialect only
    weight: { kind: 'integer', default: 1000, min: 0, max: 32767, dialect: '4.4' },
  },
  counts: { tagged_items: { through: { table: 'extras_taggeditem', column: 'tag_id' }, kept: true } },
  tags: false,
  customFields: false,
  ui: {
    columns: ['name', 'tagged_items', 'slug', 'color', 'description'],
    clone: ['color', 'description'],
    groups: [{ title: 'Tag', fields: ['name', 'slug', 'color', 'description'] }],
  },
  brief: ['name', 'slug', 'color'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
