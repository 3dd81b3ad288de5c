/**
 * The cluster harness itself (pg-cluster.ts): a standby streams the primary's commits (at once when
 * synchronous, late when delayed), a promoted standby takes writes, and destroy() leaves no server
 * and no directory behind.
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type Cluster, query, startCluster } from './pg-cluster.js';

const clusters: Cluster[] = [];
afterAll(async () => {
  for (const c of clusters) await c.destroy();
});

async function start(opts: Parameters<typeof startCluster>[0]): Promise<Cluster> {
  const c = await startCluster(opts);
  clusters.push(c);
  return c;
}

describe('startCluster', () => {
  it('a synchronous standby has every commit once the primary acknowledged it', async () => {
    const { primary, standby } = await start({ synchronous: true });
    await query(primary, `create table t (v int); insert into t values (1)`);
    expect(await query<{ sync_state: string }>(primary, 'select sync_state from pg_stat_replication')).toEqual([
      { sync_state: 'sync' },
    ]);
    // remote_flush, not remote_apply: the row is on the standby's disk, visible once replayed
    const until = Date.now() + 5_000;
    let rows: unknown[] = [];
    while (rows.length === 0 && Date.now() < until) rows = await query(standby, 'select v from t').catch(() => []);
    expect(rows).toEqual([{ v: 1 }]);
    expect(await query(standby, 'select pg_is_in_recovery() as r')).toEqual([{ r: true }]);
  });

  it('a delayed standby applies commits only after the delay', async () => {
    const { primary, standby } = await start({ applyDelay: '2s' });
    await query(primary, `create table t (v int)`);
    const written = Date.now();
    await query(primary, 'insert into t values (1)');
    await new Promise((r) => setTimeout(r, 500));
    // the table itself may not be there yet either: both are past the delay
    const early = await query(standby, 'select v from t').catch(() => []);
    expect(early).toEqual([]);
    let rows: unknown[] = [];
    while (rows.length === 0 && Date.now() - written < 10_000) {
      await new Promise((r) => setTimeout(r, 200));
      rows = await query(standby, 'select v from t').catch(() => []);
    }
    expect(rows).toEqual([{ v: 1 }]);
    expect(Date.now() - written).toBeGreaterThanOrEqual(2_000);
  });

  it('kills the primary, promotes the standby, and destroy() removes servers and directories', async () => {
    const c = await startCluster({});
    await c.primary.kill();
    await expect(query(c.primary, 'select 1')).rejects.toThrow(/ECONNREFUSED/);
    await c.standby.promote();
    await query(c.standby, 'create table after_promotion (v int)');
    expect(await query(c.standby, 'select pg_is_in_recovery() as r')).toEqual([{ r: false }]);
    await c.destroy();
    expect(existsSync(c.primary.dir) || existsSync(c.standby.dir)).toBe(false);
    await expect(query(c.standby, 'select 1')).rejects.toThrow(/ECONNREFUSED/);
  });
});
