/**
 * The benchmark driver (`npm run bench -- [--dataset sites|ipam] [--engine postgres|pglite|both]
 * [--duration 10] ...`, flags in args.ts). For each engine: a fresh database, the service started
 * as a child process on a free 127.0.0.1 port, seeding through the bulk REST API (datasets.ts:
 * seed.ts or seed-ipam.ts), the autocannon scenarios (scenarios.ts, scenarios-ipam.ts), a table on
 * stdout and JSON in bench/results/, then the child is stopped and the database removed. It
 * measures the API end to end as clients see it, on both engines, against the PostgreSQL targets
 * (list >= 1,500 req/s, detail >= 3,000 req/s, bulk create >= 10,000 objects/s on the 2-core
 * reference machine). Every run is bounded in time; a watchdog ends the
 * whole benchmark if anything hangs. Any error or non-2xx answer fails the run (exit code 1).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type BenchRun, parseArgs } from './args.js';
import { cpuPerRequest, cpuSnapshot, peakMemory } from './cpu-meter.js';
import { BUDGET, prepareDataset } from './datasets.js';
import { describeSpeed, hostSpeed } from './host-speed.js';
import { type EngineReport, failures, machine, NOTE, table, writeJson } from './report.js';
import { scaleComparison } from './report-scale.js';
import { runScenario, type Scenario, type ScenarioResult, settle } from './scenarios.js';
import { ROOT, type Server, startServer, TOKEN } from './server.js';
import { SqlTrace } from './sql-trace.js';

const args = parseArgs(process.argv.slice(2));
const WARMUP_SEC = Math.min(2, args.duration);
const running = new Set<Server>();
const log = (s: string) => console.log(s);

// The whole run ends by itself: startup + seed budget plus every scenario's duration and slack.
const budgetSec =
  args.engines.length *
  args.runs.reduce((sum, run) => {
    const budget = BUDGET[run.dataset];
    return (
      sum + budget.seedSec + (budget.scenarios + 1) * (Math.max(args.duration, args.pgliteDuration) + WARMUP_SEC + 60)
    );
  }, 0);
const watchdog = setTimeout(() => {
  console.error(`\n!! benchmark exceeded its ${budgetSec} s budget; stopping`);
  void Promise.allSettled([...running].map((s) => s.stop())).then(() => process.exit(2));
}, budgetSec * 1000);
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.once(sig, () => void Promise.allSettled([...running].map((s) => s.stop())).then(() => process.exit(130)));
}

/** Replays one request of a failed scenario with fetch, to show the status and body. */
async function explainFailure(server: Server, s: Scenario): Promise<void> {
  const p = s.probe();
  const res = await fetch(`${server.url}${p.path ?? '/api/dcim/sites/'}`, {
    method: p.method,
    headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
    body: p.body,
  }).catch((e: Error) => ({ status: `fetch failed: ${e.message}`, text: async () => '' }));
  console.error(`!! ${s.name}: probe ${p.method} ${p.path} -> ${res.status} ${(await res.text()).slice(0, 500)}`);
}

async function benchEngine(engine: 'postgres' | 'pglite', run: BenchRun): Promise<EngineReport> {
  const duration = engine === 'pglite' ? args.pgliteDuration : args.duration;
  const date = new Date().toISOString();
  // measured before the server starts, so nothing of the run competes with it
  const host = { ...machine(), speed: await hostSpeed(engine === 'postgres' ? args.pgUrl : null) };
  log(`   ${describeSpeed(host.speed)}`);
  if (host.loadAvg1 > 1)
    log(
      `!! load average ${host.loadAvg1} on ${host.cpus} cores before starting: other processes compete with the benchmark`,
    );
  const resultsDir = join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const traceBase =
    args.traceSql && engine === 'postgres'
      ? join(resultsDir, `sql-${engine}-${date.replace(/[:.]/g, '-')}`)
      : undefined;
  const profDir = args.cpuProf ? join(resultsDir, 'prof', `${engine}-${date.replace(/[:.]/g, '-')}`) : undefined;
  log(
    `\n== ${engine}, ${run.dataset} data set, response cache ${run.responseCache ? 'on' : 'off'}: starting the service (fresh ${engine === 'postgres' ? 'database' : 'DATA_DIR'})${profDir ? `, CPU profile to ${profDir}` : ''}`,
  );
  const t0 = performance.now();
  const server = await startServer({
    engine,
    pgUrl: args.pgUrl,
    cpuProfDir: profDir,
    traceSqlFile: traceBase,
    keepDatabase: args.keepDb,
    env: {
      ...(run.responseCache ? {} : { RESPONSE_CACHE_MB: '0' }),
      ...(args.metrics ? {} : { METRICS_ENABLED: 'false' }),
      API_DIALECT: args.dialect,
      WORKERS: String(args.workers),
    },
  });
  running.add(server);
  try {
    log(`   ${server.url} answered after ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const api = { base: server.url, token: TOKEN };
    const data = await prepareDataset(run.dataset, args, api, server, log);

    // Statistics and visibility map as autovacuum would leave them a minute later: right after a
    // bulk load the planner estimates ~0 tagged items and picks a plan that is ~40x slower for the
    // tags query, and every index-only scan still reads the heap (no page is marked all-visible).
    if (args.analyze && (await server.analyze()))
      log(
        '   VACUUM ANALYZE and CHECKPOINT after seeding (steady-state statistics and visibility map, the load written back)',
      );

    const trace = traceBase ? new SqlTrace(server, traceBase) : null;
    // statements of one list request at limit=50 and limit=1000: they must not grow with the page
    const pageProbes = trace ? await trace.probePages(api, data.pageProbes, log) : undefined;
    const scenarios = data.scenarios.filter((s) => !args.only || args.only.includes(s.name));
    const results: ScenarioResult[] = [];
    for (const s of scenarios) {
      if (!s.objectsPerRequest) {
        // not measured: lets V8 optimise the path and PostgreSQL warm its caches
        await runScenario(s, server.url, TOKEN, WARMUP_SEC);
        await settle(server.url, TOKEN);
      }
      if (trace) await trace.dump(); // discard warm-up statements
      log(`   running ${s.name} (${s.title}) for ${duration} s with ${s.connections} connections`);
      const cpu0 = await cpuSnapshot(server.pid, args.pgUrl, server.database);
      const load0 = process.cpuUsage();
      const r = await runScenario(s, server.url, TOKEN, duration);
      const load = process.cpuUsage(load0);
      // abandoned requests finish before the statistics are read and before the next scenario
      await settle(server.url, TOKEN);
      r.cpu = cpuPerRequest(
        cpu0,
        await cpuSnapshot(server.pid, args.pgUrl, server.database),
        r.requests,
        server.database,
      );
      // autocannon runs in this process: what the load generator itself costs per request
      r.cpu.loadGeneratorMs = (load.user + load.system) / 1000 / Math.max(1, r.requests);
      if (trace) await trace.underLoad(r, log);
      results.push(r);
      if (r.errors + r.timeouts + r.non2xx > 0) await explainFailure(server, s);
    }
    const memory = peakMemory(server.pid);
    const rep: EngineReport = {
      engine,
      date,
      machine: host,
      dataset: data.name,
      summary: data.summary,
      durationSec: duration,
      responseCache: run.responseCache,
      metrics: args.metrics,
      workers: engine === 'postgres' ? args.workers : 1,
      dialect: args.dialect,
      seed: data.steps,
      scenarios: results,
      pageProbes,
      memory,
      note: NOTE,
    };
    log(`\n${table(rep)}`);
    log(`   JSON: ${writeJson(rep)}`);
    return rep;
  } finally {
    running.delete(server);
    await server.stop();
  }
}

async function main() {
  const runs = args.runs.map((r) => `${r.dataset} (cache ${r.responseCache ? 'on' : 'off'})`).join(', ');
  log(
    `inventory benchmark: ${runs}; engines ${args.engines.join(', ')}; ${args.duration} s per scenario${args.engines.includes('pglite') && args.pgliteDuration !== args.duration ? ` (PGlite ${args.pgliteDuration} s)` : ''}; ${args.connections} connections (bulk create ${args.bulkConnections}); all traffic to 127.0.0.1`,
  );
  log(`note: ${NOTE}`);
  const reports: EngineReport[] = [];
  for (const engine of args.engines) for (const run of args.runs) reports.push(await benchEngine(engine, run));
  if (reports.length > 1) for (const r of reports) log(`\n${table(r)}`);
  for (const line of scaleComparison(reports)) log(line);
  const failed = reports.flatMap(failures);
  if (failed.length) {
    console.error(`\n!!!!!! BENCHMARK FAILED: requests failed or answered non-2xx !!!!!!\n${failed.join('\n')}`);
    process.exitCode = 1;
  }
}

main()
  .catch((e) => {
    console.error(`\n!! benchmark aborted: ${e instanceof Error ? (e.stack ?? e.message) : e}`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
