import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { gql, gqlData, type Json } from './helpers.js';
import { uniq, makeDevice, makeInterface, makeSite } from '../../factories/index.js';

let t: TestApp;
let site: Json;
let other: Json;
let device: Json;
let iface: Json;
let address: Json;

beforeAll(async () => {
  t = await makeTestApp();
  site = await makeSite(t, { status: 'active' });
  other = await makeSite(t, { status: 'planned', name: uniq('amsterdam') });
  device = await makeDevice(t, { site: site.id, status: 'active' });
  iface = await makeInterface(t, device);
  const res = await t.post('/api/ipam/ip-addresses/', {
    address: '192.0.2.10/24',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: iface.id,
  });
  expect(res.statusCode, res.body).toBe(201);
  address = res.json();
  expect((await t.patch(`/api/dcim/devices/${device.id}/`, { primary_ip4: address.id })).statusCode).toBe(200);
}, 60_000);

afterAll(async () => t?.close());

describe('POST /graphql/', () => {
  it('answers the nested query of the issue in one round trip', async () => {
    const data = await gqlData(
      t,
      `{ device_list(site: "${site.slug}", status: "active") { name primary_ip4 { address } interfaces { name ip_addresses { address } } } }`,
    );
    expect(data.device_list).toEqual([
      {
        name: device.name,
        primary_ip4: { address: '192.0.2.10/24' },
        interfaces: [{ name: iface.name, ip_addresses: [{ address: '192.0.2.10/24' }] }],
      },
    ]);
  });

  it('returns one object by id with the REST full form fields, and null for a missing id', async () => {
    const data = await gqlData(
      t,
      `query($id: ID!) { site(id: $id) { id name slug status display url custom_fields tags { name } created last_updated device_count } missing: site(id: 999999) { id } }`,
      { id: site.id },
    );
    const rest = (await t.get(`/api/dcim/sites/${site.id}/`)).json();
    expect(data.site).toEqual({
      id: String(site.id),
      name: rest.name,
      slug: rest.slug,
      status: 'active',
      display: rest.display,
      url: rest.url,
      custom_fields: rest.custom_fields,
      tags: [],
      created: rest.created,
      last_updated: rest.last_updated,
      device_count: 1,
    });
    expect(data.missing).toBeNull();
  });

  it('navigates relations both ways, and generic relations as unions', async () => {
    const data = await gqlData(
      t,
      `{ site(id: ${site.id}) { devices { name site { slug } } }
         ip_address(id: ${address.id}) { assigned_object { __typename ... on InterfaceType { name device { name } } } } }`,
    );
    expect(data.site.devices).toEqual([{ name: device.name, site: { slug: site.slug } }]);
    expect(data.ip_address.assigned_object).toEqual({
      __typename: 'InterfaceType',
      name: iface.name,
      device: { name: device.name },
    });
  });

  it('takes the REST filters as arguments, NetBox 3.4 and NetBox 4 styles alike', async () => {
    const q = (args: string) => gqlData(t, `{ site_list(${args}) { slug } }`);
    const slugs = async (args: string) => (await q(args)).site_list.map((s: Json) => s.slug);
    expect(await slugs(`status: "planned", name__ic: "amsterdam"`)).toEqual([other.slug]);
    expect(await slugs(`filters: {status: "planned", name: {i_contains: "AMSTERDAM"}}`)).toEqual([other.slug]);
    expect(await slugs(`filters: {name__ic: "amsterdam"}`)).toEqual([other.slug]);
    expect((await slugs(`status: ["active", "planned"], id: [${site.id}, ${other.id}]`)).sort()).toEqual(
      [site.slug, other.slug].sort(),
    );
    expect(await slugs(`id: ${site.id}`)).toEqual([site.slug]);
    expect(
      await slugs(`slug: ["${site.slug}", "${other.slug}"], ordering: ["-name"], pagination: {offset: 1, limit: 1}`),
    ).toHaveLength(1);
  });

  it('names the argument of an invalid filter value', async () => {
    const { status, body } = await gql(t, `{ site_list(status: "nonsense") { id } }`);
    expect(status).toBe(200);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].message).toMatch(/argument "status"/);
    expect(body.errors[0].extensions).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'status' });
    const lookup = await gql(t, `{ site_list(filters: {name: {no_such: "x"}}) { id } }`);
    expect(lookup.body.errors[0].extensions.argument).toBe('filters.name.no_such');
  });

  it('refuses any mutation and writes nothing', async () => {
    const before = (await t.get('/api/dcim/sites/?limit=1')).json().count;
    const { status, body } = await gql(t, `mutation { site_create(name: "x", slug: "x") { id } }`);
    expect(status).toBe(400);
    expect(body.errors[0].message).toMatch(/read-only/);
    expect((await t.get('/api/dcim/sites/?limit=1')).json().count).toBe(before);
  });

  it('answers GET /graphql/?query= as JSON, and a bad request with a 400', async () => {
    const res = await t.get(`/graphql/?query=${encodeURIComponent(`{ site(id: ${site.id}) { slug } }`)}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { site: { slug: site.slug } } });
    expect((await t.get('/graphql/')).statusCode).toBe(400);
    expect((await gql(t, '{ site_list { no_such_field } }')).status).toBe(400);
    expect((await gql(t, '{ site_list {')).status).toBe(400);
  });
});
