/**
 * Power outlets (NetBox 3.4 PowerOutlet): a PDU's outlet, fed from one of its own power ports and
 * (on three-phase PDUs) from one leg, cabled to another device's power port.
 */
import { defineModel } from '../../../core/model/define-model.js';
import { color, description, fk } from '../../fields.js';
import { PowerOutletStatus } from '../netbox4-choices.js';
import { cabledFields, cabledFilters, occupiedField, pathEndpointFields, representCabled } from '../cabled-fields.js';
import { PowerOutletFeedLeg, PowerOutletType } from '../component-choices.js';
import { componentFields, componentFilters, labelDisplay, stayOnDevice, uniqueOnDevice } from './component.js';
import { moduleLink } from '../module-link.js';
import { rowById } from '../../../core/crud/row-by-id.js';
import { deviceIdOf } from './same-device.js';

export const powerOutlet = defineModel({
  name: 'dcim.poweroutlet',
  path: 'power-outlets',
  verboseName: 'power outlet',
  fields: {
    ...componentFields(),
    module: moduleLink(),
    type: { kind: 'choice', choices: PowerOutletType, blank: true, help: 'Physical port type' },
    power_port: fk('dcim.powerport', { onDelete: 'set_null', relatedName: 'poweroutlets' }),
    feed_leg: { kind: 'choice', choices: PowerOutletFeedLeg, blank: true, help: 'Phase (for three-phase feeds)' },
    // NetBox 4.3 and 4.2, shown in the 4.4 dialect only
    status: { kind: 'choice', choices: PowerOutletStatus, default: 'enabled', dialect: '4.4' },
    color: {
      ...color(''),
      pattern: { regex: /^([0-9a-f]{6})?$/, message: 'Enter a valid hexadecimal RGB color code.' },
      dialect: '4.4',
    },
    description: description(),
    ...cabledFields(),
    ...pathEndpointFields(),
    _occupied: occupiedField(),
  },
  uniqueTogether: uniqueOnDevice('power outlet'),
  relatedObject: 'device',
  filters: { ...componentFilters(), ...cabledFilters(true) },
  hooks: {
    async validate(args) {
      const moved = await stayOnDevice(args);
      if (moved) return moved;
      // NetBox 3.4 PowerOutlet.clean(): the feeding power port is on the same device
      const port = await rowById(args.rc, 'dcim_powerport', args.data.power_port_id);
      if (port && Number(port.device_id) !== deviceIdOf(args.data, args.before)) {
        return { __all__: [`Parent power port (${String(port.name)}) must belong to the same device`] };
      }
    },
    async represent(rc, rows, out, { mode }) {
      await representCabled(rc, 'dcim.poweroutlet', rows, out, mode, true);
      labelDisplay(rows, out);
    },
  },
  ui: {
    columns: ['name', 'device', 'label', 'type', 'power_port', 'feed_leg', 'description'],
    groups: [
      {
        title: '',
        fields: [
          'device',
          'module',
          'name',
          'label',
          'type',
          'power_port',
          'feed_leg',
          'mark_connected',
          'description',
        ],
      },
    ],
    clone: ['device', 'module', 'type', 'power_port', 'feed_leg'],
    pickerFilters: { module: { device_id: 'device' }, power_port: { device_id: 'device' } },
  },
  brief: ['device', 'name', 'cable', '_occupied'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['device', 'name', 'description', 'cable', '_occupied'] },
  ordering: ['device', 'name'],
  search: ['name', 'label', 'description'],
});
