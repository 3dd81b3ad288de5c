import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { gql } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({
    GRAPHQL_MAX_DEPTH: '4',
    GRAPHQL_MAX_ALIASES: '2',
    GRAPHQL_MAX_COST: '500',
    GRAPHQL_LIST_COST: '10',
  });
}, 60_000);
afterAll(async () => t?.close());

/** a refused query: 400 before any statement ran */
async function refused(query: string, variables?: Record<string, unknown>) {
  // the schema, the token's last use and the token cache warm up
  await gql(t, '{ __typename }');
  await gql(t, '{ __typename }');
  const before = t.db.stats.queries;
  const { status, body } = await gql(t, query, variables);
  expect(status).toBe(400);
  expect(t.db.stats.queries - before).toBe(0);
  return body.errors[0];
}

describe('GraphQL limits', () => {
  it('refuses a query nested deeper than GRAPHQL_MAX_DEPTH, fragments included', async () => {
    const one = '(pagination: {limit: 1})';
    expect(
      (await refused(`{ site_list${one} { devices${one} { interfaces${one} { device { name } } } } }`)).extensions.code,
    ).toBe('QUERY_TOO_DEEP');
    const viaFragment = await refused(
      `fragment F on InterfaceType { device { site { name } } } { device_list${one} { interfaces${one} { ...F } } }`,
    );
    expect(viaFragment.message).toMatch(/GRAPHQL_MAX_DEPTH/);
    expect((await gql(t, `{ site_list${one} { devices${one} { interfaces${one} { name } } } }`)).status).toBe(200);
  });

  it('refuses more aliases than GRAPHQL_MAX_ALIASES', async () => {
    expect((await refused('{ a: site_list { id } b: site_list { id } c: site_list { id } }')).extensions.code).toBe(
      'TOO_MANY_ALIASES',
    );
  });

  it('refuses a query costing more than GRAPHQL_MAX_COST, counting lists by their page size', async () => {
    // 1 + 10 * (1 + 10 * (1 + 10 * 1)) = 1111
    expect((await refused('{ site_list { devices { interfaces { name } } } }')).extensions.code).toBe(
      'QUERY_TOO_COSTLY',
    );
    const small = '{ site_list(pagination: {limit: 2}) { devices(pagination: {limit: 5}) { interfaces { name } } } }';
    expect((await gql(t, small)).status).toBe(200);
    const vars = 'query($p: OffsetPaginationInput) { site_list(pagination: $p) { name slug } }';
    expect((await refused(vars, { p: { limit: 300 } })).extensions.code).toBe('QUERY_TOO_COSTLY');
    expect((await gql(t, vars, { p: { limit: 100 } })).status).toBe(200);
  });

  it('lets introspection through whatever its depth', async () => {
    const { status, body } = await gql(
      t,
      '{ __schema { queryType { fields { name type { ofType { ofType { name } } } } } } }',
    );
    expect(status).toBe(200);
    expect(body.data.__schema.queryType.fields.length).toBeGreaterThan(100);
    // kept per query text: the same answer again, as GraphiQL asks on every page load
    expect(
      (await gql(t, '{ __schema { queryType { fields { name type { ofType { ofType { name } } } } } } }')).body,
    ).toEqual(body);
    expect((await gql(t, '{ __typename site_list { id } }')).body).toEqual({
      data: { __typename: 'Query', site_list: [] },
    });
  });
});
