/**
 * Token authentication (spec: Authentication; reference 7.1). `Authorization: Token <key>`, the
 * keyword case-insensitive, for a v1 token; a v2 token (NetBox 4.5, #20210) as
 * `Bearer nbt_<key>.<secret>`, or under `Token` (NetBox takes either keyword: the `nbt_` prefix
 * says the version). Other schemes, and a Bearer value without the prefix, are anonymous, as in
 * NetBox 3.4. Checks run in NetBox's order: key exists (and, for v2, the secret's HMAC matches),
 * token enabled, last use recorded (at most once a minute, never in maintenance mode), expiry, user
 * active, client address within allowed_ips. Every failure is a 403 (NetBox never answers 401).
 */
import { isIP } from 'node:net';
import { sql } from 'kysely';
import type { FastifyRequest } from 'fastify';
import { cacheVersion } from '../core/cache/cache-version.js';
import { createVersionedCache, type VersionedCache } from '../core/cache/versioned-cache.js';
import type { AppContext, AuthToken, AuthUser } from '../core/context.js';
import { Errors } from '../core/errors.js';
import { maxLength, parseIp } from '../core/net/ip.js';
import { isDialect } from '../core/model/dialect.js';
import { parseV2Credential, secretMatches, TOKEN_PREFIX } from '../core/auth/token-secret.js';
import { isConnectionFault } from '../db/connection-faults.js';
import { lookupOnPrimaryOrReplica } from './read-routing.js';

export interface Authenticated {
  user: AuthUser | null;
  token: AuthToken | null;
}

const LAST_USED_INTERVAL_MS = 60_000;
/**
 * Token lookups are cached per process (bench/: one statement less per request), versioned like
 * every cache (core/cache/README.md): a token or user changed in this process is seen by the next
 * request after the commit; one changed by another process as soon as its notification arrives.
 * Expiry is checked against the clock on every request, cached or not.
 */
const TOKEN_CACHE_MAX = 10_000;
/** what a token lookup reads: only writes to these end its entries (db/table-generations.ts) */
const TOKEN_TABLES = ['users_token', 'users_user'];

export type TokenCache = VersionedCache<TokenRow>;

export function createTokenCache(): TokenCache {
  return createVersionedCache<TokenRow>({ max: TOKEN_CACHE_MAX });
}

/**
 * Answers of inNetworks per list of networks (the trusted proxies, a setting) and address: every
 * request asks it of its peer, the same few addresses over and over, and parsing both sides into
 * BigInts was ~1 % of a page's CPU (a profile of the standard data set's pages). Bounded: a scan
 * from many addresses refills it.
 */
const networkAnswers = new WeakMap<readonly string[], Map<string, boolean>>();
const MAX_NETWORK_ANSWERS = 1_000;

/** True when `ip` falls in one of the networks (`10.0.0.0/8`, `::1`). */
export function inNetworks(ip: string, networks: readonly string[]): boolean {
  let answers = networkAnswers.get(networks);
  if (!answers) networkAnswers.set(networks, (answers = new Map()));
  let answer = answers.get(ip);
  if (answer === undefined) {
    answer = computeInNetworks(ip, networks);
    if (answers.size >= MAX_NETWORK_ANSWERS) answers.clear();
    answers.set(ip, answer);
  }
  return answer;
}

function computeInNetworks(ip: string, networks: readonly string[]): boolean {
  const addr = parseIp(ip);
  if (!addr) return false;
  return networks.some((n) => {
    const net = parseIp(n);
    if (!net || net.family !== addr.family) return false;
    const shift = BigInt(maxLength(net.family) - net.prefixLength);
    return addr.value >> shift === net.value >> shift;
  });
}

/**
 * Client address: X-Real-IP, else the first X-Forwarded-For entry, else the socket's (NetBox's
 * order) - but the headers are believed only from a peer in TRUSTED_PROXIES (loopback by default),
 * so a client cannot claim an address inside a token's allowed_ips by sending a header.
 */
export function clientIpOf(request: FastifyRequest, trustedProxies: readonly string[]): string {
  const rawRemote = request.socket?.remoteAddress ?? '127.0.0.1';
  const remote = rawRemote.startsWith('::ffff:') ? rawRemote.slice(7) : rawRemote;
  if (!inNetworks(remote, trustedProxies)) return remote;
  const real = request.headers['x-real-ip'];
  if (typeof real === 'string' && isIP(real.trim())) return real.trim();
  const fwd = request.headers['x-forwarded-for'];
  const first = (Array.isArray(fwd) ? fwd[0] : fwd)?.split(',')[0]?.trim();
  if (first && isIP(first)) return first;
  return remote;
}

interface TokenRow {
  id: number;
  version: number;
  enabled: boolean;
  pepper_id: number | null;
  hmac_digest: string | null;
  api_dialect: string;
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

export async function authenticate(
  app: AppContext,
  request: FastifyRequest,
  clientIp: string,
  cache: TokenCache,
): Promise<Authenticated> {
  const header = request.headers.authorization;
  if (!header) return { user: null, token: null };
  const parts = header.trim().split(/\s+/);
  const keyword = parts[0]!.toLowerCase();
  const v2 = parts[1]?.startsWith(TOKEN_PREFIX) === true;
  if (keyword !== 'token' && !(keyword === 'bearer' && v2)) return { user: null, token: null };
  if (parts.length === 1) throw Errors.invalidTokenHeader('No credentials provided.');
  if (parts.length > 2) throw Errors.invalidTokenHeader('Token string should not contain spaces.');
  const credential = v2 ? parseV2Credential(parts[1]!) : { key: parts[1]!, secret: '' };
  if (!credential) throw Errors.unparsableV2Token();
  const { key, secret } = credential;
  const invalid = v2 ? Errors.invalidV2Token : Errors.invalidToken;
  if (!/^[0-9a-zA-Z]{1,64}$/.test(key) || (v2 && !/^[0-9a-zA-Z]{1,256}$/.test(secret))) throw invalid();
  const now = Date.now();
  // the version is taken before the lookup (core/cache/versioned-cache.ts)
  const version = cacheVersion({ app, q: app.db.kysely, dataVersion: null }, TOKEN_TABLES);
  const lookup = async () => {
    // a v1 key is found only among v1 tokens: a v2 token's public key is no credential by itself
    const res = await lookupOnPrimaryOrReplica(app, (q) =>
      sql<TokenRow>`select t.id, t.version, t.enabled, t.pepper_id, t.hmac_digest, t.api_dialect,
        t.expires, t.last_used, t.write_enabled,
        (cardinality(t.allowed_ips) = 0 or ${clientIp}::inet <<= any(t.allowed_ips::inet[])) as ip_ok,
        u.id as user_id, u.username, u.is_superuser, u.is_active, u.is_staff
      from users_token t join users_user u on u.id = t.user_id
      where t.key = ${key} and t.version = ${v2 ? 2 : 1}`.execute(q),
    );
    const found = res.rows[0];
    if (!found) throw invalid();
    return found;
  };
  // the cache holds what the lookup read, never the secret: a v2 secret is checked on every request
  const row = await cache.through(`${v2 ? TOKEN_PREFIX : ''}${key} ${clientIp}`, version, lookup);
  if (v2 && !secretMatches(app.config.apiTokenPeppers, row.pepper_id, row.hmac_digest, secret)) throw invalid();
  if (!row.enabled) throw Errors.tokenDisabled();
  // spec: Authentication 11 - last use recorded at most once per 60 s, never in maintenance mode
  if (!app.config.maintenanceMode && (!row.last_used || now - Date.parse(row.last_used) > LAST_USED_INTERVAL_MS)) {
    try {
      await sql`update users_token set last_used = now() where id = ${row.id}`.execute(app.db.kysely);
      row.last_used = new Date(now).toISOString();
    } catch (e) {
      // the primary is away and a replica answered the lookup: a read goes on, its use unrecorded
      if (!(app.db.replicas && isConnectionFault(e))) throw e;
    }
  }
  if (row.expires && Date.parse(row.expires) <= now) throw Errors.tokenExpired();
  if (!row.is_active) throw Errors.userInactive();
  if (!row.ip_ok) throw Errors.sourceIpRefused(clientIp);
  return {
    user: {
      id: Number(row.user_id),
      username: row.username,
      is_superuser: row.is_superuser,
      is_active: row.is_active,
      is_staff: row.is_staff,
    },
    token: {
      id: Number(row.id),
      write_enabled: row.write_enabled,
      api_dialect: isDialect(row.api_dialect) ? row.api_dialect : null,
    },
  };
}
