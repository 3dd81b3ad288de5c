/** v2 token secrets (core/auth/token-secret.ts): peppers as NetBox validates them, digests, credentials. */
import { describe, expect, it } from 'vitest';
import {
  currentPepper,
  parsePeppers,
  parseV2Credential,
  randomToken,
  secretMatches,
  tokenDigest,
} from '../../src/core/auth/token-secret.js';

const PEPPER = 'p'.repeat(50);

describe('parsePeppers', () => {
  it('reads ids to peppers; unset is none', () => {
    expect(parsePeppers(undefined).size).toBe(0);
    expect([...parsePeppers(JSON.stringify({ 1: PEPPER, 7: `${PEPPER}x` }))]).toEqual([
      [1, PEPPER],
      [7, `${PEPPER}x`],
    ]);
  });

  it('refuses what NetBox refuses: not an object, a bad id, a short or non-string pepper', () => {
    expect(() => parsePeppers('[1]')).toThrow(/JSON object/);
    expect(() => parsePeppers('nope')).toThrow(/JSON object/);
    expect(() => parsePeppers(JSON.stringify({ a: PEPPER }))).toThrow(/Invalid API_TOKEN_PEPPERS key: a/);
    expect(() => parsePeppers(JSON.stringify({ 32768: PEPPER }))).toThrow(/between 0 and 32767/);
    expect(() => parsePeppers(JSON.stringify({ 1: 'short' }))).toThrow(/at least 50 characters/);
    expect(() => parsePeppers(JSON.stringify({ 1: 5 }))).toThrow(/must be a string/);
  });
});

describe('digests', () => {
  it('hashes with the newest pepper and checks with the token’s own', () => {
    const peppers = parsePeppers(JSON.stringify({ 1: PEPPER, 2: `${PEPPER}2` }));
    expect(currentPepper(peppers)).toEqual({ id: 2, pepper: `${PEPPER}2` });
    expect(currentPepper(new Map())).toBeNull();
    const secret = randomToken(40);
    expect(secret).toMatch(/^[0-9a-zA-Z]{40}$/);
    const digest = tokenDigest(PEPPER, secret);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(secretMatches(peppers, 1, digest, secret)).toBe(true);
    expect(secretMatches(peppers, 2, digest, secret)).toBe(false);
    expect(secretMatches(peppers, 1, digest, `${secret.slice(0, -1)}!`)).toBe(false);
    // a pepper no longer configured checks nothing
    expect(secretMatches(peppers, 3, digest, secret)).toBe(false);
    expect(secretMatches(peppers, 1, null, secret)).toBe(false);
  });
});

describe('parseV2Credential', () => {
  it('splits nbt_<key>.<secret> at the first dot', () => {
    expect(parseV2Credential('nbt_abc.def.ghi')).toEqual({ key: 'abc', secret: 'def.ghi' });
    expect(parseV2Credential('nbt_abc')).toBeNull();
  });
});
