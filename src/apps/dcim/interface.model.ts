/**
 * Device interfaces (reference 3.2). Cable fields (`cable`, `cable_end`, `link_peers`…) are read-only
 * and follow dcim_cabletermination (see cabling.ts); peers and cable states are loaded once per page.
 * Forms: brief per NetBox 3.4 (`cable` as an id, `_occupied`); nested per the spec (`device`,
 * `name`, `cable` nested, `connection_status`). connection_status is null unless the interface is
 * cabled, else the cable's status as `{value, label}` (LinkStatus): the NetBox 2.x field carried a
 * connected/planned state, and the cable status is its 3.x equivalent.
 * 802.1Q: `mode` with `untagged_vlan` and `tagged_vlans` (interface-vlans.ts), and `vrf`; NetBox
 * 4.2's Q-in-Q service VLAN and VLAN translation policy (interface-qinq.ts) and 4.4's
 * `bridge_interfaces` (bridge-interfaces.ts) are 4.4's.
 */
import { sql } from 'kysely';
import { Errors } from '../../core/errors.js';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter } from '../../core/model/types.js';
import { choiceSchema } from '../../core/openapi/shapes.js';
import { description, fk } from '../fields.js';
import {
  Duplex,
  InterfaceMode,
  InterfaceType,
  LinkStatus,
  PoEMode,
  PoEType,
  VIRTUAL_INTERFACE_TYPES,
  WIRELESS_INTERFACE_TYPES,
} from './choices.js';
import { vcInterfaceFilter } from './vc-interface-filters.js';
import { macAddressesFilter } from './mac-address-filter.js';
import { componentFilters } from './components/component.js';
import {
  cabledFields,
  cabledFilters,
  connectionStatus,
  occupiedField,
  pathEndpointFields,
  representCabled,
} from './cabled-fields.js';
import { validateInterface } from './interface-rules.js';
import {
  l2vpnFilters,
  l2vpnTerminationField,
  l2vpnTerminationRows,
  representL2vpnTermination,
} from '../vpn/l2vpn-assignment.js';
import { moduleLink } from './module-link.js';
import { assignedVlanFilter, dropUntaggedWithoutMode, syncTaggedVlans, validateVlans } from './interface-vlans.js';
import { dropSvlanWithoutQinQ, interfaceQinQFields, validateInterfaceQinQ } from './interface-qinq.js';
import { bridgeInterfaceRows, bridgeInterfacesField, representBridgeInterfaces } from './bridge-interfaces.js';
import { DEVICE_INTERFACE_OWNER } from './interface-rules.js';
import { prepareRadio, validateRadio, WWN } from './interface-radio.js';
import { WirelessChannel, WirelessRole } from '../wireless/choices.js';
import { parseIds } from '../../core/query/filter-blocks.js';
import {
  macAddressRows,
  macFields,
  preparePrimaryMac,
  representMacAddresses,
  syncMacObjects,
  validatePrimaryMac,
  writesMacObjects,
} from './mac-address-sync.js';
import { INTERFACE_UI } from './interface-ui.js';

const VIRTUAL = [...VIRTUAL_INTERFACE_TYPES];

/** interfaces in a virtual device context whose `column` is one of the values (`__n`: in none of them) */
function vdcFilter(column: string, type: 'integer' | 'string'): CustomFilter {
  return {
    type,
    lookups: ['n'],
    async build(values, lookup, { rc, alias, param }) {
      const keys = type === 'integer' ? parseIds(param, values) : values;
      if (column === 'name') {
        // a model-choice filter by name (NetBox): an unknown name is a 400
        const known = await sql<{
          name: string;
        }>`select distinct name from dcim_virtualdevicecontext where name = any(${keys}::text[])`.execute(rc.q);
        const missing = keys.find((k) => !known.rows.some((r) => r.name === k));
        if (missing !== undefined)
          throw Errors.invalidFilter(param, `Select a valid choice. ${missing} is not one of the available choices.`);
      }
      const cond = sql`${sql.ref(`${alias}.id`)} in (select iv.interface_id from dcim_interface_vdcs iv join dcim_virtualdevicecontext v
        on v.id = iv.virtualdevicecontext_id where ${sql.ref(`v.${column}`)}::text = any(${keys.map(String)}::text[]))`;
      return lookup === 'n' ? sql`not ${cond}` : cond;
    },
  };
}
const WIRELESS = [...WIRELESS_INTERFACE_TYPES];

/**
 * NetBox `kind`: physical, virtual or wireless; another word is a 400 (NetBox matches nothing;
 * docs/api-differences.md, "Strict input")
 */
const kindFilter: CustomFilter = {
  type: 'string',
  async build(values, _lookup, { alias, param }) {
    const t = sql.ref(`${alias}.type`);
    const parts = values.map((v) => {
      if (v === 'virtual') return sql`${t} = any(${VIRTUAL})`;
      if (v === 'wireless') return sql`${t} = any(${WIRELESS})`;
      if (v === 'physical') return sql`not (${t} = any(${[...VIRTUAL, ...WIRELESS]}))`;
      throw Errors.invalidFilter(param, `Select a valid choice. ${v} is not one of the available choices.`);
    });
    return sql`(${sql.join(parts, sql` or `)})`;
  },
};

export const iface = defineModel({
  name: 'dcim.interface',
  path: 'interfaces',
  verboseName: 'interface',
  fields: {
    device: fk('dcim.device', { required: true, nullable: false, onDelete: 'cascade' }),
    vdcs: {
      kind: 'm2m',
      to: 'dcim.virtualdevicecontext',
      label: 'virtual device contexts',
      noFilter: true,
      through: { table: 'dcim_interface_vdcs', from: 'interface_id', to: 'virtualdevicecontext_id' },
    },
    module: moduleLink(),
    name: { kind: 'string', required: true, maxLength: 64, natural: true },
    label: { kind: 'string', maxLength: 64, help: 'Physical label' },
    type: { kind: 'choice', choices: InterfaceType, required: true },
    enabled: { kind: 'boolean', default: true },
    parent: fk('dcim.interface', { onDelete: 'set_null', label: 'parent interface', relatedName: 'child_interfaces' }),
    bridge: fk('dcim.interface', { onDelete: 'set_null', label: 'bridge interface', relatedName: 'bridge_interfaces' }),
    bridge_interfaces: bridgeInterfacesField(),
    lag: fk('dcim.interface', { onDelete: 'set_null', label: 'parent LAG', relatedName: 'member_interfaces' }),
    mtu: { kind: 'integer', nullable: true, min: 1, max: 65536, label: 'MTU' },
    mac_address: { kind: 'mac', nullable: true, label: 'MAC address' },
    ...macFields(),
    speed: { kind: 'integer', nullable: true, min: 0, label: 'speed (Kbps)' },
    duplex: { kind: 'choice', choices: Duplex, blank: true, nullable: true },
    wwn: { kind: 'string', nullable: true, maxLength: 23, label: 'WWN', pattern: WWN, help: '64-bit World Wide Name' },
    mgmt_only: { kind: 'boolean', default: false, label: 'management only' },
    description: description(),
    mode: { kind: 'choice', choices: InterfaceMode, blank: true, label: '802.1Q mode' },
    untagged_vlan: fk('ipam.vlan', {
      onDelete: 'set_null',
      label: 'untagged VLAN',
      relatedName: 'interfaces_as_untagged',
    }),
    tagged_vlans: {
      kind: 'm2m',
      to: 'ipam.vlan',
      label: 'tagged VLANs',
      through: { table: 'dcim_interface_tagged_vlans', from: 'interface_id', to: 'vlan_id' },
      relatedName: 'interfaces_as_tagged',
    },
    ...interfaceQinQFields(),
    vrf: fk('ipam.vrf', { onDelete: 'set_null', label: 'VRF' }),
    // radio fields (NetBox 3.4), only on wireless types (interface-radio.ts)
    rf_role: { kind: 'choice', choices: WirelessRole, blank: true, label: 'wireless role' },
    rf_channel: { kind: 'choice', choices: WirelessChannel, blank: true, label: 'wireless channel' },
    rf_channel_frequency: {
      kind: 'decimal',
      nullable: true,
      min: 0,
      max: 99999.99,
      decimalPlaces: 2,
      label: 'channel frequency (MHz)',
    },
    rf_channel_width: {
      kind: 'decimal',
      nullable: true,
      min: 0,
      max: 9999.999,
      decimalPlaces: 3,
      label: 'channel width (MHz)',
    },
    tx_power: { kind: 'integer', nullable: true, min: 0, max: 127, label: 'transmit power (dBm)' },
    wireless_link: fk('wireless.wirelesslink', { readOnly: true, noFilter: true }),
    wireless_lans: {
      kind: 'm2m',
      to: 'wireless.wirelesslan',
      label: 'wireless LANs',
      noFilter: true,
      through: { table: 'dcim_interface_wireless_lans', from: 'interface_id', to: 'wirelesslan_id' },
    },
    poe_mode: { kind: 'choice', choices: PoEMode, blank: true, label: 'PoE mode' },
    poe_type: { kind: 'choice', choices: PoEType, blank: true, label: 'PoE type' },
    ...cabledFields({ nestedCable: true }),
    ...pathEndpointFields(),
    // NetBox 3.4 InterfaceSerializer.l2vpn_termination (read-only)
    l2vpn_termination: l2vpnTerminationField(),
    _occupied: occupiedField(),
  },
  uniqueTogether: [{ fields: ['device', 'name'] }],
  relatedObject: 'device',
  filters: {
    // the place, role, type and virtual chassis filters of every device component
    ...componentFilters(),
    // NetBox 3.4: a virtual chassis acts as one device (vc-interface-filters.ts)
    device: vcInterfaceFilter({ byId: false, ifMaster: true, negatable: true }),
    device_id: vcInterfaceFilter({ byId: true, ifMaster: false, negatable: true }),
    virtual_chassis_member: vcInterfaceFilter({ byId: false, ifMaster: false, negatable: false }),
    virtual_chassis_member_id: vcInterfaceFilter({ byId: true, ifMaster: false, negatable: false }),
    kind: kindFilter,
    // NetBox 3.4: interfaces carrying the VLAN (by id, or by VID)
    vlan_id: assignedVlanFilter(DEVICE_INTERFACE_OWNER, 'vlan_id', true),
    vlan: assignedVlanFilter(DEVICE_INTERFACE_OWNER, 'vlan', false),
    ...cabledFilters(true),
    ...l2vpnFilters('dcim.interface'),
    // NetBox 3.4: by the virtual device contexts' ids, names or identifiers
    vdc_id: vdcFilter('id', 'integer'),
    vdc: vdcFilter('name', 'string'),
    vdc_identifier: vdcFilter('identifier', 'integer'),
  },
  // the L2VPN termination of each object of a page, read with the page
  representRows: {
    l2vpn_termination: l2vpnTerminationRows('dcim.interface'),
    mac_addresses: macAddressRows('dcim.interface'),
    bridge_interfaces: bridgeInterfaceRows,
  },
  hooks: {
    async validate({ rc, data, before, sent }) {
      return {
        ...(await validateInterface(rc, data, before)),
        ...(await validateVlans(rc, data)),
        ...(await validateInterfaceQinQ(rc, { data, sent })),
        ...validateRadio(data),
        ...(await validatePrimaryMac(rc, 'dcim.interface', { data, before })),
      };
    },
    async prepare(args) {
      dropUntaggedWithoutMode(args);
      dropSvlanWithoutQinQ(args);
      prepareRadio(args.data);
      await preparePrimaryMac(args.rc, args);
    },
    // its MAC objects (mac-address-sync.ts)
    afterWrite: (args) => syncMacObjects(args.rc, 'dcim.interface', args),
    writesAfter: writesMacObjects,
    // only an update can take an interface out of tagged mode (interface-vlans.ts)
    async afterUpdate({ rc, row, before }) {
      await syncTaggedVlans(rc, row, before);
    },
    async represent(rc, rows, out, { mode, readRows }) {
      const { status } = await representCabled(rc, 'dcim.interface', rows, out, mode, true);
      rows.forEach((r, i) => {
        // NetBox: a component shows "name (label)" when it has a label
        if (r.label) out[i]!.display = `${String(r.name)} (${String(r.label)})`;
        // spec: Representations (3.4's nested interface); NetBox 4 has no such key
        if (mode === 'nested' && rc.dialect === '3.4') out[i]!.connection_status = connectionStatus(r.cable_id, status);
      });
      await representL2vpnTermination(rc, rows, out, mode, () => readRows('l2vpn_termination'));
      await representMacAddresses(rc, rows, out, mode, () => readRows('mac_addresses'));
      await representBridgeInterfaces(rc, rows, out, mode, () => readRows('bridge_interfaces'));
    },
  },
  // NetBox 3.4 InterfaceSerializer (the Ansible inventory plugin reads it to decide whether to fetch addresses)
  // NetBox 3.4 serializer: addresses on it, FHRP groups it takes part in
  counts: {
    count_ipaddresses: { model: 'ipam.ipaddress', generic: 'assigned_object' },
    count_fhrp_groups: { model: 'ipam.fhrpgroupassignment', generic: 'interface' },
  },
  // the hook's brief and nested steps: the label in the display, `_occupied` (cabled-fields.ts), the cable's status
  representReads: ['label', 'cable_id', 'mark_connected', 'wireless_link_id'],
  ui: INTERFACE_UI,
  brief: ['device', 'name', 'cable', '_occupied'],
  // spec: Representations - connection_status is only in this form (filled by represent)
  nested: ['device', 'name', 'cable', 'connection_status'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: {
    brief: ['device', 'name', 'description', 'cable', '_occupied'],
    filters: { mac_address: macAddressesFilter('dcim.interface') },
  },
  represented: { connection_status: { ...choiceSchema({ kind: 'choice', choices: LinkStatus }), nullable: true } },
  ordering: ['device', 'name'],
  search: ['name', 'label', 'description', 'mac_address'],
});
