/**
 * The benchmark's side of --trace-sql: asks the server child (which preloads trace-sql.ts) for its
 * SQL statistics since the last ask, and measures the statements one list request runs at two
 * page sizes. Nested objects must come from one batched query per relation per page, so the count
 * at limit=1000 has to equal the count at limit=50 (DESIGN: performance habits).
 */
import { existsSync, readFileSync } from 'node:fs';
import type { PageProbe } from './datasets.js';
import { type Api, call } from './http.js';
import type { ScenarioResult } from './scenarios.js';
import type { Server } from './server.js';

interface SqlDump {
  /** HTTP requests the server received since the last dump */
  requests?: number;
  statements: Array<{ sql: string; calls: number; ms: number }>;
  poolWaits: { calls: number; ms: number; maxMs: number };
}

export interface PageProbeResult {
  name: string;
  /** SQL statements of one request, by page size */
  perRequest: Record<string, number>;
  constant: boolean;
}

const PROBE_LIMITS = [50, 1000];

export class SqlTrace {
  private n = 0;
  constructor(
    private readonly server: Server,
    private readonly base: string,
  ) {}

  /** the child writes its statistics on SIGUSR2 and starts over; returns them */
  async dump(): Promise<SqlDump | null> {
    process.kill(this.server.pid, 'SIGUSR2');
    const file = `${this.base}.${this.n++}.json`;
    for (let i = 0; i < 50 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 100));
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as SqlDump) : null;
  }

  /**
   * statements of one GET: the fewest over three requests after a discarded one, because the
   * server's short-lived caches (token, custom fields) add a statement now and then
   */
  async statementsOf(api: Api, path: string): Promise<number> {
    return this.statementsOfRequest(() => call(api, 'GET', path));
  }

  /** the same for any request, e.g. a page fetched with a browser's session cookie (ui.ts) */
  async statementsOfRequest(get: () => Promise<unknown>): Promise<number> {
    await get();
    await this.dump();
    let fewest = Infinity;
    for (let i = 0; i < 3; i++) {
      await get();
      const d = await this.dump();
      if (!d) throw new Error('--trace-sql: the server wrote no statistics');
      fewest = Math.min(
        fewest,
        d.statements.reduce((a, s) => a + s.calls, 0),
      );
    }
    return fewest;
  }

  /** statements and pool waits of the window, per request the server received in it; stored on `r.sql` */
  async underLoad(r: ScenarioResult, log: (s: string) => void): Promise<void> {
    const d = await this.dump();
    if (!d) return;
    const n = Math.max(1, d.requests ?? r.requests);
    const calls = d.statements.reduce((a, x) => a + x.calls, 0);
    r.sql = {
      statementsPerRequest: calls / n,
      poolWaitMsPerRequest: d.poolWaits.ms / n,
      poolWaitMaxMs: d.poolWaits.maxMs,
      top: d.statements.slice(0, 8).map((x) => ({
        perRequest: x.calls / n,
        avgMs: x.ms / x.calls,
        totalMs: Math.round(x.ms),
        sql: x.sql.slice(0, 160),
      })),
    };
    log(
      `     sql: ${r.sql.statementsPerRequest.toFixed(2)} statements/request (${n} requests on the server), pool wait ${r.sql.poolWaitMsPerRequest.toFixed(2)} ms/request`,
    );
  }

  async probePages(api: Api, probes: PageProbe[], log: (s: string) => void): Promise<PageProbeResult[]> {
    const out: PageProbeResult[] = [];
    for (const p of probes) {
      const perRequest: Record<string, number> = {};
      for (const limit of PROBE_LIMITS) perRequest[`limit=${limit}`] = await this.statementsOf(api, p.path(limit));
      const counts = Object.values(perRequest);
      const constant = counts.every((c) => c === counts[0]);
      out.push({ name: p.name, perRequest, constant });
      log(
        `     sql per request, ${p.name}: ${Object.entries(perRequest)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}${constant ? '' : '  !! changes with the page size'}`,
      );
    }
    return out;
  }
}
