/** Rear port templates (NetBox 3.4 RearPortTemplate): pass-through ports with 1-1024 positions. */
import { PortType } from '../component-choices.js';
import { color } from '../../fields.js';
import { defineTemplate } from './define-template.js';

export const rearPortTemplate = defineTemplate({
  name: 'dcim.rearporttemplate',
  path: 'rear-port-templates',
  verboseName: 'rear port template',
  modular: true,
  fields: {
    type: { kind: 'choice', choices: PortType, required: true },
    // NetBox ColorField(blank=True): no default colour
    color: color(''),
    positions: { kind: 'integer', default: 1, min: 1, max: 1024 },
  },
});
