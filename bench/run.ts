/**
 * The benchmark driver (`npm run bench -- [--engine postgres|pglite|both] [--duration 10] ...`,
 * flags in args.ts). For each engine: a fresh database, the service started as a child process on
 * a free 127.0.0.1 port, seeding through the bulk REST API (seed.ts), the autocannon scenarios
 * (scenarios.ts), a table on stdout and JSON in bench/results/, then the child is stopped and the
 * database removed. It measures the API end to end as clients see it, on both engines, against
 * the PostgreSQL targets (list >= 1,500 req/s, detail >= 3,000 req/s, bulk create >= 10,000
 * objects/s on the 2-core reference machine). Every run is bounded in time; a watchdog ends the
 * whole benchmark if anything hangs. Any error or non-2xx answer fails the run (exit code 1).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from './args.js';
import { call } from './http.js';
import { type EngineReport, failures, machine, NOTE, table, writeJson } from './report.js';
import { buildScenarios, runScenario, type Scenario, type ScenarioResult } from './scenarios.js';
import { seed } from './seed.js';
import { ROOT, type Server, startServer, TOKEN } from './server.js';

const args = parseArgs(process.argv.slice(2));
const WARMUP_SEC = Math.min(2, args.duration);
const running = new Set<Server>();
const log = (s: string) => console.log(s);

// The whole run ends by itself: startup + seed budget plus every scenario's duration and slack.
const budgetSec = args.engines.length * (300 + 6 * (Math.max(args.duration, args.pgliteDuration) + WARMUP_SEC + 60));
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

/** --trace-sql: the child dumps its SQL statistics on SIGUSR2; returns the dump's content. */
async function sqlDump(server: Server, base: string, n: number): Promise<{ statements: Array<{ sql: string; calls: number; ms: number }>; poolWaits: { calls: number; ms: number; maxMs: number } } | null> {
  process.kill(server.pid, 'SIGUSR2');
  const file = `${base}.${n}.json`;
  for (let i = 0; i < 50 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
}

async function benchEngine(engine: 'postgres' | 'pglite'): Promise<EngineReport> {
  const duration = engine === 'pglite' ? args.pgliteDuration : args.duration;
  const date = new Date().toISOString();
  const host = machine();
  if (host.loadAvg1 > 1) log(`!! load average ${host.loadAvg1} on ${host.cpus} cores before starting: other processes compete with the benchmark`);
  const resultsDir = join(ROOT, 'bench/results');
  mkdirSync(resultsDir, { recursive: true });
  const traceBase = args.traceSql && engine === 'postgres' ? join(resultsDir, `sql-${engine}-${date.replace(/[:.]/g, '-')}`) : undefined;
  const profDir = args.cpuProf ? join(resultsDir, 'prof', `${engine}-${date.replace(/[:.]/g, '-')}`) : undefined;
  log(`\n== ${engine}: starting the service (fresh ${engine === 'postgres' ? 'database' : 'DATA_DIR'})${profDir ? `, CPU profile to ${profDir}` : ''}`);
  const t0 = performance.now();
  const server = await startServer({ engine, pgUrl: args.pgUrl, cpuProfDir: profDir, traceSqlFile: traceBase });
  running.add(server);
  try {
    log(`   ${server.url} answered after ${((performance.now() - t0) / 1000).toFixed(1)} s; seeding ${args.sites} sites`);
    const api = { base: server.url, token: TOKEN };
    const seeded = await seed(api, args.sites, log);
    const stored = await call<{ count: number }>(api, 'GET', '/api/dcim/sites/?limit=1');
    if (stored.count !== args.sites) throw new Error(`expected ${args.sites} sites after seeding, the API counts ${stored.count}`);

    // Statistics as autovacuum would have them a minute later: right after a bulk load the planner
    // estimates ~0 tagged items and picks a plan that is ~40x slower for the tags query.
    if (await server.analyze()) log('   ANALYZE after seeding (steady-state planner statistics)');

    const scenarios = buildScenarios(seeded, args.connections, args.bulkConnections).filter((s) => !args.only || args.only.includes(s.name));
    const results: ScenarioResult[] = [];
    let dumpNo = 0;
    for (const s of scenarios) {
      if (!s.objectsPerRequest) {
        // not measured: lets V8 optimise the path and PostgreSQL warm its caches
        await runScenario(s, server.url, TOKEN, WARMUP_SEC);
      }
      if (traceBase) await sqlDump(server, traceBase, dumpNo++); // discard warm-up statements
      log(`   running ${s.name} (${s.title}) for ${duration} s with ${s.connections} connections`);
      const r = await runScenario(s, server.url, TOKEN, duration);
      if (traceBase) {
        const d = await sqlDump(server, traceBase, dumpNo++);
        if (d) {
          const calls = d.statements.reduce((a, x) => a + x.calls, 0);
          (r as ScenarioResult & { sql?: unknown }).sql = {
            statementsPerRequest: calls / Math.max(1, r.requests),
            poolWaitMsPerRequest: d.poolWaits.ms / Math.max(1, r.requests),
            poolWaitMaxMs: d.poolWaits.maxMs,
            top: d.statements.slice(0, 8).map((x) => ({ perRequest: x.calls / Math.max(1, r.requests), avgMs: x.ms / x.calls, totalMs: Math.round(x.ms), sql: x.sql.slice(0, 160) })),
          };
          log(`     sql: ${(calls / Math.max(1, r.requests)).toFixed(2)} statements/request, pool wait ${(d.poolWaits.ms / Math.max(1, r.requests)).toFixed(2)} ms/request`);
        }
      }
      results.push(r);
      if (r.errors + r.timeouts + r.non2xx > 0) await explainFailure(server, s);
    }
    const rep: EngineReport = { engine, date, machine: host, sites: args.sites, durationSec: duration, seed: seeded.steps, scenarios: results, note: NOTE };
    log(`\n${table(rep)}`);
    log(`   JSON: ${writeJson(rep)}`);
    return rep;
  } finally {
    running.delete(server);
    await server.stop();
  }
}

async function main() {
  log(`inventory benchmark: engines ${args.engines.join(', ')}; ${args.duration} s per scenario${args.engines.includes('pglite') && args.pgliteDuration !== args.duration ? ` (PGlite ${args.pgliteDuration} s)` : ''}; ${args.connections} connections (bulk create ${args.bulkConnections}); all traffic to 127.0.0.1`);
  log(`note: ${NOTE}`);
  const reports: EngineReport[] = [];
  for (const engine of args.engines) reports.push(await benchEngine(engine));
  if (reports.length > 1) for (const r of reports) log(`\n${table(r)}`);
  const failed = reports.flatMap(failures);
  if (failed.length) {
    console.error(`\n!!!!!! BENCHMARK FAILED: requests failed or answered non-2xx !!!!!!\n${failed.join('\n')}`);
    process.exitCode = 1;
  }
}

main()
  .catch((e) => {
    console.error(`\n!! benchmark aborted: ${e instanceof Error ? e.stack ?? e.message : e}`);
    process.exitCode = 1;
  })
  .finally(() => clearTimeout(watchdog));
