/** Builders of the ipam app. Values that must not collide (VIDs, prefixes) are the caller's to choose. */
import type { TestApp } from '../helpers/app.js';
import { type Json, make, named, uniq } from './make.js';

export const makeRir = (t: TestApp, extra: Json = {}) => make(t, '/api/ipam/rirs/', { ...named('rir'), ...extra });
export const makeVrf = (t: TestApp, extra: Json = {}) => make(t, '/api/ipam/vrfs/', { name: uniq('vrf'), ...extra });
export const makeIpamRole = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/ipam/roles/', { ...named('iprole'), ...extra });
export const makeVlanGroup = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/ipam/vlan-groups/', { ...named('vgroup'), ...extra });

/** a VLAN (VID 100 unless given; VIDs need only be unique within a group) */
export const makeVlan = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/ipam/vlans/', { vid: 100, name: uniq('vlan'), ...extra });

/** an ASN of `extra.rir` (a new RIR unless given) */
export async function makeAsn(t: TestApp, asn: number, extra: Json = {}): Promise<Json> {
  const rir = extra.rir ?? (await makeRir(t)).id;
  return make(t, '/api/ipam/asns/', { asn, ...extra, rir });
}

export const makePrefix = (t: TestApp, prefix: string, extra: Json = {}) =>
  make(t, '/api/ipam/prefixes/', { prefix, ...extra });
export const makeIpAddress = (t: TestApp, address: string, extra: Json = {}) =>
  make(t, '/api/ipam/ip-addresses/', { address, ...extra });
