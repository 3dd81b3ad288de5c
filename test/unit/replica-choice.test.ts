/**
 * Where a read goes (src/db/replicas/choose-reader.ts): a replica that has replayed the reader's
 * last write, spread by turns; a short wait for a replica close behind; else the primary. Down,
 * unknown and far-behind replicas are skipped. Also the configuration it is fed (src/config.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { chooseReader, parseLsn, type ReplicaView } from '../../src/db/replicas/choose-reader.js';

const limits = { maxLagMs: 5_000, waitMs: 100 };
const at = (replayed: bigint | null, lagMs = 0, down = false): ReplicaView => ({ replayed, lagMs, down });

describe('chooseReader', () => {
  it('sends a reader with no known write to any replica, by turns', () => {
    const rs = [at(10n), at(20n)];
    expect(chooseReader(rs, null, limits, 0)).toEqual({ kind: 'replica', index: 0 });
    expect(chooseReader(rs, null, limits, 1)).toEqual({ kind: 'replica', index: 1 });
    expect(chooseReader(rs, null, limits, 2)).toEqual({ kind: 'replica', index: 0 });
  });

  it('sends a reader only to a replica that has replayed its write', () => {
    const rs = [at(10n), at(30n), at(20n)];
    for (let turn = 0; turn < 4; turn++) {
      const c = chooseReader(rs, 20n, limits, turn);
      expect(c.kind).toBe('replica');
      expect([1, 2]).toContain((c as { index: number }).index);
    }
    // replayed exactly up to the write's position is enough
    expect(chooseReader([at(20n)], 20n, limits, 0)).toEqual({ kind: 'replica', index: 0 });
  });

  it('lets a reader wait for the furthest replica that is only a little behind', () => {
    expect(chooseReader([at(10n, 20), at(15n, 30)], 20n, limits, 0)).toEqual({ kind: 'wait', index: 1 });
  });

  it('sends a reader to the primary when its write is on no replica and every replica lags more than the wait', () => {
    expect(chooseReader([at(10n, 2_000)], 20n, limits, 0)).toEqual({ kind: 'primary' });
  });

  it('skips a replica that is down, unknown, or lags more than the maximum, for every reader', () => {
    const rs = [at(50n, 0, true), at(null), at(50n, 6_000), at(40n, 4_000)];
    expect(chooseReader(rs, null, limits, 0)).toEqual({ kind: 'replica', index: 3 });
    expect(chooseReader(rs.slice(0, 3), null, limits, 0)).toEqual({ kind: 'primary' });
    expect(chooseReader([], null, limits, 0)).toEqual({ kind: 'primary' });
  });
});

describe('parseLsn', () => {
  it('reads a pg_lsn as bytes, high word first', () => {
    expect(parseLsn('0/16B3748')).toBe(0x16b3748n);
    expect(parseLsn('1/0')).toBe(1n << 32n);
    expect(parseLsn('16/B374D848') > parseLsn('15/FFFFFFFF')).toBe(true);
    expect(() => parseLsn('nope')).toThrow(/pg_lsn/);
  });
});

describe('DATABASE_REPLICA_URLS', () => {
  const primary = 'postgres://postgres@127.0.0.1:5432/inventory';
  it('reads a comma-separated list and the maximum lag', () => {
    const c = loadConfig({
      DATABASE_URL: primary,
      DATABASE_REPLICA_URLS: 'postgres://postgres@10.0.0.2/inventory, postgres://postgres@10.0.0.3/inventory',
      DATABASE_REPLICA_MAX_LAG_MS: '2500',
    });
    expect(c.databaseReplicaUrls).toEqual([
      'postgres://postgres@10.0.0.2/inventory',
      'postgres://postgres@10.0.0.3/inventory',
    ]);
    expect(c.databaseReplicaMaxLagMs).toBe(2500);
    expect(loadConfig({ DATABASE_URL: primary }).databaseReplicaUrls).toEqual([]);
    expect(loadConfig({}).databaseReplicaMaxLagMs).toBe(5000);
  });

  it('refuses replicas without a primary, an entry that is no URL, and a bad lag, with one line', () => {
    expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgres://h/db' })).toThrow(
      'DATABASE_REPLICA_URLS needs DATABASE_URL (the primary)',
    );
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_URLS: 'replica-host' })).toThrow(
      /each entry must be one postgres:\/\/ URL/,
    );
    expect(() => loadConfig({ DATABASE_URL: primary, DATABASE_REPLICA_MAX_LAG_MS: 'soon' })).toThrow(
      /DATABASE_REPLICA_MAX_LAG_MS must be a non-negative integer/,
    );
  });
});
