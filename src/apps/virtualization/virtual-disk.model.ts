/**
 * Virtual disks (NetBox 3.7 VirtualDisk): a virtual machine's disks, each with its size (MB stored,
 * GB in the 3.4 dialect). The
 * machine's `disk` is kept equal to their total by a database trigger (migration 0136), as NetBox's
 * signal does; the machine refuses another figure while it has disks (vm-rules.ts).
 */
import { defineModel } from '../../core/model/define-model.js';
import { description, fk } from '../fields.js';

export const virtualDisk = defineModel({
  name: 'virtualization.virtualdisk',
  path: 'virtual-disks',
  verboseName: 'virtual disk',
  fields: {
    virtual_machine: fk('virtualization.virtualmachine', {
      required: true,
      nullable: false,
      onDelete: 'cascade',
      relatedName: 'virtualdisks',
    }),
    name: { kind: 'string', required: true, maxLength: 64, natural: true },
    description: description(),
    // stored in MB (NetBox 4.1, #14692); NetBox 3.4's API shows and takes GB
    size: {
      kind: 'integer',
      required: true,
      min: 0,
      max: 2_147_483_647,
      label: 'size',
      help: 'GB in the NetBox 3.4 API, MB in the 4.4 API',
      scaleIn: { '3.4': 1000 },
    },
  },
  uniqueTogether: [
    { fields: ['virtual_machine', 'name'], message: 'Virtual disk with this Virtual machine and Name already exists.' },
  ],
  relatedObject: 'virtual_machine',
  ui: {
    columns: ['name', 'virtual_machine', 'size', 'description'],
    groups: [{ title: 'Disk', fields: ['virtual_machine', 'name', 'size', 'description'] }],
  },
  brief: ['virtual_machine', 'name', 'size'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['virtual_machine', 'name', 'description', 'size'] },
  ordering: ['virtual_machine', 'name'],
  search: ['name', 'description'],
});
