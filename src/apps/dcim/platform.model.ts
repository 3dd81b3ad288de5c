import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name, slug } from '../fields.js';
import { noCycle, parentIn44 } from './netbox4-tree.js';

/** Platforms (reference 3.2): the software a device runs, optionally tied to one manufacturer. */
export const platform = defineModel({
  name: 'dcim.platform',
  path: 'platforms',
  verboseName: 'platform',
  fields: {
    // NetBox 4.4: platforms form a tree (netbox4-tree.ts)
    parent: parentIn44('dcim.platform'),
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
  treeParent: 'parent',
  treeIn: '4.4',
  hooks: { validate: noCycle('dcim.platform') },
  counts: {
    device_count: { model: 'dcim.device', via: 'platform', kept: true },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'platform', kept: true },
  },
  ui: {
    columns: ['name', 'manufacturer', 'device_count', 'virtualmachine_count', 'description'],
    clone: ['description'],
    groups: [
      { title: 'Platform', fields: ['name', 'slug', 'parent', 'manufacturer', 'config_template', 'description'] },
    ],
    related: [
      { model: 'dcim.device', param: 'platform_id' },
      { model: 'virtualization.virtualmachine', param: 'platform_id' },
    ],
  },
  brief: ['name', 'slug', 'device_count', 'virtualmachine_count'],
  // NetBox 4.4 made platforms a tree (_depth)
  netbox44: { brief: ['name', 'slug', 'description', 'device_count', 'virtualmachine_count', '_depth'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
