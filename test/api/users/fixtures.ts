/**
 * Factories for the users API tests: plain users with a token, object permissions and sites, all
 * created through the API as the harness's superuser.
 */
import { expect } from 'vitest';
import { type TestApp, uniq } from '../../helpers/app.js';

export interface TestUser {
  id: number;
  username: string;
  password: string;
  token: string;
}

/** A non-superuser with one write-enabled token (created by the superuser). */
export async function makeUser(t: TestApp, attrs: Record<string, unknown> = {}): Promise<TestUser> {
  const username = uniq('user');
  const password = `pw-${username}`;
  const res = await t.post('/api/users/users/', { username, password, ...attrs });
  expect(res.statusCode, res.body).toBe(201);
  const id = res.json().id as number;
  const tok = await t.post('/api/users/tokens/', { user: id });
  expect(tok.statusCode, tok.body).toBe(201);
  return { id, username, password, token: tok.json().key as string };
}

/** An enabled ObjectPermission given to users (and groups); returns its id. */
export async function grant(
  t: TestApp,
  perm: {
    object_types: string[];
    actions: string[];
    users?: number[];
    groups?: number[];
    constraints?: unknown;
    enabled?: boolean;
  },
): Promise<number> {
  const res = await t.post('/api/users/permissions/', { name: uniq('perm'), ...perm });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as number;
}

export async function makeSite(t: TestApp, attrs: Record<string, unknown> = {}): Promise<{ id: number; slug: string }> {
  const name = uniq('site');
  const res = await t.post('/api/dcim/sites/', { name, slug: name, ...attrs });
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as number, slug: name };
}

/** Ids of a list response (all pages are requested at once). */
export function idsOf(body: { results: Array<{ id: number }> }): number[] {
  return body.results.map((r) => r.id);
}
