/**
 * A multi-host DATABASE_URL in libpq's form (db/failover/hosts.ts) and the choice of a host by
 * target_session_attrs (db/failover/probe.ts).
 */
import { describe, expect, it } from 'vitest';
import { parseHostList } from '../../src/db/failover/hosts.js';
import { chooseHost } from '../../src/db/failover/probe.js';

describe('parseHostList', () => {
  it('leaves a plain single-host URL to pg untouched', () => {
    expect(parseHostList('postgres://u:pw@db:5432/inventory')).toBeNull();
    expect(parseHostList('postgres:///inventory?host=/var/run/postgresql')).toBeNull();
    expect(parseHostList('postgres://db/inventory?target_session_attrs=any')).toBeNull();
  });

  it('gives each host of the authority a URL of its own, with the user, database and options', () => {
    const list = parseHostList(
      'postgres://u:p%40ss@h1:5432,h2:5433,[::1]/inventory?target_session_attrs=read-write&sslmode=disable',
    );
    expect(list).toEqual({
      urls: [
        'postgres://u:p%40ss@h1:5432/inventory?sslmode=disable',
        'postgres://u:p%40ss@h2:5433/inventory?sslmode=disable',
        'postgres://u:p%40ss@[::1]:5432/inventory?sslmode=disable',
      ],
      names: ['h1:5432', 'h2:5433', '[::1]:5432'],
      target: 'read-write',
      connectTimeoutMs: 5_000,
    });
  });

  it('reads host and port lists from the query, and connect_timeout', () => {
    const list = parseHostList('postgresql://u@/inv?host=a,b&port=6000,6001&connect_timeout=2');
    expect(list?.urls).toEqual(['postgresql://u@a:6000/inv', 'postgresql://u@b:6001/inv']);
    expect(list?.target).toBe('any');
    expect(list?.connectTimeoutMs).toBe(2_000);
  });

  it('checks one host too when a target is asked for', () => {
    expect(parseHostList('postgres://db:5433/inv?target_session_attrs=primary')?.urls).toEqual([
      'postgres://db:5433/inv',
    ]);
  });

  it('refuses what it cannot read with a one-line error', () => {
    expect(() => parseHostList('postgres://a,b/inv?target_session_attrs=master')).toThrow(
      'target_session_attrs must be one of any, read-write, read-only, primary, standby, prefer-standby, got "master"',
    );
    expect(() => parseHostList('postgres://u@/inv?host=a,b,c&port=1,2')).toThrow('3 hosts but 2 ports');
    expect(() => parseHostList('postgres://a:x,b/inv')).toThrow('cannot read the host "a:x"');
    expect(() => parseHostList('postgres://a,b/inv?connect_timeout=soon')).toThrow('connect_timeout');
  });
});

describe('chooseHost', () => {
  const down = new Error('connect ECONNREFUSED');
  const primary = { standby: false, readOnly: false };
  const standby = { standby: true, readOnly: true };

  it('takes the first host that fits, in the order written', () => {
    expect(chooseHost('read-write', [down, standby, primary])).toBe(2);
    expect(chooseHost('primary', [primary, primary])).toBe(0);
    expect(chooseHost('standby', [primary, standby])).toBe(1);
    expect(chooseHost('read-only', [primary, standby])).toBe(1);
    expect(chooseHost('any', [down, standby, primary])).toBe(1);
  });

  it('finds none while the primary is down and the standby not yet promoted', () => {
    expect(chooseHost('read-write', [down, standby])).toBe(-1);
    expect(chooseHost('any', [down, down])).toBe(-1);
  });

  it('prefers a standby, else any host that answers', () => {
    expect(chooseHost('prefer-standby', [primary, standby])).toBe(1);
    expect(chooseHost('prefer-standby', [down, primary])).toBe(1);
  });
});
