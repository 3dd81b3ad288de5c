/**
 * DATABASE_PGBOUNCER and DATABASE_DIRECT_URL (docs/postgresql.md, "PgBouncer"): read at start, a
 * mistake stops it with one line naming the setting. What the service does with them is tested
 * behind a real PgBouncer (test/pgbouncer/).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

const bouncer = 'postgres://inventory@127.0.0.1:6432/inventory';
const server = 'postgres://inventory@127.0.0.1:5432/inventory';

describe('DATABASE_PGBOUNCER and DATABASE_DIRECT_URL', () => {
  it('are off and unset by default', () => {
    const c = loadConfig({ DATABASE_URL: server });
    expect([c.databasePgbouncer, c.databaseDirectUrl]).toEqual([false, null]);
  });

  it('take PgBouncer with or without the server itself', () => {
    const both = loadConfig({ DATABASE_URL: bouncer, DATABASE_PGBOUNCER: 'true', DATABASE_DIRECT_URL: server });
    expect([both.databasePgbouncer, both.databaseDirectUrl]).toEqual([true, server]);
    const alone = loadConfig({ DATABASE_URL: bouncer, DATABASE_PGBOUNCER: 'on' });
    expect([alone.databasePgbouncer, alone.databaseDirectUrl]).toEqual([true, null]);
  });

  it('refuse what cannot work, in one line naming the setting', () => {
    expect(() => loadConfig({ DATABASE_PGBOUNCER: 'true' })).toThrow('DATABASE_PGBOUNCER needs DATABASE_URL');
    expect(() => loadConfig({ DATABASE_URL: server, DATABASE_DIRECT_URL: server })).toThrow(
      'DATABASE_DIRECT_URL is only used with DATABASE_PGBOUNCER=true',
    );
    const pgbouncer = { DATABASE_URL: bouncer, DATABASE_PGBOUNCER: 'true' };
    expect(() => loadConfig({ ...pgbouncer, DATABASE_DIRECT_URL: 'db1:5432' })).toThrow(
      'DATABASE_DIRECT_URL must be one postgres:// URL naming one host, got "db1:5432"',
    );
    expect(() => loadConfig({ ...pgbouncer, DATABASE_DIRECT_URL: 'postgres://u@db1:5432,db2:5432/inventory' })).toThrow(
      'DATABASE_DIRECT_URL must be one postgres:// URL',
    );
    expect(() => loadConfig({ ...pgbouncer, DATABASE_PGBOUNCER: 'maybe' })).toThrow(
      'DATABASE_PGBOUNCER must be a boolean',
    );
  });
});
