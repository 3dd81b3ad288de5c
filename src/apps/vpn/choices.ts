/** The choice sets of NetBox 3.7.8's vpn app (vpn/choices.py): values and labels. */
import { defineChoices } from '../../core/model/choices.js';

export const TunnelStatus = defineChoices([
  ['planned', 'Planned'],
  ['active', 'Active'],
  ['disabled', 'Disabled'],
]);

export const TunnelEncapsulation = defineChoices([
  ['ipsec-transport', 'IPsec - Transport'],
  ['ipsec-tunnel', 'IPsec - Tunnel'],
  ['ip-ip', 'IP-in-IP'],
  ['gre', 'GRE'],
]);

export const TunnelTerminationRole = defineChoices([
  ['peer', 'Peer'],
  ['hub', 'Hub'],
  ['spoke', 'Spoke'],
]);

export const IKEVersion = defineChoices([
  [1, 'IKEv1'],
  [2, 'IKEv2'],
]);

export const IKEMode = defineChoices([
  ['aggressive', 'Aggressive'],
  ['main', 'Main'],
]);

export const AuthenticationMethod = defineChoices([
  ['preshared-keys', 'Pre-shared keys'],
  ['certificates', 'Certificates'],
  ['rsa-signatures', 'RSA signatures'],
  ['dsa-signatures', 'DSA signatures'],
]);

export const IPSecMode = defineChoices([
  ['esp', 'ESP'],
  ['ah', 'AH'],
]);

export const EncryptionAlgorithm = defineChoices([
  ['aes-128-cbc', '128-bit AES (CBC)'],
  ['aes-128-gcm', '128-bit AES (GCM)'],
  ['aes-192-cbc', '192-bit AES (CBC)'],
  ['aes-192-gcm', '192-bit AES (GCM)'],
  ['aes-256-cbc', '256-bit AES (CBC)'],
  ['aes-256-gcm', '256-bit AES (GCM)'],
  ['3des-cbc', '3DES'],
  ['des-cbc', 'DES'],
]);

export const AuthenticationAlgorithm = defineChoices([
  ['hmac-sha1', 'SHA-1 HMAC'],
  ['hmac-sha256', 'SHA-256 HMAC'],
  ['hmac-sha384', 'SHA-384 HMAC'],
  ['hmac-sha512', 'SHA-512 HMAC'],
  ['hmac-md5', 'MD5 HMAC'],
]);

// IANA IKEv2 Diffie-Hellman group numbers (3-4 reserved, 6-13 unassigned)
const DH_GROUPS = [1, 2, 5, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34];
export const DHGroup = defineChoices(DH_GROUPS.map((n) => [n, `Group ${n}`] as const));

// NetBox groups these under VPLS, VXLAN, L2VPN E-VPN, E-Line, E-LAN and E-Tree; the API shows them flat
export const L2VPNType = defineChoices([
  ['vpws', 'VPWS'],
  ['vpls', 'VPLS'],
  ['vxlan', 'VXLAN'],
  ['vxlan-evpn', 'VXLAN-EVPN'],
  ['mpls-evpn', 'MPLS EVPN'],
  ['pbb-evpn', 'PBB EVPN'],
  ['epl', 'EPL'],
  ['evpl', 'EVPL'],
  ['ep-lan', 'Ethernet Private LAN'],
  ['evp-lan', 'Ethernet Virtual Private LAN'],
  ['ep-tree', 'Ethernet Private Tree'],
  ['evp-tree', 'Ethernet Virtual Private Tree'],
]);

/** NetBox L2VPNTypeChoices.P2P: point-to-point types, two terminations at most */
export const POINT_TO_POINT_L2VPN_TYPES: ReadonlySet<string> = new Set(['vpws', 'epl', 'ep-lan', 'ep-tree']);
