/**
 * Front ports (NetBox 3.4 FrontPort): a patch panel's front connector, mapped to one position of a
 * rear port on the same device; each (rear port, position) pair is taken by one front port.
 */
import { defineModel } from '../../../core/model/define-model.js';
import { color, description, fk } from '../../fields.js';
import { cabledFields, cabledFilters, occupiedField, representCabled } from '../cabled-fields.js';
import { PortType } from '../component-choices.js';
import { componentFields, componentFilters, labelDisplay, stayOnDevice, uniqueOnDevice } from './component.js';
import { moduleLink } from '../module-link.js';
import { rowById } from '../../../core/crud/row-by-id.js';
import { deviceIdOf } from './same-device.js';
import { frontPortPathHooks } from '../paths/port-hooks.js';

export const frontPort = defineModel({
  name: 'dcim.frontport',
  path: 'front-ports',
  verboseName: 'front port',
  fields: {
    ...componentFields(),
    module: moduleLink(),
    type: { kind: 'choice', choices: PortType, required: true },
    color: { ...color(''), label: 'color' },
    rear_port: fk('dcim.rearport', { required: true, nullable: false, onDelete: 'cascade', relatedName: 'frontports' }),
    rear_port_position: {
      kind: 'integer',
      default: 1,
      min: 1,
      max: 1024,
      help: 'Mapped position on corresponding rear port',
    },
    description: description(),
    ...cabledFields(),
    _occupied: occupiedField(),
  },
  uniqueTogether: [
    ...uniqueOnDevice('front port'),
    {
      fields: ['rear_port', 'rear_port_position'],
      message: 'Front port with this Rear port and Rear port position already exists.',
    },
  ],
  relatedObject: 'device',
  filters: { ...componentFilters(), ...cabledFilters(false) },
  hooks: {
    // stored cable paths through the port follow its changes (paths/port-hooks.ts)
    ...frontPortPathHooks,
    async validate(args) {
      const moved = await stayOnDevice(args);
      if (moved) return moved;
      // NetBox 3.4 FrontPort.clean()
      const data = { ...args.before, ...args.data };
      const rear = await rowById(args.rc, 'dcim_rearport', data.rear_port_id);
      if (!rear) return;
      if (Number(rear.device_id) !== deviceIdOf(args.data, args.before)) {
        return { rear_port: [`Rear port (${String(rear.name)}) must belong to the same device`] };
      }
      const position = Number(data.rear_port_position ?? 1);
      if (position > Number(rear.positions)) {
        return {
          rear_port_position: [
            `Invalid rear port position (${position}): Rear port ${String(rear.name)} has only ${String(rear.positions)} positions`,
          ],
        };
      }
    },
    async represent(rc, rows, out, { mode }) {
      await representCabled(rc, 'dcim.frontport', rows, out, mode, false);
      labelDisplay(rows, out);
    },
  },
  ui: {
    columns: ['name', 'device', 'label', 'type', 'color', 'rear_port', 'rear_port_position', 'description'],
    groups: [
      {
        title: '',
        fields: [
          'device',
          'module',
          'name',
          'label',
          'type',
          'color',
          'rear_port',
          'rear_port_position',
          'mark_connected',
          'description',
        ],
      },
    ],
    clone: ['device', 'type', 'color'],
    pickerFilters: { module: { device_id: 'device' }, rear_port: { device_id: 'device' } },
  },
  brief: ['device', 'name', 'cable', '_occupied'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['device', 'name', 'description', 'cable', '_occupied'] },
  ordering: ['device', 'name'],
  search: ['name', 'label', 'description'],
});
