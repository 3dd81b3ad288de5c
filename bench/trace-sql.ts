/**
 * Profiling aid, preloaded into the SERVER child with `--trace-sql` (node --import): wraps `pg`'s
 * Client#query and Pool#connect to count and time every SQL statement and every wait for a pool
 * connection, without touching src/. On SIGUSR2 it writes the statistics gathered since the last
 * signal to `$BENCH_TRACE_SQL.<n>.json` and starts over, so run.ts can attribute statements to
 * one scenario and compute statements per request. It also counts the HTTP requests the server
 * received in that window (diagnostics channel), so slow scenarios, whose requests still in flight
 * when autocannon stops are not in its total, get an exact divisor. PostgreSQL engine only (PGlite does not use pg).
 */
import dc from 'node:diagnostics_channel';
import { renameSync, writeFileSync } from 'node:fs';
import pg from 'pg';

interface Stat {
  calls: number;
  ms: number;
  rows: number;
}
let stats = new Map<string, Stat>();
let poolWaits = { calls: 0, ms: 0, maxMs: 0 };
let dumps = 0;
let requests = 0;
dc.subscribe('http.server.request.start', () => requests++);

function record(text: string, ms: number, rows: number) {
  const key = text.replace(/\s+/g, ' ').trim();
  const s = stats.get(key) ?? { calls: 0, ms: 0, rows: 0 };
  s.calls++;
  s.ms += ms;
  s.rows += rows;
  stats.set(key, s);
}

const origQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
  const first = args[0] as string | { text?: string };
  const text = typeof first === 'string' ? first : (first?.text ?? String(first));
  const t0 = performance.now();
  // a Query object (the service's driver sends each statement as one, src/db/pg-driver/): pg
  // returns the object itself, not a promise, and answers through its callback
  const submittable = first as { submit?: unknown; callback?: (err: unknown, res: unknown) => void };
  if (typeof submittable?.submit === 'function' && typeof submittable.callback === 'function') {
    const callback = submittable.callback;
    submittable.callback = (err, res) => {
      record(text, performance.now() - t0, err ? 0 : ((res as { rows?: unknown[] } | undefined)?.rows?.length ?? 0));
      callback(err, res);
    };
    return origQuery.apply(this, args);
  }
  const out = origQuery.apply(this, args) as Promise<{ rowCount?: number; rows?: unknown[] }> | undefined;
  if (out && typeof (out as Promise<unknown>).then === 'function') {
    out.then(
      (r) => record(text, performance.now() - t0, r?.rows?.length ?? 0),
      () => record(text, performance.now() - t0, 0),
    );
  }
  return out;
} as typeof pg.Client.prototype.query;

const origConnect = pg.Pool.prototype.connect as (...args: unknown[]) => unknown;
pg.Pool.prototype.connect = function (this: unknown, ...args: unknown[]) {
  const t0 = performance.now();
  const out = origConnect.apply(this, args) as Promise<unknown> | undefined;
  if (out && typeof out.then === 'function') {
    out.then(
      () => {
        const ms = performance.now() - t0;
        poolWaits.calls++;
        poolWaits.ms += ms;
        poolWaits.maxMs = Math.max(poolWaits.maxMs, ms);
      },
      () => undefined,
    );
  }
  return out;
} as typeof pg.Pool.prototype.connect;

process.on('SIGUSR2', () => {
  const file = `${process.env.BENCH_TRACE_SQL}.${dumps++}.json`;
  // BENCH_TRACE_SQL_CHARS: whole statements, to run one again by hand (EXPLAIN, pgbench)
  const width = Number(process.env.BENCH_TRACE_SQL_CHARS) || 400;
  const statements = [...stats].map(([sql, s]) => ({ sql: sql.slice(0, width), ...s })).sort((a, b) => b.ms - a.ms);
  // written aside and renamed: the benchmark reads the file as soon as it exists (sql-trace.ts)
  writeFileSync(`${file}.part`, JSON.stringify({ requests, poolWaits, statements }, null, 1));
  renameSync(`${file}.part`, file);
  requests = 0;
  stats = new Map();
  poolWaits = { calls: 0, ms: 0, maxMs: 0 };
});
