/**
 * GraphQL per API dialect: a request is answered by its dialect's schema (chosen as REST chooses:
 * Accept version, then the token, then API_DIALECT). 4.4's types use 4.4's names and models, its
 * filters take NetBox 4.3+'s AND/OR/NOT and enum names; 3.4's schema keeps 3.4's arguments and
 * has none of 4.4's additions. Nested AND/OR/NOT stay within the query limits.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Json,
  makeDevice,
  makeRack,
  makeSite,
  makeTenant,
  makeToken,
  makeVm,
  uniq,
  V44,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { fewestStatements } from '../../helpers/statements.js';

let t: TestApp;
let prefix: string;
let tenantA: Json;
let tenantB: Json;
/** our sites, `<prefix>-1` to 4: active of A, planned of B, planned without tenant, retired of A */
let s1: Json, s2: Json, s4: Json;

beforeAll(async () => {
  t = await makeTestApp();
  prefix = uniq('gq');
  tenantA = await makeTenant(t);
  tenantB = await makeTenant(t);
  const site = (n: number, status: string, tenant: Json | null) =>
    makeSite(t, { name: `${prefix}-${n}`, slug: `${prefix}-${n}`, status, tenant: tenant?.id ?? null });
  s1 = await site(1, 'active', tenantA);
  s2 = await site(2, 'planned', tenantB);
  await site(3, 'planned', null);
  s4 = await site(4, 'retired', tenantA);
}, 60_000);
afterAll(async () => t?.close());

type Dialect = '3.4' | '4.4';
async function gql(query: string, dialect: Dialect | null = '4.4', variables?: Json, token?: string) {
  const headers = dialect ? { accept: `application/json; version=${dialect}` } : undefined;
  const res = await t.request('POST', '/graphql/', { body: { query, variables }, headers, token });
  return { status: res.statusCode, body: res.json() as Json, version: res.headers['api-version'] };
}
async function data(query: string, dialect: Dialect = '4.4', variables?: Json): Promise<Json> {
  const { status, body } = await gql(query, dialect, variables);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data;
}
/** the names of our sites a 4.4 `filters:` object keeps, in order */
async function sites(filters: string): Promise<number[]> {
  const d = await data(
    `{ site_list(filters: {name: {i_starts_with: "${prefix}-"}, AND: ${filters}}, ordering: ["name"]) { name } }`,
  );
  return d.site_list.map((s: Json) => Number(String(s.name).slice(prefix.length + 1)));
}

describe('one schema per dialect', () => {
  it('shows the same objects under each dialect names', async () => {
    const rack = await makeRack(t, s1, { type: '4-post-cabinet', airflow: 'front-to-rear' });
    const device = await makeDevice(t, { site: s1.id });
    const vm = await makeVm(t, { disk: 20 });
    const q34 = `{ rack(id: ${rack.id}) { type } device(id: ${device.id}) { device_role { id } role { id } } virtual_machine(id: ${vm.id}) { disk } }`;
    expect(await data(q34, '3.4')).toEqual({
      rack: { type: '4-post-cabinet' },
      device: { device_role: { id: String(device.role.id) }, role: { id: String(device.role.id) } },
      virtual_machine: { disk: 20 },
    });
    const q44 = `{ rack(id: ${rack.id}) { form_factor airflow display_url } device(id: ${device.id}) { role { id } } virtual_machine(id: ${vm.id}) { disk } }`;
    expect(await data(q44, '4.4')).toEqual({
      rack: {
        form_factor: '4-post-cabinet',
        airflow: 'front-to-rear',
        display_url: expect.stringMatching(new RegExp(`/dcim/racks/${rack.id}/$`)),
      },
      device: { role: { id: String(device.role.id) } },
      virtual_machine: { disk: 20_000 },
    });
    // each schema refuses the other's names, before anything runs
    for (const [query, dialect, field] of [
      [`{ rack(id: ${rack.id}) { form_factor } }`, '3.4', 'form_factor'],
      [`{ rack(id: ${rack.id}) { airflow } }`, '3.4', 'airflow'],
      [`{ rack(id: ${rack.id}) { type } }`, '4.4', 'type'],
      [`{ device(id: ${device.id}) { device_role { id } } }`, '4.4', 'device_role'],
    ] as const) {
      const { status, body } = await gql(query, dialect);
      expect(status, query).toBe(400);
      expect(body.errors[0].message).toContain(`Cannot query field "${field}"`);
    }
  });

  it('serves 4.4-only models in 4.4, and refuses them in 3.4 with a GraphQL error', async () => {
    expect((await data('{ mac_address_list { id } }', '4.4')).mac_address_list).toEqual([]);
    const { status, body } = await gql('{ mac_address_list { id } }', '3.4');
    expect(status).toBe(400);
    expect(body.errors[0].message).toContain('Cannot query field "mac_address_list" on type "Query"');
    // 4.4's relation names: a site's prefixes through their scope, without 3.4's `_by_site`
    expect(await data(`{ site(id: ${s1.id}) { prefixes { id } clusters { id } } }`)).toEqual({
      site: { prefixes: [], clusters: [] },
    });
    expect((await data(`{ site(id: ${s1.id}) { prefixes_by_site { id } } }`, '3.4')).site.prefixes_by_site).toEqual([]);
  });

  it('chooses the dialect as REST does: Accept version, then the token, then API_DIALECT', async () => {
    const token = (await makeToken(t, { api_dialect: '4.4' })).key;
    const query = '{ __type(name: "RackType") { fields { name } } }';
    const names = (body: Json) => body.data.__type.fields.map((f: Json) => f.name);
    const byToken = await gql(query, null, undefined, token);
    expect(byToken.version).toBe('4.4');
    expect(names(byToken.body)).toContain('form_factor');
    const asked = await gql(query, '3.4', undefined, token);
    expect(asked.version).toBe('3.4');
    expect(names(asked.body)).toContain('type');
    expect(names(asked.body)).not.toContain('form_factor');
    const plain = await gql('{ __schema { queryType { description } } }', null);
    expect(plain.body.data.__schema.queryType.description).toContain("NetBox 3.4's dialect");
    expect(
      (await t.request('POST', '/graphql/', { body: { query }, headers: { accept: 'application/json; version=9.9' } }))
        .statusCode,
    ).toBe(406);
  });

  it("opens GraphiQL in the request's dialect, whose fetcher asks for it", async () => {
    const token = (await makeToken(t, { api_dialect: '4.4' })).key;
    const page = await t.request('GET', '/graphql/', { headers: { accept: 'text/html' }, token });
    expect(page.body).toContain('data-api-version="4.4"');
    expect(page.body).toMatch(/<title>GraphiQL · API 4\.4/);
    const plain = await t.request('GET', '/graphql/', { headers: { accept: 'text/html' } });
    expect(plain.body).toContain('data-api-version="3.4"');
  });

  it('takes 3.4 argument style in 3.4 only', async () => {
    const q = `{ site_list(status: "retired", name__isw: "${prefix}-") { name } }`;
    expect((await data(q, '3.4')).site_list).toEqual([{ name: s4.name }]);
    const { status, body } = await gql(q, '4.4');
    expect(status).toBe(400);
    expect(body.errors[0].message).toContain('Unknown argument "status"');
    // and AND/OR/NOT are 4.4's
    expect((await gql('{ site_list(filters: {OR: {status: "active"}}) { id } }', '3.4')).status).toBe(400);
  });

  it('returns raw choice values, and takes NetBox 4 enum names in filters', async () => {
    expect(await sites('{status: STATUS_PLANNED}')).toEqual([2, 3]);
    expect(await sites('{status: {exact: STATUS_RETIRED}}')).toEqual([4]);
    expect(await sites('{status: {in_list: [STATUS_ACTIVE, "retired"]}}')).toEqual([1, 4]);
    const d = await data(`{ site(id: ${s2.id}) { status } }`);
    expect(d.site.status).toBe('planned');
  });
});

describe('AND, OR and NOT in 4.4 filters', () => {
  it('combines them as strawberry-django does', async () => {
    // OR is OR-ed with the rest of its object (NetBox's own example: planned, or of tenant B)
    expect(await sites(`{status: "active", OR: {tenant_id: ${tenantB.id}}}`)).toEqual([1, 2]);
    expect(await sites(`{status: "planned", AND: {tenant_id: ${tenantB.id}}}`)).toEqual([2]);
    expect(await sites('{NOT: {status: "planned"}}')).toEqual([1, 4]);
    // NOT keeps the rows its condition does not hold for, those without a tenant included (Django's exclude)
    expect(await sites(`{NOT: {tenant_id: ${tenantA.id}}}`)).toEqual([2, 3]);
    expect(await sites(`{NOT: {tenant: {slug: {exact: "${tenantB.slug}"}}}, status: {exact: STATUS_PLANNED}}`)).toEqual(
      [3],
    );
  });

  it('nests them', async () => {
    expect(await sites(`{OR: {status: "active"}, NOT: {tenant_id: ${tenantB.id}}}`)).toEqual([1, 3, 4]);
    expect(await sites(`{status: "planned", OR: {AND: {tenant_id: ${tenantA.id}, NOT: {status: "active"}}}}`)).toEqual([
      2, 3, 4,
    ]);
    expect(await sites(`{OR: {OR: {OR: {NOT: {NOT: {status: "retired"}}}}}, status: "active"}`)).toEqual([1, 4]);
  });

  it('answers empty lists, and treats empty objects as no condition', async () => {
    expect(await sites(`{status: "active", NOT: {tenant_id: ${tenantA.id}}}`)).toEqual([]);
    expect(await sites('{status: "staging", OR: {status: "decommissioning"}}')).toEqual([]);
    expect(await sites('{OR: {}, NOT: {}, AND: {}}')).toEqual([1, 2, 3, 4]);
    expect(await sites('{status: "retired", OR: {}, DISTINCT: true}')).toEqual([4]);
  });

  it('filters nested lists the same way, still one statement per level', async () => {
    await makeDevice(t, { site: s1.id, status: 'offline' });
    await makeDevice(t, { site: s4.id, status: 'planned' });
    const query = `{ tenant_list(filters: {id: [${tenantA.id}, ${tenantB.id}]}) { sites(filters: {OR: {status: "retired"}, NOT: {tenant_id: ${tenantB.id}}}, ordering: ["name"]) {
      name devices(filters: {NOT: {OR: {status: "offline"}, status: "active"}}) { status } } } }`;
    const { n, result } = await fewestStatements(t.db, () => data(query));
    const list = result.tenant_list.find((x: Json) => x.sites.length).sites;
    expect(list.map((s: Json) => [s.name, s.devices.map((d: Json) => d.status)])).toEqual([
      [s1.name, []],
      [s4.name, ['planned']],
    ]);
    // one per level as without the filters, however they nest, plus the one REST's tenant_id runs
    // too (the tenant must exist)
    const plain = await fewestStatements(t.db, () =>
      data(`{ tenant_list(filters: {id: [${tenantA.id}, ${tenantB.id}]}) { sites { name devices { status } } } }`),
    );
    expect(n).toBe(plain.n + 1);
  });
});

describe('bad 4.4 filters', () => {
  it('are GraphQL errors naming the argument, never a 500', async () => {
    const bad = async (filters: string) => {
      const res = await gql(`{ site_list(filters: ${filters}) { id } }`);
      expect(res.status, filters).toBeLessThan(500);
      expect(res.body.errors?.length, filters).toBeGreaterThan(0);
      return res;
    };
    expect((await bad('{OR: "x"}')).status).toBe(400);
    expect((await bad('{no_such_filter: 1}')).status).toBe(400);
    const value = await bad('{AND: {OR: {status: "nonsense"}}}');
    expect(value.status).toBe(200);
    expect(value.body.errors[0].extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argument: 'filters.AND.OR.status',
    });
    const lookup = await bad('{NOT: {name: {no_such: "x"}}}');
    expect(lookup.body.errors[0].extensions.argument).toBe('filters.NOT.name.no_such');
    expect((await bad('{id: {range: [1]}}')).body.errors[0].extensions.argument).toBe('filters.id.range');
    const variable = await gql('query($f: SiteFilter) { site_list(filters: $f) { id } }', '4.4', { f: { OR: 5 } });
    expect(variable.status).toBe(400);
  });

  it('may not nest deeper than GRAPHQL_MAX_DEPTH, literal or in variables', async () => {
    const nest = (levels: number) => `${'{OR: '.repeat(levels)}{status: "active"}${'}'.repeat(levels)}`;
    expect((await gql(`{ site_list(filters: ${nest(10)}) { id } }`)).status).toBe(200);
    const deep = await gql(`{ site_list(filters: ${nest(11)}) { id } }`);
    expect(deep.status).toBe(400);
    expect(deep.body.errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
    let f: Json = { status: 'active' };
    for (let i = 0; i < 30; i++) f = { NOT: f };
    const variable = await gql('query($f: SiteFilter) { site_list(filters: $f) { id } }', '4.4', { f });
    expect(variable.status).toBe(400);
    expect(variable.body.errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
    // written by hand, deeper than JSON.stringify itself goes: the body parser refuses it
    const hostile = await t.request('POST', '/graphql/', {
      body: `{"query":"query($f: SiteFilter) { site_list(filters: $f) { id } }","variables":{"f":${'{"NOT":'.repeat(20_000)}{}${'}'.repeat(20_000)}}}`,
      headers: { ...V44, 'content-type': 'application/json' },
    });
    expect(hostile.statusCode).toBe(400);
    // past what graphql-js's parser can read, and just within it
    for (const levels of [6000, 900]) {
      const huge = await gql(`{ site_list(filters: ${nest(levels)}) { id } }`);
      expect(huge.status, String(levels)).toBe(400);
      expect(huge.body.errors[0].extensions.code).toBe('QUERY_TOO_DEEP');
    }
  });
});
