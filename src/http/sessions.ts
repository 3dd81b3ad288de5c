/**
 * Server-side sessions for browser sign-in (spec: Authentication 1, the browsable API accepts
 * cookie authentication; docs/web-interface.md). The `sessionid` cookie (Django's name) holds 32
 * random bytes; the database holds only their SHA-256, with the user and the expiry, so every
 * process honours a session and a sign-out (the row deleted) ends it everywhere at once. The user's
 * `is_active` is read on every request, so deactivating a user ends their sessions too.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AuthUser } from '../core/context.js';
import type { Kdb } from '../db/client.js';
import { parseCookies, serializeCookie } from './cookies.js';
import { isSecure } from './csrf.js';

const SESSION_COOKIE = 'sessionid';
const KEY_RE = /^[A-Za-z0-9_-]{43}$/;

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** The session key the request's cookie carries, when it looks like one of ours. */
export function sessionKeyOf(request: FastifyRequest): string | null {
  const key = parseCookies(request.headers.cookie).get(SESSION_COOKIE);
  return key && KEY_RE.test(key) ? key : null;
}

/** The signed-in user of a live session, or null (unknown, expired, or the user inactive). */
export async function sessionUser(q: Kdb, key: string): Promise<AuthUser | null> {
  const res = await sql<AuthUser>`select u.id, u.username, u.is_superuser, u.is_active, u.is_staff
    from users_session s join users_user u on u.id = s.user_id
    where s.key_hash = ${hashKey(key)} and s.expires > now() and u.is_active`.execute(q);
  const row = res.rows[0];
  return row ? { ...row, id: Number(row.id) } : null;
}

/**
 * Starts a session for the user and sets its cookie: HttpOnly (no page script can read it),
 * SameSite=Lax (not sent on another site's POST), Secure when the request came over HTTPS.
 * Sessions past their expiry are removed here, so the table does not grow without bound.
 */
export async function startSession(
  q: Kdb,
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  clientIp: string,
  timeoutSec: number,
): Promise<void> {
  const key = randomBytes(32).toString('base64url');
  await sql`delete from users_session where expires <= now()`.execute(q);
  await sql`insert into users_session (key_hash, user_id, expires, client_ip)
    values (${hashKey(key)}, ${userId}, now() + make_interval(secs => ${timeoutSec}), ${clientIp})`.execute(q);
  await sql`update users_user set last_login = now() where id = ${userId}`.execute(q);
  reply.header(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, key, {
      maxAge: timeoutSec,
      httpOnly: true,
      secure: isSecure(request),
      sameSite: 'Lax',
    }),
  );
}

/** Ends the request's session (its row deleted) and clears the cookie. */
export async function endSession(q: Kdb, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const key = sessionKeyOf(request);
  if (key) await sql`delete from users_session where key_hash = ${hashKey(key)}`.execute(q);
  reply.header(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, '', { maxAge: 0, httpOnly: true, secure: isSecure(request), sameSite: 'Lax' }),
  );
}
