import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name, slug } from '../fields.js';

/** Platforms (reference 3.2): the software a device runs, optionally tied to one manufacturer. */
export const platform = defineModel({
  name: 'dcim.platform',
  path: 'platforms',
  verboseName: 'platform',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    // NetBox 3.4: a manufacturer with platforms cannot be deleted
    manufacturer: fk('dcim.manufacturer', { onDelete: 'protect' }),
    // NetBox 3.5+: the config template of its devices and virtual machines whose role names none
    config_template: fk('extras.configtemplate', { onDelete: 'protect' }),
    napalm_driver: { kind: 'string', maxLength: 50, label: 'NAPALM driver' },
    napalm_args: { kind: 'json', nullable: true, label: 'NAPALM arguments' },
    description: description(),
    // NetBox 4.3: comments, shown in the 4.4 dialect only
    comments: { ...comments(), dialect: '4.4' },
  },
  counts: {
    device_count: { model: 'dcim.device', via: 'platform', kept: true },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'platform', kept: true },
  },
  ui: {
    columns: ['name', 'manufacturer', 'device_count', 'virtualmachine_count', 'description'],
    clone: ['description'],
    groups: [{ title: 'Platform', fields: ['name', 'slug', 'manufacturer', 'config_template', 'description'] }],
    related: [
      { model: 'dcim.device', param: 'platform_id' },
      { model: 'virtualization.virtualmachine', param: 'platform_id' },
    ],
  },
  brief: ['name', 'slug', 'device_count', 'virtualmachine_count'],
  // NetBox 4.4 made platforms a tree (_depth); without `parent` here every platform is at depth 0
  netbox44: { brief: ['name', 'slug', 'description', 'device_count', 'virtualmachine_count', '_depth'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
