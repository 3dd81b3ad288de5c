/**
 * Device bays (NetBox 3.4 DeviceBay): a slot of a parent device (a chassis) that holds one child
 * device. Only devices whose type is a parent have bays; a device sits in one bay at most.
 */
import { defineModel } from '../../../core/model/define-model.js';
import { description, fk } from '../../fields.js';
import { componentFields, componentFilters, labelDisplay, stayOnDevice, uniqueOnDevice } from './component.js';
import { deviceIdOf } from './same-device.js';
import { sql } from 'kysely';
import type { Row } from '../../../core/model/types.js';

export const deviceBay = defineModel({
  name: 'dcim.devicebay',
  path: 'device-bays',
  verboseName: 'device bay',
  fields: {
    ...componentFields(),
    description: description(),
    installed_device: fk('dcim.device', { onDelete: 'set_null' }),
  },
  uniqueTogether: uniqueOnDevice('device bay'),
  relatedObject: 'device',
  filters: componentFilters(),
  hooks: {
    async validate(args) {
      const moved = await stayOnDevice(args);
      if (moved) return moved;
      // NetBox 3.4 DeviceBay.clean()
      const { rc, data, before } = args;
      const deviceId = deviceIdOf(data, before);
      const res =
        await sql<Row>`select dt.model, dt.subdevice_role from dcim_device d join dcim_devicetype dt on dt.id = d.device_type_id
        where d.id = ${deviceId}`.execute(rc.q);
      const type = res.rows[0];
      if (type && type.subdevice_role !== 'parent')
        return { __all__: [`This type of device (${String(type.model)}) does not support device bays.`] };
      const installed =
        data.installed_device_id ?? (before && !('installed_device_id' in data) ? before.installed_device_id : null);
      if (installed == null) return;
      if (Number(installed) === deviceId) return { __all__: ['Cannot install a device into itself.'] };
      if (
        args.earlier.some((e) => e.installed_device_id != null && Number(e.installed_device_id) === Number(installed))
      ) {
        return { installed_device: ['Cannot install the specified device; another bay of this request installs it'] };
      }
      const current =
        await sql<Row>`select id, name from dcim_devicebay where installed_device_id = ${Number(installed)}`.execute(
          rc.q,
        );
      const bay = current.rows[0];
      if (bay && Number(bay.id) !== Number(before?.id)) {
        return {
          installed_device: [`Cannot install the specified device; device is already installed in ${String(bay.name)}`],
        };
      }
    },
    represent(_rc, rows, out) {
      labelDisplay(rows, out);
    },
  },
  ui: {
    columns: ['name', 'device', 'label', 'installed_device', 'description'],
    groups: [{ title: '', fields: ['device', 'name', 'label', 'description'] }],
    clone: ['device'],
    formExclude: ['installed_device'],
  },
  brief: ['device', 'name'],
  ordering: ['device', 'name'],
  search: ['name', 'label', 'description'],
});
