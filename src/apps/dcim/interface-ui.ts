/**
 * The interface's web hints (core/model/ui-hints.ts): NetBox's list columns, clone fields, form
 * groups and picker filters. Kept apart from the model, which says what an interface is; this says
 * how its pages show it.
 */
import type { ModelUi } from '../../core/model/ui-hints.js';

export const INTERFACE_UI: ModelUi = {
  // NetBox 4.4's import form names these by another attribute than the name
  importRefs: { untagged_vlan: 'vid', tagged_vlans: 'vid', qinq_svlan: 'vid', vrf: 'rd' },
  columns: ['name', 'device', 'label', 'enabled', 'type', 'description'],
  clone: [
    'device',
    'module',
    'parent',
    'bridge',
    'lag',
    'type',
    'mgmt_only',
    'mtu',
    'mode',
    'speed',
    'duplex',
    'rf_role',
    'rf_channel',
    'rf_channel_frequency',
    'rf_channel_width',
    'tx_power',
    'poe_mode',
    'poe_type',
    'vrf',
  ],
  groups: [
    { title: 'Interface', fields: ['device', 'module', 'name', 'label', 'type', 'speed', 'duplex', 'description'] },
    // NetBox 4.4: the primary MAC object beside 3.4's mac_address, then every MAC object of the interface
    { title: 'Addressing', fields: ['vrf', 'mac_address', 'primary_mac_address', 'mac_addresses', 'wwn'] },
    { title: 'Operation', fields: ['vdcs', 'mtu', 'tx_power', 'enabled', 'mgmt_only', 'mark_connected'] },
    { title: 'Related Interfaces', fields: ['parent', 'bridge', 'lag', 'bridge_interfaces'] },
    { title: 'PoE', fields: ['poe_mode', 'poe_type'] },
    {
      title: '802.1Q Switching',
      fields: ['mode', 'untagged_vlan', 'tagged_vlans', 'qinq_svlan', 'vlan_translation_policy'],
    },
    {
      title: 'Wireless',
      fields: ['rf_role', 'rf_channel', 'rf_channel_frequency', 'rf_channel_width', 'wireless_lans'],
    },
  ],
  pickerFilters: {
    module: { device_id: 'device' },
    vdcs: { device_id: 'device' },
    parent: { virtual_chassis_member_id: 'device' },
    bridge: { virtual_chassis_member_id: 'device' },
    lag: { virtual_chassis_member_id: 'device' },
  },
};
