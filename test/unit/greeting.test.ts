import { describe, expect, it } from 'vitest';
import { formatGreeting, type GreetingFacts } from '../../src/greeting.js';

const facts: GreetingFacts = {
  addresses: [{ address: '127.0.0.1', family: 'IPv4', port: 8000 }],
  engine: 'pglite',
  dataDir: '/srv/inventory/data',
  origin: 'snapshot',
  startSeconds: 1.234,
  admin: null,
};

describe('formatGreeting', () => {
  it('names the home page, the API, sign-in and the API docs under the listening address', () => {
    const text = formatGreeting(facts);
    for (const url of [
      'http://127.0.0.1:8000/\n',
      'http://127.0.0.1:8000/api/\n',
      'http://127.0.0.1:8000/login/\n',
      'http://127.0.0.1:8000/api/docs/\n',
    ]) {
      expect(text).toContain(url);
    }
    expect(text).toContain('started in 1.2 s');
  });

  it('names the engine and the data directory, and where a new one came from', () => {
    expect(formatGreeting(facts)).toContain(
      'PGlite (embedded PostgreSQL) in /srv/inventory/data (new, copied from the prepared snapshot)',
    );
    expect(formatGreeting({ ...facts, origin: 'existing' })).toContain('in /srv/inventory/data (existing)');
    const pg = formatGreeting({ ...facts, engine: 'postgres', origin: 'postgres' });
    expect(pg).toContain('PostgreSQL (DATABASE_URL)');
    expect(pg).not.toContain('/srv/inventory/data');
  });

  it('shows a generated password with its username, and no password line otherwise', () => {
    const text = formatGreeting({ ...facts, admin: { username: 'admin', password: 'Zx9-secret' } });
    expect(text).toContain('Sign in as "admin" with password Zx9-secret');
    expect(formatGreeting(facts)).not.toMatch(/password/i);
  });

  it('gives a loopback URL that works from here when it listens on every address', () => {
    const v4 = formatGreeting({ ...facts, addresses: [{ address: '0.0.0.0', family: 'IPv4', port: 9000 }] });
    expect(v4).toContain('http://127.0.0.1:9000/api/');
    expect(v4).toContain('every address');
    const v6 = formatGreeting({ ...facts, addresses: [{ address: '::', family: 'IPv6', port: 9000 }] });
    expect(v6).toContain('http://[::1]:9000/api/');
    const one6 = formatGreeting({ ...facts, addresses: [{ address: '::1', family: 'IPv6', port: 9000 }] });
    expect(one6).toContain('http://[::1]:9000/');
    expect(one6).not.toContain('every address');
  });

  it('is plain text, not a JSON log line', () => {
    const first = formatGreeting(facts).split('\n')[0]!;
    expect(() => JSON.parse(first)).toThrow();
  });
});
