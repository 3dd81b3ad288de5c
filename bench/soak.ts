/**
 * The soak (bench/README.md, "Other benchmarks"): several service processes on one PostgreSQL
 * database, a mixed load of reads and writes (bulk included) from many connections for a long time,
 * then the promises checked:
 * - zero errors (any non-2xx answer, reset or timeout counts);
 * - resident memory of each process flat after warm-up: sampled from /proc every 10 s, the level at
 *   the end (median of the last three samples) at most --max-rss-growth-mb above the level after
 *   warm-up (median of the first three samples from then); start, after warm-up, end, peak and
 *   slope reported. A run too short for six samples after warm-up cannot tell and fails the check;
 *   --max-rss-growth-mb -1 turns it off (smoke runs);
 * - latency percentiles (p50, p99, max) overall and per kind of request;
 * - every write acknowledged is in the database afterwards, and nothing else: the soak's tenants
 *   are exactly the ones created and not deleted, each with the description last acknowledged.
 *
 *   node --import tsx bench/soak.ts [--minutes 10] [--processes 2] [--connections 64] [--warmup-minutes 1]
 *     [--max-rss-growth-mb 64]
 *
 * Exit code 1 when a promise is broken. Results also go to bench/results/soak-<date>.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { call } from './http.js';
import { seed } from './seed.js';
import { adminQuery, ROOT, type Server, startServer, TOKEN } from './server.js';
import { percentile, startLoad } from './soak-load.js';

const argv = process.argv.slice(2);
const arg = (name: string, dflt: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : dflt);
const MINUTES = arg('--minutes', 10);
const WARMUP_MINUTES = arg('--warmup-minutes', 1);
const PROCESSES = arg('--processes', 2);
const CONNECTIONS = arg('--connections', 64);
// the bound on each process's resident memory growth after warm-up; below 0: not checked
const MAX_RSS_GROWTH_MB = arg('--max-rss-growth-mb', 64);
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SAMPLE_MS = 10_000;
const log = (s: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${s}`);

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
}

async function main(): Promise<number> {
  const database = `inv_soak_${process.pid}`;
  await adminQuery(PG_URL, `drop database if exists ${database}`);
  await adminQuery(PG_URL, `create database ${database}`);
  const servers: Server[] = [];
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${database}`;
  try {
    // one after the other: the first migrates and creates the admin, the others find both done
    for (let i = 0; i < PROCESSES; i++)
      servers.push(await startServer({ engine: 'postgres', pgUrl: PG_URL, database }));
    log(`${PROCESSES} service processes on ${database}: ${servers.map((s) => `${s.url} (pid ${s.pid})`).join(', ')}`);
    const seeded = await seed({ base: servers[0]!.url, token: TOKEN }, 2_000, log);
    await servers[0]!.analyze();

    const prefix = `soak-${process.pid}`;
    const samples: Array<{ atSec: number; rssMb: number[] }> = [];
    const sample = (atSec: number) => samples.push({ atSec, rssMb: servers.map((s) => rssMb(s.pid)) });
    sample(0);
    log(
      `load: ${CONNECTIONS} connections over ${PROCESSES} processes for ${MINUTES} min (warm-up ${WARMUP_MINUTES} min); RSS MB at start ${samples[0]!.rssMb.join(' / ')}`,
    );
    const t0 = performance.now();
    const load = startLoad({
      urls: servers.map((s) => s.url),
      token: TOKEN,
      connections: CONNECTIONS,
      siteIds: seeded.siteIds,
      tenantIds: seeded.tenantIds,
      prefix,
    });
    const timer = setInterval(() => {
      const at = Math.round((performance.now() - t0) / 1000);
      sample(at);
      if (at % 60 < SAMPLE_MS / 1000)
        log(
          `  ${at} s: ${load.stats.requests} requests, ${load.stats.errors} errors, RSS MB ${samples.at(-1)!.rssMb.join(' / ')}`,
        );
    }, SAMPLE_MS);
    await new Promise((r) => setTimeout(r, MINUTES * 60_000));
    clearInterval(timer);
    await load.stop();
    const seconds = (performance.now() - t0) / 1000;
    sample(Math.round(seconds));

    // every acknowledged write is there, and nothing else of the soak's
    const client = new pg.Client({ connectionString: dbUrl.toString() });
    await client.connect();
    const rows = (
      await client.query<{ id: string; description: string }>(
        `select id, description from tenancy_tenant where name like $1`,
        [`${prefix}-%`],
      )
    ).rows;
    await client.end();
    const stored = new Map(rows.map((r) => [Number(r.id), r.description]));
    const missing = [...load.ack.present.keys()].filter((id) => !stored.has(id));
    const wrongDescription = [...load.ack.present]
      .filter(([id, d]) => stored.has(id) && stored.get(id) !== d)
      .map(([id]) => id);
    const resurrected = [...load.ack.deleted].filter((id) => stored.has(id));
    const unknown = [...stored.keys()].filter((id) => !load.ack.present.has(id));
    // the API agrees with the database
    const apiCount = (
      await call<{ count: number }>(
        { base: servers[1 % PROCESSES]!.url, token: TOKEN },
        'GET',
        `/api/tenancy/tenants/?name__isw=${prefix}-&limit=1`,
      )
    ).count;

    const all = [...load.stats.latencies.values()].flat().sort((a, b) => a - b);
    const kinds = Object.fromEntries(
      [...load.stats.latencies].map(([k, l]) => {
        const s = [...l].sort((a, b) => a - b);
        return [
          k,
          {
            requests: s.length,
            p50Ms: +percentile(s, 50).toFixed(1),
            p99Ms: +percentile(s, 99).toFixed(1),
            maxMs: +s.at(-1)!.toFixed(1),
          },
        ];
      }),
    );
    const warm = samples.find((s) => s.atSec >= WARMUP_MINUTES * 60) ?? samples.at(-1)!;
    const afterWarmup = samples.filter((x) => x.atSec >= warm.atSec);
    const rss = servers.map((s, i) => ({
      pid: s.pid,
      startMb: samples[0]!.rssMb[i],
      afterWarmupMb: warm.rssMb[i],
      endMb: samples.at(-1)!.rssMb[i],
      peakMb: Math.max(...samples.map((x) => x.rssMb[i]!)),
      // least-squares slope after warm-up, MB per minute: flat is ~0
      slopeMbPerMin: slope(afterWarmup.map((x) => [x.atSec / 60, x.rssMb[i]!])),
      growthMb: rssGrowth(afterWarmup.map((x) => x.rssMb[i]!)),
    }));
    const report = {
      date: new Date().toISOString(),
      processes: PROCESSES,
      connections: CONNECTIONS,
      minutes: +(seconds / 60).toFixed(2),
      requests: load.stats.requests,
      reqPerSec: Math.round(load.stats.requests / seconds),
      errors: load.stats.errors,
      firstErrors: load.stats.firstErrors,
      latency: {
        p50Ms: +percentile(all, 50).toFixed(1),
        p99Ms: +percentile(all, 99).toFixed(1),
        maxMs: +all.at(-1)!.toFixed(1),
      },
      kinds,
      rss,
      maxRssGrowthMb: MAX_RSS_GROWTH_MB,
      writes: {
        acknowledgedPresent: load.ack.present.size,
        acknowledgedDeleted: load.ack.deleted.size,
        stored: stored.size,
        apiCount,
        missing: missing.length,
        wrongDescription: wrongDescription.length,
        resurrected: resurrected.length,
        unknown: unknown.length,
      },
      rssSamples: samples,
    };
    const dir = join(ROOT, 'bench/results');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `soak-${report.date.replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, JSON.stringify(report, null, 2));
    const { rssSamples: _s, ...summary } = report;
    console.log(JSON.stringify(summary, null, 2));
    log(`JSON: ${file}`);
    const w = report.writes;
    const broken = [
      report.errors > 0 && `${report.errors} errors`,
      (w.missing || w.wrongDescription || w.resurrected || w.unknown || w.apiCount !== w.acknowledgedPresent) &&
        'acknowledged writes and the database differ',
      ...memoryBroken(rss),
    ].filter(Boolean);
    if (broken.length) console.error(`!! SOAK FAILED: ${broken.join('; ')}`);
    else
      log(
        `soak passed: zero errors, every acknowledged write present, ${
          MAX_RSS_GROWTH_MB < 0
            ? 'memory not checked (--max-rss-growth-mb below 0)'
            : `resident memory within ${MAX_RSS_GROWTH_MB} MB of its level after warm-up`
        }`,
      );
    return broken.length ? 1 : 0;
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
    await adminQuery(PG_URL, `drop database if exists ${database} with (force)`);
  }
}

/**
 * Resident memory growth after warm-up, MB: the median of the last three samples less the median
 * of the first three (a median, so one sample caught mid-collection does not decide); null with
 * fewer than six samples, when the two ends would overlap.
 */
function rssGrowth(mb: number[]): number | null {
  if (mb.length < 6) return null;
  const median3 = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  return median3(mb.slice(-3)) - median3(mb.slice(0, 3));
}

/** The memory promise, one message per process that breaks it. */
function memoryBroken(rss: Array<{ pid: number; growthMb: number | null; afterWarmupMb?: number; endMb?: number }>) {
  if (MAX_RSS_GROWTH_MB < 0) return [];
  return rss.flatMap((p) => {
    if (p.growthMb === null)
      return [
        `process ${p.pid}: fewer than 6 memory samples after warm-up, so flat memory cannot be checked (run longer, or --max-rss-growth-mb -1)`,
      ];
    if (p.growthMb > MAX_RSS_GROWTH_MB)
      return [
        `process ${p.pid}: resident memory grew ${p.growthMb} MB after warm-up (median of the last three samples against the first three; samples ${p.afterWarmupMb} -> ${p.endMb} MB), more than the ${MAX_RSS_GROWTH_MB} MB allowed`,
      ];
    return [];
  });
}

function slope(points: Array<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((a, [x]) => a + x, 0) / n;
  const my = points.reduce((a, [, y]) => a + y, 0) / n;
  const num = points.reduce((a, [x, y]) => a + (x - mx) * (y - my), 0);
  const den = points.reduce((a, [x]) => a + (x - mx) ** 2, 0);
  return den ? +(num / den).toFixed(2) : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`!! soak aborted: ${e instanceof Error ? e.stack : e}`);
    process.exit(1);
  },
);
