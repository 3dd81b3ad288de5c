/**
 * Hostile-client sweep (docs/api-differences.md, "Strict input"): a few thousand invalid requests
 * (hostile-cases.ts) across 19 endpoints, sent over keep-alive connections to the service listening
 * on loopback, on each engine; then every per-field class case (hostile-fields.ts,
 * hostile-unique.ts) once, on every endpoint of the OpenAPI document. Counts what must be zero: 5xx
 * answers, answers without X-Request-ID, connections reset (or closed without an answer, or without
 * `Connection: close` first), bulk writes that changed something, 2xx answers (every request is
 * invalid), and class cases refused without naming the field or parameter at fault; prints the
 * class counts.
 *
 *   node --import tsx bench/hostile.ts [--engine postgres|pglite|both] [--requests N] [--connections N] [--trace STATUS]
 *     [--classes-only]   only the class cases (--requests 0)
 *
 * Exits 1 when any count is not zero.
 */
import { connect, type RawConnection, type RawResponse } from '../test/helpers/raw-http.js';
import { casesFor, type HostileCase, request, SWEEP_BODY_LIMIT } from './hostile-cases.js';
import { fieldCases, loadEndpoints, namesOneOf } from './hostile-fields.js';
import { seedPool } from './hostile-seed.js';
import { duplicateCase } from './hostile-unique.js';
import { startServer, TOKEN } from './server.js';

function flag(name: string, dflt: string): string {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1]! : dflt;
}
const engineFlag = flag('--engine', 'both');
const ENGINES = (engineFlag === 'both' ? ['postgres', 'pglite'] : [engineFlag]) as Array<'postgres' | 'pglite'>;
const CLASSES_ONLY = process.argv.includes('--classes-only');
const REQUESTS = CLASSES_ONLY ? 0 : Number(flag('--requests', '3000'));
const CONNECTIONS = Number(flag('--connections', '8'));
const PG_URL = flag('--pg-url', 'postgres://postgres@127.0.0.1:5432/postgres');
/** prints every answer of this status (to see which cases give it) */
const TRACE = flag('--trace', '');
const ANSWER_TIMEOUT_MS = 30_000;

interface Counts {
  requests: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  noRequestId: number;
  resets: number;
  partialBulkWrites: number;
  successes: number;
  /** class -> [sent, accepted (2xx), refused without naming the field] */
  classes: Map<string, [number, number, number]>;
  findings: string[];
}

/** One keep-alive connection; replaced when the server says it closes it. */
class Client {
  private conn: RawConnection;
  constructor(private readonly port: number) {
    this.conn = connect(port);
  }

  /** Sends a case; the answer, or the reason there was none. */
  async send(c: HostileCase): Promise<RawResponse | string> {
    await this.conn.send(c.bytes);
    const timeout = new Promise<string>((r) => setTimeout(() => r('no answer within 30 s'), ANSWER_TIMEOUT_MS).unref());
    const answer = await Promise.race([this.conn.response().catch((e: Error) => e.message), timeout]);
    if (typeof answer === 'string') {
      this.conn.end();
      this.conn = connect(this.port);
      return answer;
    }
    if (answer.headers.connection === 'close') {
      this.conn.end();
      const { reset } = await this.conn.closed;
      this.conn = connect(this.port);
      if (reset) return `connection reset after "${answer.status}" with Connection: close`;
    }
    return answer;
  }

  close(): void {
    this.conn.end();
  }
}

async function sweep(engine: 'postgres' | 'pglite'): Promise<Counts> {
  const server = await startServer({ engine, pgUrl: PG_URL, env: { MAX_BODY_SIZE: String(SWEEP_BODY_LIMIT) } });
  const counts: Counts = {
    requests: 0,
    byStatus: {},
    serverErrors: 0,
    noRequestId: 0,
    resets: 0,
    partialBulkWrites: 0,
    successes: 0,
    classes: new Map(),
    findings: [],
  };
  try {
    const api = { base: server.url, token: TOKEN };
    const pool = await seedPool(api);
    const perEndpoint = [...pool.keys()].map((path) =>
      casesFor(api, pool, path).map((c) => ({ ...c, name: `${path} ${c.name}` })),
    );
    // round robin over the endpoints, then over each endpoint's cases, until REQUESTS are queued
    const queue: HostileCase[] = [];
    for (let i = 0; queue.length < REQUESTS; i++) {
      for (const list of perEndpoint) if (queue.length < REQUESTS) queue.push(list[i % list.length]!);
    }
    // the class cases, each once, on every endpoint the OpenAPI document lists
    const send = (method: string, path: string, body?: string) => request(api.token, method, path, body);
    for (const ep of await loadEndpoints(api)) {
      const ids = pool.get(ep.path);
      const detail = ids?.length ? `${ep.path}${ids[0]}/` : null;
      const cases = [...fieldCases(send, ep, detail)];
      const dup = ep.body ? duplicateCase(api, send, ep.path) : null;
      if (dup) cases.push(dup);
      queue.push(...cases.map((c) => ({ ...c, name: `${ep.path} ${c.name}` })));
    }
    const port = Number(new URL(server.url).port);
    const note = (what: string) => counts.findings.length < 80 && counts.findings.push(what);
    const worker = async () => {
      const client = new Client(port);
      for (let c = queue.shift(); c; c = queue.shift()) {
        const check = c.snapshot ? await c.snapshot() : null;
        const res = await client.send(c);
        counts.requests++;
        if (typeof res === 'string') {
          counts.resets++;
          note(`${c.name}: ${res}`);
          continue;
        }
        counts.byStatus[res.status] = (counts.byStatus[res.status] ?? 0) + 1;
        if (TRACE === String(res.status)) console.log(`   ${res.status} ${c.name}: ${res.body.slice(0, 100)}`);
        if (res.status >= 500) {
          counts.serverErrors++;
          note(`${c.name}: ${res.status} ${res.body.slice(0, 120)}`);
        }
        if (res.status < 300) {
          counts.successes++;
          note(`${c.name}: ${res.status} to invalid input`);
        }
        if (!res.headers['x-request-id']) {
          counts.noRequestId++;
          note(`${c.name}: ${res.status} without X-Request-ID`);
        }
        if (c.cls) {
          const cls = counts.classes.get(c.cls) ?? [0, 0, 0];
          counts.classes.set(c.cls, cls);
          cls[0]++;
          if (res.status < 300) cls[1]++;
          else if (res.status < 500 && c.names && !namesOneOf(res.body, c.names)) {
            cls[2]++;
            note(`${c.name}: ${res.status} not naming ${c.names.join('/')}: ${res.body.slice(0, 120)}`);
          }
        }
        const changed = check ? await check() : null;
        if (changed) {
          counts.partialBulkWrites++;
          note(`${c.name}: ${res.status} but ${changed}`);
        }
      }
      client.close();
    };
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  } finally {
    await server.stop();
  }
  return counts;
}

let failed = false;
for (const engine of ENGINES) {
  const started = Date.now();
  const c = await sweep(engine);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  console.log(`\n${engine}: ${c.requests} invalid requests over ${CONNECTIONS} keep-alive connections in ${seconds} s`);
  console.log(
    `  statuses: ${Object.entries(c.byStatus)
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ')}`,
  );
  console.log(
    `  5xx: ${c.serverErrors}   without X-Request-ID: ${c.noRequestId}   resets: ${c.resets}   partial bulk writes: ${c.partialBulkWrites}   2xx to invalid input: ${c.successes}`,
  );
  let unnamed = 0;
  for (const [cls, [sent, accepted, notNaming]] of [...c.classes].sort()) {
    console.log(`  class ${cls}: ${sent} sent, ${accepted} accepted, ${notNaming} refused without naming the field`);
    unnamed += notNaming;
  }
  for (const f of c.findings) console.log(`  !! ${f}`);
  if (c.serverErrors + c.noRequestId + c.resets + c.partialBulkWrites + c.successes + unnamed > 0) failed = true;
}
process.exit(failed ? 1 : 0);
