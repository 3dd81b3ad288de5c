/**
 * Console ports (NetBox 3.4 ConsolePort): a device's serial console connector, cabled to a console
 * server port (directly or through patch panels), with the stored path's far end as its endpoint.
 */
import { defineModel } from '../../../core/model/define-model.js';
import { description } from '../../fields.js';
import { cabledFields, cabledFilters, occupiedField, pathEndpointFields, representCabled } from '../cabled-fields.js';
import { ConsolePortSpeed, ConsolePortType } from '../component-choices.js';
import { componentFields, componentFilters, labelDisplay, stayOnDevice, uniqueOnDevice } from './component.js';
import { moduleLink } from '../module-link.js';

/** console ports and console server ports share everything but their identity */
export function defineConsolePort(name: string, path: string, verboseName: string) {
  return defineModel({
    name,
    path,
    verboseName,
    fields: {
      ...componentFields(),
      module: moduleLink(),
      type: { kind: 'choice', choices: ConsolePortType, blank: true, help: 'Physical port type' },
      speed: { kind: 'choice', choices: ConsolePortSpeed, nullable: true, help: 'Port speed in bits per second' },
      description: description(),
      ...cabledFields(),
      ...pathEndpointFields(),
      _occupied: occupiedField(),
    },
    uniqueTogether: uniqueOnDevice(verboseName),
    relatedObject: 'device',
    filters: { ...componentFilters(), ...cabledFilters(true) },
    hooks: {
      validate: stayOnDevice,
      async represent(rc, rows, out, { mode }) {
        await representCabled(rc, name, rows, out, mode, true);
        labelDisplay(rows, out);
      },
    },
    ui: {
      columns: ['name', 'device', 'label', 'type', 'speed', 'description'],
      groups: [
        { title: '', fields: ['device', 'module', 'name', 'label', 'type', 'speed', 'mark_connected', 'description'] },
      ],
      clone: ['device', 'module', 'type', 'speed'],
      pickerFilters: { module: { device_id: 'device' } },
    },
    brief: ['device', 'name', 'cable', '_occupied'],
    // NetBox 4.0: the brief form gains description, before the counts (#15238)
    netbox44: { brief: ['device', 'name', 'description', 'cable', '_occupied'] },
    ordering: ['device', 'name'],
    search: ['name', 'label', 'description'],
  });
}

export const consolePort = defineConsolePort('dcim.consoleport', 'console-ports', 'console port');
