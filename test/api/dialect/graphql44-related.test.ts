/**
 * NetBox 4.4's GraphQL filters on related objects' fields: a foreign key's filter is the related
 * model's own filter type (`device_list(filters: {site: {name: {exact: "x"}}})`), nested as deep as
 * the query limits allow, combined with AND/OR/NOT, compiled into the list's one statement, and
 * limited to the related objects the user may view. 3.4's arguments are unchanged.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  grant,
  type Json,
  makeDevice,
  makeInterface,
  makeSite,
  makeTag,
  makeTenant,
  makeTenantGroup,
  makeUser,
  makeVlan,
  uniq,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { fewestStatements } from '../../helpers/statements.js';

let t: TestApp;
let prefix: string;
let group: Json;
let tenantA: Json;
let tenantB: Json;
let siteA: Json;
let siteB: Json;
let siteC: Json;
/** devices: d1, d2 in site A (tenant A, in the group); d3 in site B (tenant B); d4 in site C (no tenant) */
let devices: Json[];

beforeAll(async () => {
  t = await makeTestApp();
  prefix = uniq('rel');
  group = await makeTenantGroup(t);
  tenantA = await makeTenant(t, { slug: `${prefix}-alpha`, group: group.id });
  tenantB = await makeTenant(t, { slug: `${prefix}-beta` });
  siteA = await makeSite(t, { name: `${prefix}-A`, tenant: tenantA.id });
  siteB = await makeSite(t, { name: `${prefix}-B`, tenant: tenantB.id, status: 'planned' });
  siteC = await makeSite(t, { name: `${prefix}-C` });
  devices = [];
  for (const [n, site, status] of [
    [1, siteA, 'active'],
    [2, siteA, 'offline'],
    [3, siteB, 'active'],
    [4, siteC, 'active'],
  ] as const)
    devices.push(await makeDevice(t, { name: `${prefix}-d${n}`, site: site.id, status }));
}, 60_000);
afterAll(async () => t?.close());

async function gql(query: string, dialect = '4.4', token?: string) {
  const headers = { accept: `application/json; version=${dialect}` };
  const res = await t.request('POST', '/graphql/', { body: { query }, headers, token });
  return { status: res.statusCode, body: res.json() as Json };
}
async function data(query: string, dialect = '4.4', token?: string): Promise<Json> {
  const { status, body } = await gql(query, dialect, token);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data;
}
/** the numbers of our devices a 4.4 `filters:` object keeps */
async function devs(filters: string, token?: string): Promise<number[]> {
  const d = await data(
    `{ device_list(filters: {name: {i_starts_with: "${prefix}-d"}, AND: ${filters}}, ordering: ["name"]) { name } }`,
    '4.4',
    token,
  );
  return d.device_list.map((x: Json) => Number(String(x.name).slice(`${prefix}-d`.length)));
}

describe("4.4 filters on related objects' fields", () => {
  it("filter on a foreign key's fields with the related model's lookups", async () => {
    expect(await devs(`{site: {name: {exact: "${siteA.name}"}}}`)).toEqual([1, 2]);
    expect(await devs(`{site: {name: {i_ends_with: "-b"}}}`)).toEqual([3]);
    expect(await devs('{site: {status: STATUS_PLANNED}}')).toEqual([3]);
    expect(await devs(`{site: {id: {in_list: [${siteA.id}, ${siteC.id}]}}, status: STATUS_ACTIVE}`)).toEqual([1, 4]);
    // the site's own REST filters, its tenant's slug included
    expect(await devs(`{site: {tenant: {slug: {i_contains: "${prefix}-ALPHA"}}}}`)).toEqual([1, 2]);
    // and further: the site's tenant's group
    expect(await devs(`{site: {tenant: {group: {slug: {exact: "${group.slug}"}}}}}`)).toEqual([1, 2]);
    // an empty object adds no condition
    expect(await devs('{site: {}}')).toEqual([1, 2, 3, 4]);
  });

  it('combine with AND, OR and NOT, outside and inside the related object', async () => {
    expect(await devs(`{site: {name: {exact: "${siteB.name}"}}, OR: {status: STATUS_OFFLINE}}`)).toEqual([2, 3]);
    expect(await devs(`{NOT: {site: {tenant: {slug: {exact: "${tenantA.slug}"}}}}}`)).toEqual([3, 4]);
    // inside the site: planned, or of tenant A
    expect(await devs(`{site: {status: STATUS_PLANNED, OR: {tenant_id: ${tenantA.id}}}}`)).toEqual([1, 2, 3]);
    // a site without a tenant is kept by NOT, as Django's exclude() keeps it
    expect(await devs(`{site: {NOT: {tenant: {slug: {exact: "${tenantA.slug}"}}}}}`)).toEqual([3, 4]);
  });

  it('filter nested lists, and name the argument of a bad value', async () => {
    const d = await data(
      `{ tenant(id: ${tenantA.id}) { sites(filters: {tenant: {slug: {exact: "${tenantA.slug}"}}}) { devices(filters: {site: {name: {exact: "${siteA.name}"}}, status: STATUS_OFFLINE}) { name } } } }`,
    );
    expect(d.tenant.sites).toEqual([{ devices: [{ name: `${prefix}-d2` }] }]);
    const bad = await gql('{ device_list(filters: {OR: {site: {tenant: {id: {exact: "x"}}}}}) { id } }');
    expect(bad.status).toBe(200);
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'filters.OR.site.tenant.id',
    });
    const unknown = await gql('{ device_list(filters: {site: {no_such_field: "x"}}) { id } }');
    expect(unknown.status).toBe(400);
    // the related filter is an object: 4.4 has no `site: "slug"` (NetBox 4.4's schema has none); site_id stays
    expect((await gql(`{ device_list(filters: {site: "${siteA.slug}"}) { id } }`)).status).toBe(400);
    expect(await devs(`{site_id: ${siteB.id}}`)).toEqual([3]);
  });

  it('filter on tags and many-to-many members: any of them matching', async () => {
    const red = await makeTag(t);
    const blue = await makeTag(t);
    await t.patch(`/api/dcim/devices/${devices[0]!.id}/`, { tags: [red.id, blue.id] });
    await t.patch(`/api/dcim/devices/${devices[2]!.id}/`, { tags: [blue.id] });
    expect(await devs(`{tags: {slug: {exact: "${red.slug}"}}}`)).toEqual([1]);
    expect(await devs(`{tags: {slug: {in_list: ["${red.slug}", "${blue.slug}"]}}}`)).toEqual([1, 3]);
    expect(await devs(`{NOT: {tags: {slug: {exact: "${blue.slug}"}}}}`)).toEqual([2, 4]);
    const vlan = await makeVlan(t, { vid: 3001 });
    const other = await makeVlan(t, { vid: 3002 });
    const trunk = await makeInterface(t, devices[3]!, { mode: 'tagged', tagged_vlans: [vlan.id, other.id] });
    await makeInterface(t, devices[3]!, { mode: 'tagged', tagged_vlans: [other.id] });
    const d = await data(
      `{ interface_list(filters: {device_id: ${devices[3]!.id}, tagged_vlans: {vid: {exact: 3001}}}) { id } }`,
    );
    expect(d.interface_list).toEqual([{ id: String(trunk.id) }]);
  });

  it('run in the one list statement, whatever the nesting', async () => {
    const plain = await fewestStatements(t.db, () => data('{ device_list(pagination: {limit: 5}) { id } }'));
    const nested = await fewestStatements(t.db, () =>
      data(
        `{ device_list(filters: {site: {tenant: {group: {slug: {exact: "${group.slug}"}}}, OR: {name: {i_contains: "-B"}}}}) { id } }`,
      ),
    );
    expect(nested.result.device_list.map((x: Json) => x.id).sort()).toEqual(
      [devices[0]!.id, devices[1]!.id, devices[2]!.id].map(String).sort(),
    );
    expect(nested.n).toBe(plain.n);
  });

  it('see only the related objects the user may view', async () => {
    const user = await makeUser(t);
    await grant(t, { object_types: ['dcim.device'], actions: ['view'], users: [user.id] });
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [user.id],
      constraints: { name: siteB.name },
    });
    // site A's name is not the user's to test: its devices are not found by it
    expect(await devs(`{site: {name: {exact: "${siteA.name}"}}}`, user.token)).toEqual([]);
    expect(await devs(`{site: {name: {exact: "${siteB.name}"}}}`, user.token)).toEqual([3]);
    // a model the user may not view at all matches nothing
    expect(await devs(`{tenant: {slug: {i_contains: "${prefix}"}}}`, user.token)).toEqual([]);
  });

  it('nest no deeper than GRAPHQL_MAX_DEPTH', async () => {
    // a site's tenant's group's parent's ...: one level each
    const nest = (levels: number) =>
      `{tenant: {group: ${'{parent: '.repeat(levels - 2)}{name: {exact: "x"}}${'}'.repeat(levels - 2)}}}`;
    expect((await data(`{ site_list(filters: ${nest(10)}) { id } }`)).site_list).toEqual([]);
    const deep = await gql(`{ site_list(filters: ${nest(11)}) { id } }`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
  });
});

describe('3.4 filters', () => {
  it("keep 3.4's scalar arguments, by slug and by id", async () => {
    const q = (args: string) =>
      data(`{ device_list(${args}, name__isw: "${prefix}-d") { name } }`, '3.4').then((d) =>
        d.device_list.map((x: Json) => x.name).sort(),
      );
    expect(await q(`site: "${siteB.slug}"`)).toEqual([`${prefix}-d3`]);
    expect(await q(`filters: {site: "${siteB.slug}", status: "active"}`)).toEqual([`${prefix}-d3`]);
    expect(await q(`site_id: ${siteC.id}`)).toEqual([`${prefix}-d4`]);
    // 3.4 has no filters on related objects' fields: a lookup it does not know
    const related = await gql(`{ device_list(filters: {site: {name: {exact: "${siteA.name}"}}}) { id } }`, '3.4');
    expect(related.body.errors[0].message).toContain('Unknown lookup "name"');
  });
});
