/** Small helpers for the GraphQL tests: a query through POST /graphql/, answered as JSON. */
import { expect } from 'vitest';
import type { Json } from '../../factories/make.js';
import type { TestApp } from '../../helpers/app.js';

export type { Json };

export async function gql(t: TestApp, query: string, variables?: Json, token?: string | null) {
  const res = await t.request('POST', '/graphql/', { body: { query, ...(variables ? { variables } : {}) }, token });
  return { status: res.statusCode, body: res.json() as Json };
}

/** a query that must succeed: its data */
export async function gqlData(t: TestApp, query: string, variables?: Json, token?: string | null): Promise<Json> {
  const { status, body } = await gql(t, query, variables, token);
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(status).toBe(200);
  return body.data;
}
