/**
 * The host's speed on the day, as the CPU milliseconds a fixed amount of work takes: this machine
 * class is shared, and the same code measured 3.5x slower on one day than on another (issue 15,
 * twelfth session: both Node's and PostgreSQL's CPU per request). A report carries these figures
 * beside its own, so two reports are compared on how fast their hosts were. Lower is faster.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

export interface HostSpeed {
  /** CPU ms of 300,000 JSON.stringify calls of a small object (an API row's kind of work) */
  jsMs: number;
  /** CPU ms of a PostgreSQL backend summing 3,000,000 generated rows; null when not measured */
  pgMs: number | null;
}

const ROW = { id: 1, name: 'Site 001', slug: 'site-1', status: { value: 'active', label: 'Active' }, tenant: null, tags: [], created: '2026-11-27T19:24:58.665716Z' };

function jsWork(): number {
  const t0 = process.cpuUsage();
  let n = 0;
  for (let i = 0; i < 300_000; i++) n += JSON.stringify(ROW).length;
  const t = process.cpuUsage(t0);
  if (n === 0) throw new Error('unreachable: keeps the loop from being optimised away');
  return (t.user + t.system) / 1000;
}

/** utime + stime of a process in ms (Linux /proc; USER_HZ 100) */
function processCpuMs(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function pgWork(pgUrl: string): Promise<number | null> {
  const c = new pg.Client({ connectionString: pgUrl });
  try {
    await c.connect();
    const pid = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    let best = Infinity;
    for (let i = 0; i < 3; i++) {
      const before = processCpuMs(pid);
      await c.query('select sum(g) from generate_series(1, 3000000) g');
      best = Math.min(best, processCpuMs(pid) - before);
    }
    return best;
  } catch {
    return null; // no server, or no /proc: the report says "not measured"
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** the best of three runs of each (the first also warms V8 and the backend) */
export async function hostSpeed(pgUrl: string | null): Promise<HostSpeed> {
  const js = Math.min(jsWork(), jsWork(), jsWork());
  return { jsMs: Math.round(js), pgMs: pgUrl ? await pgWork(pgUrl) : null };
}

export function describeSpeed(s: HostSpeed): string {
  return `host speed: JS ${s.jsMs} ms, PostgreSQL ${s.pgMs ?? 'not measured'}${s.pgMs === null ? '' : ' ms'} (fixed work in CPU ms, bench/host-speed.ts; lower is faster)`;
}
