/**
 * Builders of the users app: plain users with a token, and object permissions, all made through
 * the API as the test app's superuser.
 */
import type { TestApp } from '../helpers/app.js';
import { make, uniq } from './make.js';

export interface TestUser {
  id: number;
  username: string;
  password: string;
  token: string;
}

/** a non-superuser with one write-enabled token (made by the superuser) */
export async function makeUser(t: TestApp, attrs: Record<string, unknown> = {}): Promise<TestUser> {
  const username = uniq('user');
  const password = `pw-${username}`;
  const user = await make(t, '/api/users/users/', { username, password, ...attrs });
  const token = await make(t, '/api/users/tokens/', { user: user.id });
  return { id: user.id as number, username, password, token: token.key as string };
}

/** an enabled ObjectPermission given to users (and groups); returns its id */
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
  return (await make(t, '/api/users/permissions/', { name: uniq('perm'), ...perm })).id as number;
}

export const makeGroup = (t: TestApp, extra: Record<string, unknown> = {}) =>
  make(t, '/api/users/groups/', { name: uniq('group'), ...extra });

/** a token of the superuser (or of `attrs.user`); its id and key */
export async function makeToken(t: TestApp, attrs: Record<string, unknown> = {}): Promise<{ id: number; key: string }> {
  const token = await make(t, '/api/users/tokens/', attrs);
  return { id: token.id as number, key: token.key as string };
}
