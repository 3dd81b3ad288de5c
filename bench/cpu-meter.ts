/**
 * CPU time spent per request: the server process (all its threads, GC included; on PGlite the
 * database runs inside it) and, on PostgreSQL, the backends serving the bench database. Read from
 * /proc before and after a scenario. Unlike req/s, these figures barely move when other work
 * shares the machine, so runs on a busy machine can still be compared, and they show which side
 * (Node or PostgreSQL) a scenario's cost sits on. Linux only; elsewhere the figures are absent.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

const TICK_MS = 10; // USER_HZ is 100 on Linux

function processCpuMs(pid: number): number | null {
  try {
    // fields after the command name: state is [0], utime [11], stime [12]
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) * TICK_MS;
  } catch {
    return null;
  }
}

export interface CpuSnapshot {
  server: number | null;
  /** backend pid -> CPU ms */
  backends: Map<number, number>;
}

export interface CpuPerRequest {
  serverMs: number | null;
  postgresMs: number | null;
  /** the benchmark process, where autocannon runs (it shares the cores with the server) */
  loadGeneratorMs?: number;
}

/** `database`: the PostgreSQL database the server uses (null on PGlite) */
export async function cpuSnapshot(serverPid: number, adminUrl: string, database: string | null): Promise<CpuSnapshot> {
  const backends = new Map<number, number>();
  if (database) {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      const res = await c.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]);
      for (const { pid } of res.rows) {
        const ms = processCpuMs(pid);
        if (ms !== null) backends.set(pid, ms);
      }
    } finally {
      await c.end();
    }
  }
  return { server: processCpuMs(serverPid), backends };
}

export function cpuPerRequest(before: CpuSnapshot, after: CpuSnapshot, requests: number, database: string | null): CpuPerRequest {
  const n = Math.max(1, requests);
  let pgMs = 0;
  // a backend that appeared during the run counts whole; one that ended is lost (rare under load)
  for (const [pid, ms] of after.backends) pgMs += ms - (before.backends.get(pid) ?? 0);
  return {
    serverMs: before.server !== null && after.server !== null ? (after.server - before.server) / n : null,
    postgresMs: database ? pgMs / n : null,
  };
}
