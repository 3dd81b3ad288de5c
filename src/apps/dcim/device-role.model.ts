import { defineModel } from '../../core/model/define-model.js';
import { comments, color, description, fk, name, slug } from '../fields.js';

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
    description: description(),
    // NetBox 4.3: comments, shown in the 4.4 dialect only
    comments: { ...comments(), dialect: '4.4' },
  },
  counts: {
    device_count: { model: 'dcim.device', via: 'role', kept: true },
    virtualmachine_count: { model: 'virtualization.virtualmachine', via: 'role', kept: true },
  },
  ui: {
    columns: ['name', 'device_count', 'virtualmachine_count', 'color', 'vm_role', 'description'],
    clone: ['description'],
    groups: [{ title: 'Device Role', fields: ['name', 'slug', 'color', 'vm_role', 'config_template', 'description'] }],
    related: [
      { model: 'dcim.device', param: 'role_id' },
      { model: 'virtualization.virtualmachine', param: 'role_id' },
    ],
  },
  brief: ['name', 'slug', 'device_count', 'virtualmachine_count'],
  // NetBox 4.3 made roles a tree (_depth); without `parent` here every role is at depth 0
  netbox44: { brief: ['name', 'slug', 'description', 'device_count', 'virtualmachine_count', '_depth'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
