/** Module bay templates (NetBox 3.4 ModuleBayTemplate): device types only; `position` fills `{module}`. */
import { defineTemplate } from './define-template.js';

export const moduleBayTemplate = defineTemplate({
  name: 'dcim.modulebaytemplate',
  path: 'module-bay-templates',
  verboseName: 'module bay template',
  modular: false,
  fields: {
    position: { kind: 'string', maxLength: 30, help: 'Identifier to reference when renaming installed components' },
  },
});
