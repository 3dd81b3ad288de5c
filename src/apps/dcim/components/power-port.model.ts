/**
 * Power ports (NetBox 3.4 PowerPort): a device's power inlet, cabled to a power outlet or a power
 * feed. Draws are in watts; the allocated draw may not exceed the maximum.
 */
import { defineModel } from '../../../core/model/define-model.js';
import { description } from '../../fields.js';
import { cabledFields, cabledFilters, occupiedField, pathEndpointFields, representCabled } from '../cabled-fields.js';
import { PowerPortType } from '../component-choices.js';
import { componentFields, componentFilters, labelDisplay, stayOnDevice, uniqueOnDevice } from './component.js';
import { moduleLink } from '../module-link.js';

export const powerPort = defineModel({
  name: 'dcim.powerport',
  path: 'power-ports',
  verboseName: 'power port',
  fields: {
    ...componentFields(),
    module: moduleLink(),
    type: { kind: 'choice', choices: PowerPortType, blank: true, help: 'Physical port type' },
    maximum_draw: { kind: 'integer', nullable: true, min: 1, max: 32767, help: 'Maximum power draw (watts)' },
    allocated_draw: { kind: 'integer', nullable: true, min: 1, max: 32767, help: 'Allocated power draw (watts)' },
    description: description(),
    ...cabledFields(),
    ...pathEndpointFields(),
    _occupied: occupiedField(),
  },
  uniqueTogether: uniqueOnDevice('power port'),
  relatedObject: 'device',
  filters: { ...componentFilters(), ...cabledFilters(true) },
  hooks: {
    async validate(args) {
      const moved = await stayOnDevice(args);
      if (moved) return moved;
      // NetBox 3.4 PowerPort.clean()
      const { maximum_draw: max, allocated_draw: allocated } = { ...args.before, ...args.data };
      if (max != null && allocated != null && Number(allocated) > Number(max)) {
        return { allocated_draw: [`Allocated draw cannot exceed the maximum draw (${String(max)}W).`] };
      }
    },
    async represent(rc, rows, out, { mode }) {
      await representCabled(rc, 'dcim.powerport', rows, out, mode, true);
      labelDisplay(rows, out);
    },
  },
  ui: {
    columns: ['name', 'device', 'label', 'type', 'maximum_draw', 'allocated_draw', 'description'],
    groups: [
      {
        title: '',
        fields: [
          'device',
          'module',
          'name',
          'label',
          'type',
          'maximum_draw',
          'allocated_draw',
          'mark_connected',
          'description',
        ],
      },
    ],
    clone: ['device', 'module', 'maximum_draw', 'allocated_draw'],
    pickerFilters: { module: { device_id: 'device' } },
  },
  brief: ['device', 'name', 'cable', '_occupied'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['device', 'name', 'description', 'cable', '_occupied'] },
  ordering: ['device', 'name'],
  search: ['name', 'label', 'description'],
});
