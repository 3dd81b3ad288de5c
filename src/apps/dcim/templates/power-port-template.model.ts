/** Power port templates (NetBox 3.4 PowerPortTemplate): draws in watts, allocated never above maximum. */
import { PowerPortType } from '../component-choices.js';
import { defineTemplate } from './define-template.js';

export const powerPortTemplate = defineTemplate({
  name: 'dcim.powerporttemplate',
  path: 'power-port-templates',
  verboseName: 'power port template',
  modular: true,
  fields: {
    type: { kind: 'choice', choices: PowerPortType, blank: true },
    maximum_draw: { kind: 'integer', nullable: true, min: 1, max: 32767, help: 'Maximum power draw (watts)' },
    allocated_draw: { kind: 'integer', nullable: true, min: 1, max: 32767, help: 'Allocated power draw (watts)' },
  },
  async validate(_rc, data) {
    // NetBox 3.4 PowerPortTemplate.clean()
    if (
      data.maximum_draw != null &&
      data.allocated_draw != null &&
      Number(data.allocated_draw) > Number(data.maximum_draw)
    ) {
      return { allocated_draw: [`Allocated draw cannot exceed the maximum draw (${String(data.maximum_draw)}W).`] };
    }
  },
});
