/**
 * What one host of the list is now, asked on a connection of its own: the check libpq makes for
 * target_session_attrs (PostgreSQL docs, libpq "Parameter Key Words": read-write asks
 * `transaction_read_only`, primary and standby ask `pg_is_in_recovery()`), both in one statement.
 */
import pg from 'pg';
import type { HostList, TargetSessionAttrs } from './hosts.js';

export interface HostState {
  /** in recovery: a standby (hot standby, or not yet promoted) */
  standby: boolean;
  /** sessions start read-only (a standby, or default_transaction_read_only = on) */
  readOnly: boolean;
}

const ASK = `select pg_is_in_recovery() as standby, current_setting('transaction_read_only') = 'on' as read_only`;

/** the host's state, or the reason it could not be asked (refused, timed out, starting up) */
async function probeHost(url: string, timeoutMs: number): Promise<HostState | Error> {
  const client = new pg.Client({
    connectionString: url,
    connectionTimeoutMillis: timeoutMs,
    // a host that accepts the connection and then never answers is given up too
    query_timeout: timeoutMs,
    application_name: 'inventory-failover-probe',
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ standby: boolean; read_only: boolean }>(ASK);
    return { standby: rows[0]!.standby, readOnly: rows[0]!.read_only };
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  } finally {
    void client.end().catch(() => undefined);
  }
}

function fits(target: TargetSessionAttrs, s: HostState): boolean {
  switch (target) {
    case 'read-write':
      return !s.readOnly;
    case 'read-only':
      return s.readOnly;
    case 'primary':
      return !s.standby;
    case 'standby':
      return s.standby;
    default:
      return true;
  }
}

/** The index of the host to use: the first in order that fits (prefer-standby: a standby, else any). */
export function chooseHost(target: TargetSessionAttrs, states: Array<HostState | Error>): number {
  const reachable = (s: HostState | Error): s is HostState => !(s instanceof Error);
  if (target === 'prefer-standby') {
    const standby = states.findIndex((s) => reachable(s) && s.standby);
    return standby >= 0 ? standby : states.findIndex(reachable);
  }
  return states.findIndex((s) => reachable(s) && fits(target, s));
}

/** Asks every host at once (a dead one costs one timeout, not one each) and picks one; -1: none fits. */
export async function findHost(list: HostList): Promise<{ index: number; states: Array<HostState | Error> }> {
  const states = await Promise.all(list.urls.map((url) => probeHost(url, list.connectTimeoutMs)));
  return { index: chooseHost(list.target, states), states };
}

/** why no host fits, one line: `h1:5432 refused (connect ECONNREFUSED ...), h2:5433 is a standby` */
export function describeStates(list: HostList, states: Array<HostState | Error>): string {
  return states
    .map((s, i) => {
      const name = list.names[i];
      if (s instanceof Error) return `${name}: ${s.message}`;
      return `${name}: ${s.standby ? 'a standby' : s.readOnly ? 'a read-only primary' : 'a read-write primary'}`;
    })
    .join('; ');
}
