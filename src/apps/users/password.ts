/**
 * Password hashing with scrypt, a memory-hard KDF from node:crypto (N=2^15, r=8, p=1: 32 MiB and
 * tens of milliseconds per hash). Stored as `scrypt$N$r$p$salt$hash`, base64.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const N = 1 << 15;
const R = 8;
const P = 1;
const KEYLEN = 32;
const MAXMEM = 128 * N * R * 2;

function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEYLEN, { N: n, r, p, maxmem: Math.max(MAXMEM, 128 * n * r * 2) }, (err, key) =>
      err ? reject(err) : resolve(key),
    ),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, R, P);
  return `scrypt$${N}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/**
 * A stored value no password matches (Django's make_password(None) is alike): a user copied from
 * another instance, whose API never shows a password, signs in once one is set for them.
 */
export function unusablePassword(): string {
  return `!${randomBytes(30).toString('base64url')}`;
}

async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [, n, r, p, salt, hash] = parts;
  const expected = Buffer.from(hash!, 'base64');
  const key = await derive(password, Buffer.from(salt!, 'base64'), Number(n), Number(r), Number(p));
  return key.length === expected.length && timingSafeEqual(key, expected);
}

let dummy: Promise<string> | null = null;

/**
 * Checks a password against a user's stored hash, or, for an unknown user (null), against a
 * throw-away hash: both cost one scrypt run, so the answer time does not tell which usernames exist.
 */
export async function checkPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  const valid = await verifyPassword(password, stored || (await dummy));
  return valid && !!stored;
}
