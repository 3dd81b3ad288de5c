/**
 * Custom links (NetBox 3.7 extras.CustomLink): a link shown on the page of each object of the
 * chosen types, its text and URL Jinja2 templates rendered with the object (`object`). Here the
 * browsable API's detail page shows them (web/browsable/custom-links.ts); a link whose text
 * renders empty is hidden, one whose template fails shows its error.
 */
import { defineModel } from '../../core/model/define-model.js';
import { CustomLinkButtonClass } from './choices.js';
import { contentTypesFilters, objectTypesFilters } from './content-type-filters.js';
import { contentTypesField, validateContentTypes } from './template-content-types.js';

export const customLink = defineModel({
  name: 'extras.customlink',
  path: 'custom-links',
  verboseName: 'custom link',
  fields: {
    content_types: contentTypesField(),
    name: { kind: 'string', required: true, maxLength: 100, unique: true },
    enabled: { kind: 'boolean', default: true },
    link_text: { kind: 'text', required: true, help: 'Jinja2 template code for link text' },
    link_url: { kind: 'text', required: true, label: 'link URL', help: 'Jinja2 template code for link URL' },
    // NetBox 3.7: PositiveSmallIntegerField
    weight: { kind: 'integer', default: 100, min: 0, max: 32767 },
    group_name: { kind: 'string', maxLength: 50, help: 'Links with the same group will appear as a dropdown menu' },
    button_class: { kind: 'choice', choices: CustomLinkButtonClass, default: 'outline-dark' },
    new_window: { kind: 'boolean', default: false, help: 'Force link to open in a new window' },
  },
  // NetBox 3.7 CustomLink: a ChangeLoggedModel, without tags or custom fields
  tags: false,
  customFields: false,
  filters: { ...contentTypesFilters },
  hooks: { validate: validateContentTypes },
  ui: {
    columns: ['name', 'content_types', 'enabled', 'group_name', 'button_class', 'new_window'],
    clone: ['content_types', 'enabled', 'weight', 'group_name', 'button_class', 'new_window'],
    groups: [
      {
        title: 'Custom Link',
        fields: ['name', 'content_types', 'weight', 'group_name', 'button_class', 'enabled', 'new_window'],
      },
      { title: 'Templates', fields: ['link_text', 'link_url'] },
    ],
  },
  brief: ['name'],
  // NetBox 4.0: content types became object types
  netbox44: { renamed: { content_types: 'object_types' }, filters: objectTypesFilters },
  ordering: ['group_name', 'weight', 'name'],
  // NetBox 3.7 CustomLinkFilterSet.search
  search: ['name', 'link_text', 'link_url', 'group_name'],
});
