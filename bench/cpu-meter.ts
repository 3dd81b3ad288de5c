/**
 * CPU time spent per request: the server's processes (the one started and those under it, all
 * their threads, GC included; on PGlite the database runs inside it) and, on PostgreSQL, the
 * backends serving the bench database. Read from /proc before and after a scenario. Unlike req/s, these figures barely move when other work
 * shares the machine, so runs on a busy machine can still be compared, and they show which side
 * (Node or PostgreSQL) a scenario's cost sits on. Linux only; elsewhere the figures are absent.
 */
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';

const TICK_MS = 10; // USER_HZ is 100 on Linux

/** `withReaped`: also the CPU of its children that have ended and been waited for (cutime, cstime) */
export function processCpuMs(pid: number, withReaped = false): number | null {
  try {
    // fields after the command name: state is [0], utime [11], stime [12], cutime [13], cstime [14]
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    const own = Number(f[11]) + Number(f[12]);
    return (withReaped ? own + Number(f[13]) + Number(f[14]) : own) * TICK_MS;
  } catch {
    return null;
  }
}

/** the live descendants of `pid` (Linux: /proc/<pid>/task/<tid>/children) */
function descendants(pid: number): number[] {
  const out: number[] = [];
  const visit = (p: number) => {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${p}/task`);
    } catch {
      return;
    }
    for (const t of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${p}/task/${t}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const c of children.trim().split(/\s+/).filter(Boolean)) {
        out.push(Number(c));
        visit(Number(c));
      }
    }
  };
  visit(pid);
  return out;
}

/**
 * The server's CPU: the process started and every process under it - with `serve --workers N` the
 * cluster primary (which accepts the connections and hands them out) and its workers; otherwise
 * the template sandboxes. A child that ended during the run counts through its parent's cutime.
 */
function serverCpuMs(pid: number): number | null {
  const top = processCpuMs(pid, true);
  if (top === null) return null;
  return descendants(pid).reduce((sum, p) => sum + (processCpuMs(p, true) ?? 0), top);
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
      const res = await c.query<{ pid: number }>(
        'select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [database],
      );
      for (const { pid } of res.rows) {
        const ms = processCpuMs(pid);
        if (ms !== null) backends.set(pid, ms);
      }
    } finally {
      await c.end();
    }
  }
  return { server: serverCpuMs(serverPid), backends };
}

export function cpuPerRequest(
  before: CpuSnapshot,
  after: CpuSnapshot,
  requests: number,
  database: string | null,
): CpuPerRequest {
  const n = Math.max(1, requests);
  let pgMs = 0;
  // a backend that appeared during the run counts whole; one that ended is lost (rare under load)
  for (const [pid, ms] of after.backends) pgMs += ms - (before.backends.get(pid) ?? 0);
  return {
    serverMs: before.server !== null && after.server !== null ? (after.server - before.server) / n : null,
    postgresMs: database ? pgMs / n : null,
  };
}

export interface ProcessPeak {
  pid: number;
  /** what the process is: the command line's last words */
  what: string;
  /** peak resident memory since it started (VmHWM), MB */
  peakMb: number;
}

/**
 * Peak resident memory of the server and every process under it (cluster workers, template
 * sandboxes), read at the end of a run: the kernel's high-water mark covers the seeding and every
 * scenario (the target: each API process under 200 MB, docs/performance.md).
 */
export function peakMemory(serverPid: number): ProcessPeak[] {
  const out: ProcessPeak[] = [];
  for (const pid of [serverPid, ...descendants(serverPid)]) {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
      if (hwm) out.push({ pid, what: cmd.slice(-2).join(' ').slice(-60), peakMb: Math.round(Number(hwm[1]) / 1024) });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}
