/** IPAM choice sets (reference 4, NetBox 3.4 ipam/choices.py values and labels). */
import { defineChoices } from '../../core/model/choices.js';

export const IPAddressFamily = defineChoices([
  [4, 'IPv4'],
  [6, 'IPv6'],
]);

export const PrefixStatus = defineChoices([
  ['container', 'Container'],
  ['active', 'Active'],
  ['reserved', 'Reserved'],
  ['deprecated', 'Deprecated'],
]);

/** IP ranges and VLANs share these */
export const BasicStatus = defineChoices([
  ['active', 'Active'],
  ['reserved', 'Reserved'],
  ['deprecated', 'Deprecated'],
]);

export const IPAddressStatus = defineChoices([
  ['active', 'Active'],
  ['reserved', 'Reserved'],
  ['deprecated', 'Deprecated'],
  ['dhcp', 'DHCP'],
  ['slaac', 'SLAAC'],
]);

export const IPAddressRole = defineChoices([
  ['loopback', 'Loopback'],
  ['secondary', 'Secondary'],
  ['anycast', 'Anycast'],
  ['vip', 'VIP'],
  ['vrrp', 'VRRP'],
  ['hsrp', 'HSRP'],
  ['glbp', 'GLBP'],
  ['carp', 'CARP'],
]);

/** NetBox 3.4: roles whose addresses may be shared by several objects (IPADDRESS_ROLES_NONUNIQUE) */
export const NON_UNIQUE_ROLES = new Set(['anycast', 'vip', 'vrrp', 'hsrp', 'glbp', 'carp']);

/** NetBox 3.4: models an IP address may be assigned to (spec: Generic relations 3) */
// NetBox 3.4: an address sits on an interface, a VM interface, or is an FHRP group's virtual IP
export const IP_ASSIGNMENT_TYPES = ['dcim.interface', 'virtualization.vminterface', 'ipam.fhrpgroup'];

/** NetBox 3.4: models a VLAN group may be scoped to */
export const VLAN_GROUP_SCOPE_TYPES = [
  'dcim.region',
  'dcim.sitegroup',
  'dcim.site',
  'dcim.location',
  'dcim.rack',
  'virtualization.clustergroup',
  'virtualization.cluster',
];

/** NetBox 3.4 FHRPGroupProtocolChoices */
export const FHRPGroupProtocol = defineChoices([
  ['vrrp2', 'VRRPv2'],
  ['vrrp3', 'VRRPv3'],
  ['carp', 'CARP'],
  ['clusterxl', 'ClusterXL'],
  ['hsrp', 'HSRP'],
  ['glbp', 'GLBP'],
  ['other', 'Other'],
]);

/** NetBox 3.4 FHRPGroupAuthTypeChoices */
export const FHRPGroupAuthType = defineChoices([
  ['plaintext', 'Plaintext'],
  ['md5', 'MD5'],
]);

/** NetBox 3.4: what an FHRP group is assigned to */
export const FHRP_INTERFACE_TYPES = ['dcim.interface', 'virtualization.vminterface'];
