/**
 * NetBox 4.5's v2 API tokens (#20210): a public 12-character key that names the token and a
 * 40-character secret that is never stored, only its HMAC-SHA256 under a server-side pepper
 * (API_TOKEN_PEPPERS: id -> pepper). A client sends both as `nbt_<key>.<secret>`. The newest
 * pepper (highest id) hashes new tokens; older ones still check the tokens they hashed, so a
 * pepper can be rotated in without invalidating every token at once.
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';

/** what a v2 token's credential starts with (NetBox's TOKEN_PREFIX), so secret scanners can find it */
export const TOKEN_PREFIX = 'nbt_';
/** NetBox's TOKEN_KEY_LENGTH and TOKEN_DEFAULT_LENGTH */
export const TOKEN_KEY_LENGTH = 12;
export const TOKEN_SECRET_LENGTH = 40;

const CHARSET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** Random letters and digits, each drawn uniformly (randomInt rejects the biased draws). */
export function randomToken(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += CHARSET[randomInt(CHARSET.length)];
  return out;
}

export type Peppers = ReadonlyMap<number, string>;

/** The pepper new tokens are hashed with: the highest id, or null when none is configured. */
export function currentPepper(peppers: Peppers): { id: number; pepper: string } | null {
  let id: number | null = null;
  for (const k of peppers.keys()) if (id === null || k > id) id = k;
  return id === null ? null : { id, pepper: peppers.get(id)! };
}

/** NetBox's digest: HMAC-SHA256 of the secret, keyed by the pepper, in hex. */
export function tokenDigest(pepper: string, secret: string): string {
  return createHmac('sha256', pepper).update(secret, 'utf8').digest('hex');
}

/**
 * Whether `secret` is the token's: its digest under the token's own pepper equals the stored one,
 * compared in constant time. A pepper since removed from the configuration checks nothing.
 */
export function secretMatches(
  peppers: Peppers,
  pepperId: number | null,
  digest: string | null,
  secret: string,
): boolean {
  const pepper = pepperId === null ? undefined : peppers.get(pepperId);
  if (pepper === undefined || !digest) return false;
  const given = Buffer.from(tokenDigest(pepper, secret), 'hex');
  const stored = Buffer.from(digest, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** `nbt_<key>.<secret>` split into its parts; null when the value has no `.` after the prefix. */
export function parseV2Credential(value: string): { key: string; secret: string } | null {
  const body = value.slice(TOKEN_PREFIX.length);
  const dot = body.indexOf('.');
  if (dot < 0) return null;
  return { key: body.slice(0, dot), secret: body.slice(dot + 1) };
}

/**
 * API_TOKEN_PEPPERS as NetBox validates it (utilities/security.py): an object of integer ids
 * (0-32767) to strings of at least 50 characters. Throws a message naming the setting.
 */
export function parsePeppers(raw: string | undefined): Peppers {
  if (raw === undefined || raw === '') return new Map();
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('API_TOKEN_PEPPERS must be a JSON object of pepper ids to peppers');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('API_TOKEN_PEPPERS must be a JSON object of pepper ids to peppers');
  const out = new Map<number, string>();
  for (const [k, v] of Object.entries(parsed)) {
    const id = /^\d{1,5}$/.test(k) ? Number(k) : Number.NaN;
    if (!(id >= 0 && id <= 32767))
      throw new Error(`Invalid API_TOKEN_PEPPERS key: ${k}. Keys must be integers between 0 and 32767.`);
    if (typeof v !== 'string') throw new Error(`Invalid pepper ${k}: a pepper must be a string.`);
    if (v.length < 50) throw new Error(`Invalid pepper ${k}: a pepper must be at least 50 characters long.`);
    out.set(id, v);
  }
  return out;
}
