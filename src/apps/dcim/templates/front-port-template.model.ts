/**
 * Front port templates (NetBox 3.4 FrontPortTemplate): each maps onto one position of a rear port
 * template of the same type; a (rear port, position) pair is taken once.
 */
import { PortType } from '../component-choices.js';
import { color, fk } from '../../fields.js';
import { rowById } from '../../../core/crud/row-by-id.js';
import { defineTemplate, parentWord, sameParent, templateDisplay } from './define-template.js';

export const frontPortTemplate = defineTemplate({
  name: 'dcim.frontporttemplate',
  path: 'front-port-templates',
  verboseName: 'front port template',
  modular: true,
  fields: {
    type: { kind: 'choice', choices: PortType, required: true },
    color: color(''),
    rear_port: fk('dcim.rearporttemplate', {
      required: true,
      nullable: false,
      onDelete: 'cascade',
      noFilter: true,
      relatedName: 'frontport_templates',
    }),
    rear_port_position: { kind: 'integer', default: 1, min: 1, max: 1024 },
  },
  async validate(rc, data) {
    // NetBox 3.4 FrontPortTemplate.clean()
    const rear = await rowById(rc, 'dcim_rearporttemplate', data.rear_port_id);
    if (!rear) return;
    if (!sameParent(rear, data))
      return { __all__: [`Rear port (${templateDisplay(rear)}) must belong to the same ${parentWord(data)}`] };
    if (Number(data.rear_port_position) > Number(rear.positions)) {
      return {
        __all__: [
          `Invalid rear port position (${String(data.rear_port_position)}); rear port ${String(rear.name)} has only ${String(rear.positions)} positions`,
        ],
      };
    }
  },
  extra: {
    uniqueTogether: [
      {
        fields: ['device_type', 'name'],
        message: 'Front port template with this Device type and Name already exists.',
      },
      {
        fields: ['module_type', 'name'],
        message: 'Front port template with this Module type and Name already exists.',
      },
      {
        fields: ['rear_port', 'rear_port_position'],
        message: 'Front port template with this Rear port and Rear port position already exists.',
      },
    ],
  },
});
