/**
 * Token authentication (spec: Authentication; reference 7.1). `Authorization: Token <key>`, the
 * keyword case-insensitive; other schemes are anonymous. Checks run in NetBox's order: key
 * exists, last use recorded (at most once a minute, never in maintenance mode), expiry, user
 * active, client address within allowed_ips. Every failure is a 403 (NetBox never answers 401).
 */
import { isIP } from 'node:net';
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { AppContext, AuthToken, AuthUser } from '../core/context.js';
import { Errors } from '../core/errors.js';

export interface Authenticated {
  user: AuthUser | null;
  token: AuthToken | null;
}

const LAST_USED_INTERVAL_MS = 60_000;

/** Client address: X-Real-IP, else the first X-Forwarded-For entry, else the socket's. */
export function clientIpOf(request: FastifyRequest): string {
  const real = request.headers['x-real-ip'];
  if (typeof real === 'string' && isIP(real.trim())) return real.trim();
  const fwd = request.headers['x-forwarded-for'];
  const first = (Array.isArray(fwd) ? fwd[0] : fwd)?.split(',')[0]?.trim();
  if (first && isIP(first)) return first;
  const remote = request.socket?.remoteAddress ?? '127.0.0.1';
  return remote.startsWith('::ffff:') ? remote.slice(7) : remote;
}

interface TokenRow {
  id: number;
  expires: string | null;
  last_used: string | null;
  write_enabled: boolean;
  ip_ok: boolean;
  user_id: number;
  username: string;
  is_superuser: boolean;
  is_active: boolean;
  is_staff: boolean;
}

export async function authenticate(app: AppContext, request: FastifyRequest, clientIp: string): Promise<Authenticated> {
  const header = request.headers.authorization;
  if (!header) return { user: null, token: null };
  const parts = header.trim().split(/\s+/);
  if (parts[0]!.toLowerCase() !== 'token') return { user: null, token: null };
  if (parts.length === 1) throw Errors.invalidTokenHeader('No credentials provided.');
  if (parts.length > 2) throw Errors.invalidTokenHeader('Token string should not contain spaces.');
  const key = parts[1]!;
  if (!/^[0-9a-zA-Z]{1,64}$/.test(key)) throw Errors.invalidToken();
  const res = await sql<TokenRow>`select t.id, t.expires, t.last_used, t.write_enabled,
      (cardinality(t.allowed_ips) = 0 or ${clientIp}::inet <<= any(t.allowed_ips::inet[])) as ip_ok,
      u.id as user_id, u.username, u.is_superuser, u.is_active, u.is_staff
    from users_token t join users_user u on u.id = t.user_id where t.key = ${key}`.execute(app.db.kysely);
  const row = res.rows[0];
  if (!row) throw Errors.invalidToken();
  const now = Date.now();
  // spec: Authentication 11 - last use recorded at most once per 60 s, never in maintenance mode
  if (!app.config.maintenanceMode && (!row.last_used || now - Date.parse(row.last_used) > LAST_USED_INTERVAL_MS)) {
    await sql`update users_token set last_used = now() where id = ${row.id}`.execute(app.db.kysely);
  }
  if (row.expires && Date.parse(row.expires) <= now) throw Errors.tokenExpired();
  if (!row.is_active) throw Errors.userInactive();
  if (!row.ip_ok) throw Errors.sourceIpRefused(clientIp);
  return {
    user: { id: Number(row.user_id), username: row.username, is_superuser: row.is_superuser, is_active: row.is_active, is_staff: row.is_staff },
    token: { id: Number(row.id), write_enabled: row.write_enabled },
  };
}
