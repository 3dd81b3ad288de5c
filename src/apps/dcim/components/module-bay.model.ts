/**
 * Module bays (NetBox 3.4 ModuleBay): a slot of a device that takes a module (line card, PSU...).
 * `position` is what a module type's `{module}` placeholder becomes in its components' names.
 */
import { defineModel } from '../../../core/model/define-model.js';
import { description } from '../../fields.js';
import { installedModuleField, representInstalledModules } from '../installed-module.js';
import { componentFields, componentFilters, labelDisplay, stayOnDevice, uniqueOnDevice } from './component.js';

export const moduleBay = defineModel({
  name: 'dcim.modulebay',
  path: 'module-bays',
  verboseName: 'module bay',
  fields: {
    ...componentFields(),
    installed_module: installedModuleField(),
    position: { kind: 'string', maxLength: 30, help: 'Identifier to reference when renaming installed components' },
    description: description(),
  },
  uniqueTogether: uniqueOnDevice('module bay'),
  relatedObject: 'device',
  filters: componentFilters(),
  hooks: {
    validate: stayOnDevice,
    async represent(rc, rows, out, { mode }) {
      labelDisplay(rows, out);
      if (mode === 'full') await representInstalledModules(rc, rows, out);
    },
  },
  ui: {
    columns: ['name', 'device', 'label', 'installed_module', 'description'],
    groups: [{ title: '', fields: ['device', 'name', 'label', 'position', 'description'] }],
    clone: ['device'],
  },
  brief: ['name'],
  // NetBox 4.0: a bay's brief form says what is installed in it
  netbox44: { brief: ['name', 'installed_module', 'description'] },
  ordering: ['device', 'name'],
  search: ['name', 'label', 'description'],
});
