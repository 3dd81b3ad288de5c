/**
 * The read-only counts NetBox 3.4's serializers render (TenantSerializer, ManufacturerSerializer,
 * SiteSerializer, LocationSerializer, InterfaceSerializer): each counts the related rows that
 * point at the object, on the list and the detail view.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  type Json,
  make,
  makeDevice,
  makeInterface,
  makeManufacturer,
  makeRack,
  makeSite,
  named,
  makeCircuitType,
  makeClusterType,
  makePlatform,
  makeProvider,
  makeTenant,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const detail = async (path: string, id: number) => (await t.get(`/api/${path}/${id}/`)).json();

describe('tenant counts (NetBox 3.4 TenantSerializer)', () => {
  it('counts every kind of object assigned to the tenant, in NetBox order', async () => {
    const tenant = await makeTenant(t);
    const other = await makeTenant(t);
    const site = await makeSite(t, { tenant: tenant.id });
    await makeRack(t, site, { tenant: tenant.id });
    await makeRack(t, site, { tenant: tenant.id });
    await makeDevice(t, { site: site.id, tenant: tenant.id });
    await make(t, '/api/ipam/ip-addresses/', { address: '10.9.0.1/24', tenant: tenant.id });
    await make(t, '/api/ipam/prefixes/', { prefix: '10.9.0.0/24', tenant: tenant.id });
    await make(t, '/api/ipam/prefixes/', { prefix: '10.9.1.0/24', tenant: other.id });
    await make(t, '/api/ipam/vlans/', { vid: 10, name: uniq('vlan'), tenant: tenant.id });
    await make(t, '/api/ipam/vrfs/', { name: uniq('vrf'), tenant: tenant.id });
    const provider = await makeProvider(t);
    const ctype = await makeCircuitType(t);
    await make(t, '/api/circuits/circuits/', {
      cid: uniq('cid'),
      provider: provider.id,
      type: ctype.id,
      tenant: tenant.id,
    });
    const clusterType = await makeClusterType(t);
    const cluster = await make(t, '/api/virtualization/clusters/', {
      name: uniq('cl'),
      type: clusterType.id,
      tenant: tenant.id,
    });
    await make(t, '/api/virtualization/virtual-machines/', {
      name: uniq('vm'),
      cluster: cluster.id,
      tenant: tenant.id,
    });
    const expected = {
      circuit_count: 1,
      device_count: 1,
      ipaddress_count: 1,
      prefix_count: 1,
      rack_count: 2,
      site_count: 1,
      virtualmachine_count: 1,
      vlan_count: 1,
      vrf_count: 1,
      cluster_count: 1,
    };
    const got = await detail('tenancy/tenants', tenant.id);
    expect(got).toMatchObject(expected);
    expect(Object.keys(got).filter((k) => k.endsWith('_count'))).toEqual(Object.keys(expected));
    const listed = (await t.get(`/api/tenancy/tenants/?id=${tenant.id}&id=${other.id}`)).json().results as Json[];
    expect(listed.find((r) => r.id === other.id)).toMatchObject({ prefix_count: 1, rack_count: 0, vrf_count: 0 });
  });
});

describe('manufacturer counts (NetBox 3.4 ManufacturerSerializer)', () => {
  it('counts device types, inventory items and platforms', async () => {
    const m = await makeManufacturer(t);
    await make(t, '/api/dcim/device-types/', { manufacturer: m.id, model: uniq('m'), slug: uniq('m') });
    await makePlatform(t, { manufacturer: m.id });
    await makePlatform(t, { manufacturer: m.id });
    await make(t, '/api/dcim/inventory-items/', { device: (await makeDevice(t)).id, name: 'psu', manufacturer: m.id });
    expect(await detail('dcim/manufacturers', m.id)).toMatchObject({
      devicetype_count: 1,
      inventoryitem_count: 1,
      platform_count: 2,
    });
  });
});

describe('site and location counts', () => {
  it('counts what sits in a site and in a location tree', async () => {
    const site = await makeSite(t);
    const loc = await make(t, '/api/dcim/locations/', { ...named('loc'), site: site.id });
    const child = await make(t, '/api/dcim/locations/', { ...named('loc'), site: site.id, parent: loc.id });
    await makeRack(t, site, { location: child.id });
    await makeDevice(t, { site: site.id, location: child.id });
    await makeDevice(t, { site: site.id });
    await make(t, '/api/ipam/vlans/', { vid: 20, name: uniq('vlan'), site: site.id });
    await make(t, '/api/ipam/prefixes/', { prefix: '10.8.0.0/24', site: site.id });
    expect(await detail('dcim/sites', site.id)).toMatchObject({
      circuit_count: 0,
      device_count: 2,
      prefix_count: 1,
      rack_count: 1,
      virtualmachine_count: 0,
      vlan_count: 1,
    });
    // NetBox counts a location's descendants too
    expect(await detail('dcim/locations', loc.id)).toMatchObject({ rack_count: 1, device_count: 1 });
  });
});

describe('interface counts (NetBox 3.4 InterfaceSerializer)', () => {
  it('renders count_ipaddresses and count_fhrp_groups (0 without FHRP assignments)', async () => {
    const iface = await makeInterface(t, await makeDevice(t));
    await make(t, '/api/ipam/ip-addresses/', {
      address: '10.7.0.1/24',
      assigned_object_type: 'dcim.interface',
      assigned_object_id: iface.id,
    });
    expect(await detail('dcim/interfaces', iface.id)).toMatchObject({ count_ipaddresses: 1, count_fhrp_groups: 0 });
  });
});
