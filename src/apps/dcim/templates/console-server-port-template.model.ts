/** Console server port templates (NetBox 3.4 ConsoleServerPortTemplate). */
import { ConsolePortType } from '../component-choices.js';
import { defineTemplate } from './define-template.js';

export const consoleServerPortTemplate = defineTemplate({
  name: 'dcim.consoleserverporttemplate',
  path: 'console-server-port-templates',
  verboseName: 'console server port template',
  modular: true,
  fields: { type: { kind: 'choice', choices: ConsolePortType, blank: true } },
});
