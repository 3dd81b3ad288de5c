/**
 * Module type profiles (NetBox 4.3, fields as in 4.4): a named JSON Schema of the attributes module
 * types of that profile carry (module-type-attributes.ts). Served in the 4.4 dialect only.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name } from '../fields.js';
import { jsonSchemaError } from '../json-schema.js';

export const moduleTypeProfile = defineModel({
  name: 'dcim.moduletypeprofile',
  path: 'module-type-profiles',
  verboseName: 'module type profile',
  dialect: '4.4',
  fields: {
    name: name(100, { unique: true }),
    description: description(),
    schema: { kind: 'json', nullable: true, validate: jsonSchemaError },
    comments: comments(),
  },
  ui: {
    columns: ['name', 'description'],
    clone: ['schema'],
    groups: [
      { title: 'Profile', fields: ['name', 'description'] },
      { title: 'Schema', fields: ['schema'] },
    ],
  },
  brief: ['name', 'description'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
