import { defineChoices } from '../../core/model/choices.js';

// reference 4: choice sets of NetBox 3.4 (dcim/choices.py), value = label

/** NetBox 3.4 SiteStatusChoices; LocationStatusChoices has the same values and labels */
export const SiteStatus = defineChoices([
  ['planned', 'Planned'],
  ['staging', 'Staging'],
  ['active', 'Active'],
  ['decommissioning', 'Decommissioning'],
  ['retired', 'Retired'],
]);

export const RackStatus = defineChoices([
  ['reserved', 'Reserved'],
  ['available', 'Available'],
  ['planned', 'Planned'],
  ['active', 'Active'],
  ['deprecated', 'Deprecated'],
]);

export const RackType = defineChoices([
  ['2-post-frame', '2-post frame'],
  ['4-post-frame', '4-post frame'],
  ['4-post-cabinet', '4-post cabinet'],
  ['wall-frame', 'Wall-mounted frame'],
  ['wall-frame-vertical', 'Wall-mounted frame (vertical)'],
  ['wall-cabinet', 'Wall-mounted cabinet'],
  ['wall-cabinet-vertical', 'Wall-mounted cabinet (vertical)'],
]);

export const RackWidth = defineChoices([
  [10, '10 inches'],
  [19, '19 inches'],
  [21, '21 inches'],
  [23, '23 inches'],
]);

export const DimensionUnit = defineChoices([
  ['mm', 'Millimeters'],
  ['in', 'Inches'],
]);

export const WeightUnit = defineChoices([
  ['kg', 'Kilograms'],
  ['g', 'Grams'],
  ['lb', 'Pounds'],
  ['oz', 'Ounces'],
]);

export const DeviceStatus = defineChoices([
  ['offline', 'Offline'],
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['staged', 'Staged'],
  ['failed', 'Failed'],
  ['inventory', 'Inventory'],
  ['decommissioning', 'Decommissioning'],
]);

export const DeviceFace = defineChoices([
  ['front', 'Front'],
  ['rear', 'Rear'],
]);

export const SubdeviceRole = defineChoices([
  ['parent', 'Parent'],
  ['child', 'Child'],
]);

export const Airflow = defineChoices([
  ['front-to-rear', 'Front to rear'],
  ['rear-to-front', 'Rear to front'],
  ['left-to-right', 'Left to right'],
  ['right-to-left', 'Right to left'],
  ['side-to-rear', 'Side to rear'],
  ['passive', 'Passive'],
  ['mixed', 'Mixed'],
]);

export const InterfaceMode = defineChoices([
  ['access', 'Access'],
  ['tagged', 'Tagged'],
  ['tagged-all', 'Tagged (All)'],
  // NetBox 4.2 (#9102): shown in both dialects (docs/api-dialects.md, "Q-in-Q")
  ['q-in-q', 'Q-in-Q (802.1ad)'],
]);

export const Duplex = defineChoices([
  ['half', 'Half'],
  ['full', 'Full'],
  ['auto', 'Auto'],
]);

export const PoEMode = defineChoices([
  ['pd', 'PD'],
  ['pse', 'PSE'],
]);

export const PoEType = defineChoices([
  ['type1-ieee802.3af', '802.3af (Type 1)'],
  ['type2-ieee802.3at', '802.3at (Type 2)'],
  ['type3-ieee802.3bt', '802.3bt (Type 3)'],
  ['type4-ieee802.3bt', '802.3bt (Type 4)'],
  ['passive-24v-2pair', 'Passive 24V (2-pair)'],
  ['passive-24v-4pair', 'Passive 24V (4-pair)'],
  ['passive-48v-2pair', 'Passive 48V (2-pair)'],
  ['passive-48v-4pair', 'Passive 48V (4-pair)'],
]);

/** Interface types that are not physical ports (NetBox's VIRTUAL_IFACE_TYPES) */
export const VIRTUAL_INTERFACE_TYPES = new Set(['virtual', 'bridge', 'lag']);
/** Wireless interface types (NetBox's WIRELESS_IFACE_TYPES) */
export const WIRELESS_INTERFACE_TYPES = new Set([
  'ieee802.11a',
  'ieee802.11g',
  'ieee802.11n',
  'ieee802.11ac',
  'ieee802.11ad',
  'ieee802.11ax',
  'ieee802.11ay',
  'ieee802.15.1',
  'other-wireless',
]);
/** NetBox: virtual and wireless interfaces cannot take a cable (NONCONNECTABLE_IFACE_TYPES) */
export const isCableable = (type: unknown) =>
  !VIRTUAL_INTERFACE_TYPES.has(String(type)) && !WIRELESS_INTERFACE_TYPES.has(String(type));

/** NetBox 3.4's InterfaceTypeChoices, every value (clients send the full range). */
export const InterfaceType = defineChoices([
  ['virtual', 'Virtual'],
  ['bridge', 'Bridge'],
  ['lag', 'Link Aggregation Group (LAG)'],
  ['100base-fx', '100BASE-FX (10/100ME FIBER)'],
  ['100base-lfx', '100BASE-LFX (10/100ME FIBER)'],
  ['100base-tx', '100BASE-TX (10/100ME)'],
  ['100base-t1', '100BASE-T1 (10/100ME Single Pair)'],
  ['1000base-t', '1000BASE-T (1GE)'],
  ['2.5gbase-t', '2.5GBASE-T (2.5GE)'],
  ['5gbase-t', '5GBASE-T (5GE)'],
  ['10gbase-t', '10GBASE-T (10GE)'],
  ['10gbase-cx4', '10GBASE-CX4 (10GE)'],
  ['1000base-x-gbic', 'GBIC (1GE)'],
  ['1000base-x-sfp', 'SFP (1GE)'],
  ['10gbase-x-sfpp', 'SFP+ (10GE)'],
  ['10gbase-x-xfp', 'XFP (10GE)'],
  ['10gbase-x-xenpak', 'XENPAK (10GE)'],
  ['10gbase-x-x2', 'X2 (10GE)'],
  ['25gbase-x-sfp28', 'SFP28 (25GE)'],
  ['50gbase-x-sfp56', 'SFP56 (50GE)'],
  ['40gbase-x-qsfpp', 'QSFP+ (40GE)'],
  ['50gbase-x-sfp28', 'QSFP28 (50GE)'],
  ['100gbase-x-cfp', 'CFP (100GE)'],
  ['100gbase-x-cfp2', 'CFP2 (100GE)'],
  ['200gbase-x-cfp2', 'CFP2 (200GE)'],
  ['100gbase-x-cfp4', 'CFP4 (100GE)'],
  ['100gbase-x-cpak', 'Cisco CPAK (100GE)'],
  ['100gbase-x-qsfp28', 'QSFP28 (100GE)'],
  ['200gbase-x-qsfp56', 'QSFP56 (200GE)'],
  ['400gbase-x-qsfpdd', 'QSFP-DD (400GE)'],
  ['400gbase-x-osfp', 'OSFP (400GE)'],
  ['800gbase-x-qsfpdd', 'QSFP-DD (800GE)'],
  ['800gbase-x-osfp', 'OSFP (800GE)'],
  ['1000base-kx', '1000BASE-KX (1GE)'],
  ['10gbase-kr', '10GBASE-KR (10GE)'],
  ['10gbase-kx4', '10GBASE-KX4 (10GE)'],
  ['25gbase-kr', '25GBASE-KR (25GE)'],
  ['40gbase-kr4', '40GBASE-KR4 (40GE)'],
  ['50gbase-kr', '50GBASE-KR (50GE)'],
  ['100gbase-kp4', '100GBASE-KP4 (100GE)'],
  ['100gbase-kr2', '100GBASE-KR2 (100GE)'],
  ['100gbase-kr4', '100GBASE-KR4 (100GE)'],
  ['ieee802.11a', 'IEEE 802.11a'],
  ['ieee802.11g', 'IEEE 802.11b/g'],
  ['ieee802.11n', 'IEEE 802.11n'],
  ['ieee802.11ac', 'IEEE 802.11ac'],
  ['ieee802.11ad', 'IEEE 802.11ad'],
  ['ieee802.11ax', 'IEEE 802.11ax'],
  ['ieee802.11ay', 'IEEE 802.11ay'],
  ['ieee802.15.1', 'IEEE 802.15.1 (Bluetooth)'],
  ['other-wireless', 'Other (Wireless)'],
  ['gsm', 'GSM'],
  ['cdma', 'CDMA'],
  ['lte', 'LTE'],
  ['sonet-oc3', 'OC-3/STM-1'],
  ['sonet-oc12', 'OC-12/STM-4'],
  ['sonet-oc48', 'OC-48/STM-16'],
  ['sonet-oc192', 'OC-192/STM-64'],
  ['sonet-oc768', 'OC-768/STM-256'],
  ['sonet-oc1920', 'OC-1920/STM-640'],
  ['sonet-oc3840', 'OC-3840/STM-1234'],
  ['1gfc-sfp', 'SFP (1GFC)'],
  ['2gfc-sfp', 'SFP (2GFC)'],
  ['4gfc-sfp', 'SFP (4GFC)'],
  ['8gfc-sfpp', 'SFP+ (8GFC)'],
  ['16gfc-sfpp', 'SFP+ (16GFC)'],
  ['32gfc-sfp28', 'SFP28 (32GFC)'],
  ['64gfc-qsfpp', 'QSFP+ (64GFC)'],
  ['128gfc-qsfp28', 'QSFP28 (128GFC)'],
  ['infiniband-sdr', 'SDR (2 Gbps)'],
  ['infiniband-ddr', 'DDR (4 Gbps)'],
  ['infiniband-qdr', 'QDR (8 Gbps)'],
  ['infiniband-fdr10', 'FDR10 (10 Gbps)'],
  ['infiniband-fdr', 'FDR (13.5 Gbps)'],
  ['infiniband-edr', 'EDR (25 Gbps)'],
  ['infiniband-hdr', 'HDR (50 Gbps)'],
  ['infiniband-ndr', 'NDR (100 Gbps)'],
  ['infiniband-xdr', 'XDR (250 Gbps)'],
  ['t1', 'T1 (1.544 Mbps)'],
  ['e1', 'E1 (2.048 Mbps)'],
  ['t3', 'T3 (45 Mbps)'],
  ['e3', 'E3 (34 Mbps)'],
  ['xdsl', 'xDSL'],
  ['docsis', 'DOCSIS'],
  ['gpon', 'GPON (2.5 Gbps / 1.25 Gps)'],
  ['xg-pon', 'XG-PON (10 Gbps / 2.5 Gbps)'],
  ['xgs-pon', 'XGS-PON (10 Gbps)'],
  ['ng-pon2', 'NG-PON2 (TWDM-PON) (4x10 Gbps)'],
  ['epon', 'EPON (1 Gbps)'],
  ['10g-epon', '10G-EPON (10 Gbps)'],
  ['cisco-stackwise', 'Cisco StackWise'],
  ['cisco-stackwise-plus', 'Cisco StackWise Plus'],
  ['cisco-flexstack', 'Cisco FlexStack'],
  ['cisco-flexstack-plus', 'Cisco FlexStack Plus'],
  ['cisco-stackwise-80', 'Cisco StackWise-80'],
  ['cisco-stackwise-160', 'Cisco StackWise-160'],
  ['cisco-stackwise-320', 'Cisco StackWise-320'],
  ['cisco-stackwise-480', 'Cisco StackWise-480'],
  ['cisco-stackwise-1t', 'Cisco StackWise-1T'],
  ['juniper-vcp', 'Juniper VCP'],
  ['extreme-summitstack', 'Extreme SummitStack'],
  ['extreme-summitstack-128', 'Extreme SummitStack-128'],
  ['extreme-summitstack-256', 'Extreme SummitStack-256'],
  ['extreme-summitstack-512', 'Extreme SummitStack-512'],
  ['other', 'Other'],
]);

export const LinkStatus = defineChoices([
  ['connected', 'Connected'],
  ['planned', 'Planned'],
  ['decommissioning', 'Decommissioning'],
]);

/** Cable.type is rendered as a bare value (reference 2, unwrapped choices) */
export const CABLE_TYPES = new Set([
  'cat3',
  'cat5',
  'cat5e',
  'cat6',
  'cat6a',
  'cat7',
  'cat7a',
  'cat8',
  'dac-active',
  'dac-passive',
  'mrj21-trunk',
  'coaxial',
  'mmf',
  'mmf-om1',
  'mmf-om2',
  'mmf-om3',
  'mmf-om4',
  'mmf-om5',
  'smf',
  'smf-os1',
  'smf-os2',
  'aoc',
  'power',
]);

export const CableLengthUnit = defineChoices([
  ['km', 'Kilometers'],
  ['m', 'Meters'],
  ['cm', 'Centimeters'],
  ['mi', 'Miles'],
  ['ft', 'Feet'],
  ['in', 'Inches'],
]);
