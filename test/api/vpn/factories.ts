/** Factories for vpn API tests: every required field filled with unique values, through the API. */
import { type TestApp, uniq } from '../../helpers/app.js';
import { type Json, make } from '../dcim/factories.js';

export { type Json, ids, make, makeDevice, makeInterface, makeSite } from '../dcim/factories.js';
export { makeVm, makeVmInterface } from '../virtualization/factories.js';

export const makeTunnel = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/vpn/tunnels/', { name: uniq('tun'), encapsulation: 'gre', ...extra });

export const makeL2vpn = (t: TestApp, extra: Json = {}) => {
  const n = uniq('l2vpn');
  return make(t, '/api/vpn/l2vpns/', { name: n, slug: n, type: 'vxlan', ...extra });
};

export const makeVlan = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/ipam/vlans/', { vid: 100, name: uniq('vlan'), ...extra });

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

/** a termination of an interface (device or VM) on a tunnel */
export const onInterface = (i: Json, type = 'dcim.interface') => ({ termination_type: type, termination_id: i.id });
