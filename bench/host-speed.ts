/**
 * The host's speed on the day, as the CPU milliseconds a fixed amount of work takes: this machine
 * class is shared, and the same code has measured 3.5x slower on one day than on another (both
 * Node's and PostgreSQL's CPU per request). A report carries these figures
 * beside its own, so two reports are compared on how fast their hosts were. Lower is faster. The
 * round trip matters most: on that slow day the tight loops ran at their usual speed.
 */
import pg from 'pg';
import { processCpuMs } from './cpu-meter.js';

export interface HostSpeed {
  /** CPU ms of 300,000 JSON.stringify calls of a small object (an API row's kind of work) */
  jsMs: number;
  /** CPU ms of a PostgreSQL backend summing 3,000,000 generated rows; null when not measured */
  pgMs: number | null;
  /**
   * one round trip of a prepared `select 1` on loopback: wall us, and the CPU us of this process
   * and of the backend. Every request of the service makes several; on a slow day they were what
   * had slowed down (a tight JS loop as fast as on a fast day, a round trip 280-470 us of wall)
   */
  roundTrip: { wallUs: number; clientUs: number; backendUs: number } | null;
}

const ROW = {
  id: 1,
  name: 'Site 001',
  slug: 'site-1',
  status: { value: 'active', label: 'Active' },
  tenant: null,
  tags: [],
  created: '2026-11-27T19:24:58.665716Z',
};

function jsWork(): number {
  const t0 = process.cpuUsage();
  let n = 0;
  for (let i = 0; i < 300_000; i++) n += JSON.stringify(ROW).length;
  const t = process.cpuUsage(t0);
  if (n === 0) throw new Error('unreachable: keeps the loop from being optimised away');
  return (t.user + t.system) / 1000;
}

/** the backend's CPU ms; throws without /proc, which pgWork answers as "not measured" */
function backendCpuMs(pid: number): number {
  const ms = processCpuMs(pid);
  if (ms === null) throw new Error(`no /proc/${pid}/stat`);
  return ms;
}

const ROUND_TRIPS = 2_000;

async function pgWork(pgUrl: string): Promise<Pick<HostSpeed, 'pgMs' | 'roundTrip'>> {
  const c = new pg.Client({ connectionString: pgUrl });
  try {
    await c.connect();
    const pid = (await c.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    let pgMs = Infinity;
    for (let i = 0; i < 3; i++) {
      const before = backendCpuMs(pid);
      await c.query('select sum(g) from generate_series(1, 3000000) g');
      pgMs = Math.min(pgMs, backendCpuMs(pid) - before);
    }
    let roundTrip: HostSpeed['roundTrip'] = null;
    for (let i = 0; i < 3; i++) {
      const backend0 = backendCpuMs(pid);
      const client0 = process.cpuUsage();
      const t0 = performance.now();
      for (let j = 0; j < ROUND_TRIPS; j++) await c.query({ text: 'select 1', name: 'host_speed_round_trip' });
      const wallUs = ((performance.now() - t0) * 1000) / ROUND_TRIPS;
      const client = process.cpuUsage(client0);
      const run = {
        wallUs: Math.round(wallUs),
        clientUs: Math.round((client.user + client.system) / ROUND_TRIPS),
        backendUs: Math.round(((backendCpuMs(pid) - backend0) * 1000) / ROUND_TRIPS),
      };
      if (!roundTrip || run.wallUs < roundTrip.wallUs) roundTrip = run;
    }
    return { pgMs, roundTrip };
  } catch {
    return { pgMs: null, roundTrip: null }; // no server, or no /proc: the report says "not measured"
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** the best of three runs of each (the first also warms V8 and the backend) */
export async function hostSpeed(pgUrl: string | null): Promise<HostSpeed> {
  const js = Math.min(jsWork(), jsWork(), jsWork());
  return { jsMs: Math.round(js), ...(pgUrl ? await pgWork(pgUrl) : { pgMs: null, roundTrip: null }) };
}

export function describeSpeed(s: HostSpeed): string {
  const rt = s.roundTrip
    ? `, a round trip ${s.roundTrip.wallUs} us (CPU: client ${s.roundTrip.clientUs} + backend ${s.roundTrip.backendUs} us)`
    : '';
  return `host speed: JS ${s.jsMs} ms, PostgreSQL ${s.pgMs ?? 'not measured'}${s.pgMs === null ? '' : ' ms'}${rt} (fixed work in CPU, bench/host-speed.ts; lower is faster)`;
}
