/**
 * Virtual machine interfaces (reference 3.5), at `/api/virtualization/interfaces/`: parent and
 * bridge on the same VM, 802.1Q mode with untagged/tagged VLANs of the VM's site (or global), VRF.
 * The rules are the device interfaces' own (dcim/interface-rules.ts, dcim/interface-vlans.ts),
 * given the VM as owner, NetBox 4.2's Q-in-Q and VLAN translation fields included (4.4's). IP
 * addresses point here through their generic `assigned_object`.
 */
import { defineModel } from '../../core/model/define-model.js';
import { InterfaceMode } from '../dcim/choices.js';
import { checkRelatedInterfaces, type InterfaceOwner } from '../dcim/interface-rules.js';
import {
  assignedVlanFilter,
  dropUntaggedWithoutMode,
  syncTaggedVlans,
  validateVlans,
} from '../dcim/interface-vlans.js';
import { dropSvlanWithoutQinQ, interfaceQinQFields, validateInterfaceQinQ } from '../dcim/interface-qinq.js';
import { description, fk } from '../fields.js';
import { VM_INTERFACES } from '../ipam/relation-filters.js';
import {
  l2vpnFilters,
  l2vpnTerminationField,
  l2vpnTerminationRows,
  representL2vpnTermination,
} from '../vpn/l2vpn-assignment.js';
import { viaPair } from '../../core/query/filter-blocks.js';
import { macAddressesFilter } from '../dcim/mac-address-filter.js';
import {
  macAddressRows,
  macFields,
  preparePrimaryMac,
  representMacAddresses,
  syncMacObjects,
  validatePrimaryMac,
  writesMacObjects,
} from '../dcim/mac-address-sync.js';

const VM_INTERFACE_OWNER: InterfaceOwner = {
  ...VM_INTERFACES,
  noun: 'virtual machine',
  taggedVlans: { table: 'virtualization_vminterface_tagged_vlans', column: 'vminterface_id' },
};

export const vmInterface = defineModel({
  name: 'virtualization.vminterface',
  path: 'interfaces',
  // NetBox 3.4 names VM interfaces plainly "interface" (uniqueness message below)
  verboseName: 'interface',
  schemaName: 'VMInterface',
  fields: {
    virtual_machine: fk('virtualization.virtualmachine', {
      required: true,
      nullable: false,
      onDelete: 'cascade',
      relatedName: 'interfaces',
    }),
    name: { kind: 'string', required: true, maxLength: 64, natural: true },
    enabled: { kind: 'boolean', default: true },
    parent: fk('virtualization.vminterface', {
      onDelete: 'set_null',
      label: 'parent interface',
      relatedName: 'child_interfaces',
    }),
    bridge: fk('virtualization.vminterface', {
      onDelete: 'set_null',
      label: 'bridge interface',
      relatedName: 'bridge_interfaces',
    }),
    mtu: { kind: 'integer', nullable: true, min: 1, max: 65536, label: 'MTU' },
    mac_address: { kind: 'mac', nullable: true, label: 'MAC address' },
    ...macFields(),
    description: description(),
    mode: { kind: 'choice', choices: InterfaceMode, blank: true, label: '802.1Q mode' },
    untagged_vlan: fk('ipam.vlan', {
      onDelete: 'set_null',
      label: 'untagged VLAN',
      relatedName: 'vminterfaces_as_untagged',
    }),
    tagged_vlans: {
      kind: 'm2m',
      to: 'ipam.vlan',
      label: 'tagged VLANs',
      through: { table: 'virtualization_vminterface_tagged_vlans', from: 'vminterface_id', to: 'vlan_id' },
      relatedName: 'vminterfaces_as_tagged',
    },
    // NetBox 4.2, 4.4 dialect only (dcim/interface-qinq.ts)
    ...interfaceQinQFields(),
    vrf: fk('ipam.vrf', { onDelete: 'set_null', label: 'VRF' }),
    l2vpn_termination: l2vpnTerminationField(),
  },
  uniqueTogether: [{ fields: ['virtual_machine', 'name'] }],
  relatedObject: 'virtual_machine',
  filters: {
    ...viaPair('cluster', ['virtual_machine', 'cluster']),
    // NetBox 3.4: interfaces carrying the VLAN (by id, or by VID)
    vlan_id: assignedVlanFilter(VM_INTERFACE_OWNER, 'vlan_id', true),
    vlan: assignedVlanFilter(VM_INTERFACE_OWNER, 'vlan', false),
    ...l2vpnFilters('virtualization.vminterface'),
  },
  // the L2VPN termination of each object of a page, read with the page
  representRows: {
    l2vpn_termination: l2vpnTerminationRows('virtualization.vminterface'),
    mac_addresses: macAddressRows('virtualization.vminterface'),
  },
  hooks: {
    async validate({ rc, data, before, sent }) {
      const errors: Record<string, string[]> = {};
      await checkRelatedInterfaces(rc, data, VM_INTERFACE_OWNER, ['parent', 'bridge'], errors);
      return {
        ...errors,
        ...(await validateVlans(rc, data, VM_INTERFACE_OWNER)),
        ...(await validateInterfaceQinQ(rc, { data, sent })),
        ...(await validatePrimaryMac(rc, 'virtualization.vminterface', { data, before })),
      };
    },
    async prepare(args) {
      dropUntaggedWithoutMode(args);
      dropSvlanWithoutQinQ(args);
      await preparePrimaryMac(args.rc, args);
    },
    // its MAC objects (dcim/mac-address-sync.ts)
    afterWrite: (args) => syncMacObjects(args.rc, 'virtualization.vminterface', args),
    writesAfter: writesMacObjects,
    // only an update can take an interface out of tagged mode (interface-vlans.ts)
    async afterUpdate({ rc, row, before }) {
      await syncTaggedVlans(rc, row, before, VM_INTERFACE_OWNER);
    },
    async represent(rc, rows, out, { mode, readRows }) {
      if (mode !== 'full') return;
      await representL2vpnTermination(rc, rows, out, mode, () => readRows('l2vpn_termination'));
      await representMacAddresses(rc, rows, out, mode, () => readRows('mac_addresses'));
    },
  },
  // NetBox 3.4 VMInterfaceSerializer: addresses on it, FHRP groups it takes part in
  counts: {
    count_ipaddresses: { model: 'ipam.ipaddress', generic: 'assigned_object' },
    count_fhrp_groups: { model: 'ipam.fhrpgroupassignment', generic: 'interface' },
  },
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { untagged_vlan: 'vid', tagged_vlans: 'vid', qinq_svlan: 'vid', vrf: 'rd' },
    columns: ['name', 'virtual_machine', 'enabled', 'description'],
    groups: [
      { title: 'Interface', fields: ['virtual_machine', 'name', 'description'] },
      { title: 'Addressing', fields: ['vrf', 'mac_address', 'primary_mac_address', 'mac_addresses'] },
      { title: 'Operation', fields: ['mtu', 'enabled'] },
      { title: 'Related Interfaces', fields: ['parent', 'bridge'] },
      {
        title: '802.1Q Switching',
        fields: ['mode', 'untagged_vlan', 'tagged_vlans', 'qinq_svlan', 'vlan_translation_policy'],
      },
    ],
    pickerFilters: {
      parent: { virtual_machine_id: 'virtual_machine' },
      bridge: { virtual_machine_id: 'virtual_machine' },
    },
  },
  brief: ['virtual_machine', 'name'],
  netbox44: { filters: { mac_address: macAddressesFilter('virtualization.vminterface') } },
  ordering: ['virtual_machine', 'name'],
  search: ['name', 'description'],
});
