/**
 * The standard and the internet data sets, request by request, in alternating short runs: medians
 * of several runs are what a shared 2-core host can tell apart, where one run of each moves by
 * 10-30 %. Both databases are those `npm run bench -- --dataset standard,internet --keep-db` left
 * (their names are printed); a service is started on each (one process, response cache off) and
 * each round runs every request on one set, then the other, the order swapped every round.
 *
 *   node --import tsx bench/scale-compare.ts --standard-db inv_bench_1 --internet-db inv_bench_1_internet \
 *     [--rounds 5] [--duration 3] [--connections 16] [--only ip-addresses,ip-search] [--pg-url URL]
 *
 * Prints per request the median req/s, p50 and CPU ms per request (Node + PostgreSQL) of each set
 * and their ratios (target: internet within 2x of standard); JSON to bench/results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { int, refuseUnknownFlags, value } from './args.js';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { extraFor } from './datasets.js';
import { buildStandardScenarios } from './scenarios-standard.js';
import { runScenario, type Scenario, settle } from './scenarios.js';
import { FIRST_PUBLIC_OCTET } from './seed-internet-sql.js';
import { ROOT, type Server, startServer, TOKEN } from './server.js';

const argv = process.argv.slice(2);
const FLAGS = ['--standard-db', '--internet-db', '--rounds', '--duration', '--connections', '--only', '--pg-url'];
refuseUnknownFlags(argv, new Set(FLAGS), 'bench/scale-compare.ts');
const pgUrl = value(argv, '--pg-url') ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const rounds = int(argv, '--rounds', 5);
const duration = int(argv, '--duration', 3);
const connections = int(argv, '--connections', 16);
const only = value(argv, '--only')?.split(',') ?? [
  'ip-addresses',
  'ip-offset',
  'ip-search',
  'ip-parent',
  'available-ips',
  'prefixes-50',
  'prefixes-brief-1000',
];
const SETS = [
  { name: 'standard', db: value(argv, '--standard-db'), octet: 10 },
  { name: 'internet', db: value(argv, '--internet-db'), octet: FIRST_PUBLIC_OCTET },
];

interface Sample {
  reqPerSec: number;
  p50: number;
  nodeMs: number;
  pgMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function prepare(set: (typeof SETS)[number]): Promise<{ server: Server; scenarios: Scenario[] }> {
  if (!set.db) throw new Error(`--${set.name}-db is required (a database bench --keep-db left)`);
  const server = await startServer({
    engine: 'postgres',
    pgUrl,
    database: set.db,
    env: { RESPONSE_CACHE_MB: '0', WORKERS: '1' },
  });
  const url = new URL(pgUrl);
  url.pathname = `/${set.db}`;
  const c = new pg.Client({ connectionString: url.toString() });
  await c.connect();
  const ids = (await c.query<{ id: string }>('select id from dcim_device order by id')).rows.map((r) => Number(r.id));
  await c.end();
  const seeded = {
    steps: [],
    deviceIds: ids,
    searchQ: `${set.octet}.1.`,
    parent16: `${set.octet}.1.0.0/16`,
    summary: '',
  };
  const extra = await extraFor({ base: server.url, token: TOKEN }, seeded);
  const scenarios = buildStandardScenarios(seeded, connections, extra).filter((s) => only.includes(s.name));
  return { server, scenarios };
}

async function measure(server: Server, s: Scenario): Promise<Sample> {
  await runScenario(s, server.url, TOKEN, 1); // warm-up
  await settle(server.url, TOKEN);
  const cpu0 = await cpuSnapshot(server.pid, pgUrl, server.database);
  const r = await runScenario(s, server.url, TOKEN, duration);
  await settle(server.url, TOKEN);
  if (r.errors + r.timeouts + r.non2xx > 0) throw new Error(`${s.name}: ${r.errors} errors, ${r.non2xx} non-2xx`);
  const cpu = cpuPerRequest(cpu0, await cpuSnapshot(server.pid, pgUrl, server.database), r.requests, server.database);
  return { reqPerSec: r.reqPerSecMean, p50: r.latencyP50Ms, nodeMs: cpu.serverMs ?? 0, pgMs: cpu.postgresMs ?? 0 };
}

const prepared = [] as Array<Awaited<ReturnType<typeof prepare>>>;
try {
  for (const set of SETS) prepared.push(await prepare(set));
  const samples = new Map<string, Sample[][]>(); // scenario -> [standard samples, internet samples]
  for (let round = 0; round < rounds; round++) {
    for (const s of prepared[0]!.scenarios) {
      const order = round % 2 ? [1, 0] : [0, 1];
      for (const i of order) {
        const scenario = prepared[i]!.scenarios.find((x) => x.name === s.name)!;
        const sample = await measure(prepared[i]!.server, scenario);
        const per = samples.get(s.name) ?? [[], []];
        per[i]!.push(sample);
        samples.set(s.name, per);
        console.log(
          `round ${round + 1} ${SETS[i]!.name.padEnd(8)} ${s.name.padEnd(20)} ${sample.reqPerSec.toFixed(0).padStart(6)} req/s p50 ${sample.p50} ms CPU ${sample.nodeMs.toFixed(2)} + ${sample.pgMs.toFixed(2)}`,
        );
      }
    }
  }
  const rows: Array<Record<string, string | number>> = [];
  console.log(
    `\nmedians of ${rounds} runs of ${duration} s, ${connections} connections, one service process, response cache off`,
  );
  console.log(
    '| request | standard req/s | p50 ms | CPU ms/req Node + pg | internet req/s | p50 ms | CPU ms/req Node + pg | CPU internet/standard | p50 internet/standard |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|');
  for (const s of prepared[1]!.scenarios) {
    const [a, b] = samples.get(s.name)!.map((xs) => ({
      reqPerSec: median(xs.map((x) => x.reqPerSec)),
      p50: median(xs.map((x) => x.p50)),
      nodeMs: median(xs.map((x) => x.nodeMs)),
      pgMs: median(xs.map((x) => x.pgMs)),
    })) as [Sample, Sample];
    const cpuRatio = (b.nodeMs + b.pgMs) / (a.nodeMs + a.pgMs);
    const row = { request: s.title, standard: a, internet: b, cpuRatio, p50Ratio: b.p50 / a.p50 };
    rows.push(row as never);
    console.log(
      `| \`${s.title}\` | ${a.reqPerSec.toFixed(0)} | ${a.p50.toFixed(1)} | ${a.nodeMs.toFixed(2)} + ${a.pgMs.toFixed(2)} | ${b.reqPerSec.toFixed(0)} | ${b.p50.toFixed(1)} | ${b.nodeMs.toFixed(2)} + ${b.pgMs.toFixed(2)} | ${cpuRatio.toFixed(2)}x | ${row.p50Ratio.toFixed(2)}x |`,
    );
  }
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `scale-compare-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ rounds, duration, connections, rows }, null, 2));
  console.log(`JSON: ${file}`);
} finally {
  for (const p of prepared) await p.server.stop();
}
