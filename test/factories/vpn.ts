/** Builders of the vpn app: tunnels and their terminations, L2VPNs, IKE and IPsec proposals. */
import type { TestApp } from '../helpers/app.js';
import { type Json, make, named, uniq } from './make.js';

export const makeTunnel = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/vpn/tunnels/', { name: uniq('tun'), encapsulation: 'gre', ...extra });

export const makeL2vpn = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/vpn/l2vpns/', { ...named('l2vpn'), type: 'vxlan', ...extra });

export const makeIkeProposal = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/vpn/ike-proposals/', {
    name: uniq('ikep'),
    authentication_method: 'preshared-keys',
    encryption_algorithm: 'aes-256-cbc',
    group: 14,
    ...extra,
  });

export const makeIpsecProposal = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/vpn/ipsec-proposals/', { name: uniq('ipsecp'), encryption_algorithm: 'aes-256-gcm', ...extra });

/** the termination fields of an interface (device or VM) on a tunnel */
export const onInterface = (i: Json, type = 'dcim.interface') => ({ termination_type: type, termination_id: i.id });
