import { defineModel } from '../../core/model/define-model.js';
import { comments, color, description, fk, name, slug } from '../fields.js';
import { noCycle, parentIn44 } from './netbox4-tree.js';

/**
 * Device roles (reference 3.2); `vm_role` roles may be given to virtual machines too (counted in
 * `virtualmachine_count`).
 */
export const deviceRole = defineModel({
  name: 'dcim.devicerole',
  path: 'device-roles',
  verboseName: 'device role',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    color: color(),
    vm_role: { kind: 'boolean', default: true, label: 'VM role' },
    // NetBox 3.5+: the config template of its devices and virtual machines that name none
    config_template: fk('extras.configtemplate', { onDelete: 'protect' }),
    // NetBox 4.3: roles form a tree (netbox4-tree.ts)
    parent: parentIn44('dcim.devicerole'),
    description: description(),
    // NetBox 4.3: comments, shown in the 4.4 dialect only
    comments: { ...comments(), dialect: '4.4' },
  },
  treeParent: 'parent',
  treeIn: '4.4',
  hooks: { validate: noCycle('dcim.devicerole') },
  counts: {
    device_count: { model: 'dcim.device', via: 'role', kept: true },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'role', kept: true },
  },
  ui: {
    columns: ['name', 'device_count', 'virtualmachine_count', 'color', 'vm_role', 'description'],
    clone: ['description'],
    groups: [
      {
        title: 'Device Role',
        fields: ['name', 'slug', 'parent', 'color', 'vm_role', 'config_template', 'description'],
      },
    ],
    related: [
      { model: 'dcim.device', param: 'role_id' },
      { model: 'virtualization.virtualmachine', param: 'role_id' },
    ],
  },
  brief: ['name', 'slug', 'device_count', 'virtualmachine_count'],
  // NetBox 4.3 made roles a tree (_depth)
  netbox44: { brief: ['name', 'slug', 'description', 'device_count', 'virtualmachine_count', '_depth'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
