/** Console port templates (NetBox 3.4 ConsolePortTemplate): console ports a new device or module gets. */
import { ConsolePortType } from '../component-choices.js';
import { defineTemplate } from './define-template.js';

export const consolePortTemplate = defineTemplate({
  name: 'dcim.consoleporttemplate',
  path: 'console-port-templates',
  verboseName: 'console port template',
  modular: true,
  fields: { type: { kind: 'choice', choices: ConsolePortType, blank: true } },
});
