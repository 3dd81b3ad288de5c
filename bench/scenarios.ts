/**
 * The load scenarios, each one autocannon run bounded by --duration against 127.0.0.1 with
 * `Authorization: Token <key>`. They cover the hot paths NetBox clients hit: a page of sites
 * (page query + count + batched nested loads), a filtered page (filters on an indexed fk and a
 * choice), a detail GET (the primary-key path, ids varied per request), the brief form (no nested
 * loads), and bulk create (the one write path at 1,000 objects per request, reported as objects/s).
 * `list-writes` mixes a write into every 20 requests, so the response cache's effect under writes
 * shows next to the read-only list.
 */
import autocannon, { type RequestSpec } from 'autocannon';
import type { Seeded } from './seed.js';

export interface Scenario {
  name: string;
  title: string;
  connections: number;
  /** objects written per request (bulk create), for objects/s */
  objectsPerRequest?: number;
  /** per-request timeout, seconds: generous, since PGlite serialises queries and 16 queued list requests can wait ~10 s */
  timeout: number;
  requests(): RequestSpec[];
  /** a representative request, replayed with fetch when a run has failures, to show why */
  probe(): { method: string; path: string; body?: string };
}

export interface ScenarioResult {
  name: string;
  title: string;
  connections: number;
  durationSec: number;
  requests: number;
  reqPerSecMean: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMeanMs: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** bulk create: reqPerSecMean x objects per request (the headline figure) */
  objectsPerSec?: number;
  /** bulk create: 2xx requests x objects per request / measured seconds (cross-check) */
  objectsPerSecFromTotal?: number;
  /** CPU ms per request of the server process and of the PostgreSQL backends (cpu-meter.ts) */
  cpu?: import('./cpu-meter.js').CpuPerRequest;
  /** --trace-sql (PostgreSQL): SQL statistics of the run, per request the server received */
  sql?: {
    statementsPerRequest: number;
    poolWaitMsPerRequest: number;
    poolWaitMaxMs: number;
    top: Array<{ perRequest: number; avgMs: number; totalMs: number; sql: string }>;
  };
}

/** list-writes: one request in this many is a write */
const WRITE_EVERY = 20;

/** A body of n new sites with names unique across the whole benchmark process. */
let bulkBatch = 0;
export function bulkSitesBody(n: number): string {
  const b = bulkBatch++;
  const items = [];
  for (let i = 0; i < n; i++) {
    items.push({ name: `bulk-${process.pid}-${b}-${i}`, slug: `bulk-${process.pid}-${b}-${i}`, status: 'planned' });
  }
  return JSON.stringify(items);
}

export function buildScenarios(seeded: Seeded, connections: number, bulkConnections: number): Scenario[] {
  const { siteIds, filterTenant } = seeded;
  let next = 0;
  // a shuffled walk over the ids (stride coprime with the count) so each id is hit evenly
  const stride = 7919 % siteIds.length || 1;
  const randomDetail = () => `/api/dcim/sites/${siteIds[(next = (next + stride) % siteIds.length)]}/`;
  const get =
    (path: string): Scenario['requests'] =>
    () => [{ method: 'GET', path }];
  const filtered = `/api/dcim/sites/?status=active&tenant_id=${filterTenant.id}&limit=50`;
  return [
    {
      name: 'list',
      title: 'site list, page of 50',
      connections,
      timeout: 60,
      requests: get('/api/dcim/sites/?limit=50'),
      probe: () => ({ method: 'GET', path: '/api/dcim/sites/?limit=50' }),
    },
    {
      // The response cache serves repeated reads only until the next commit: here every 20th
      // request of each connection changes a site, so most reads render again (a busy day).
      name: 'list-writes',
      title: `site list with writes (1 PATCH in ${WRITE_EVERY})`,
      connections,
      timeout: 60,
      requests: () => [
        ...Array.from(
          { length: WRITE_EVERY - 1 },
          (): RequestSpec => ({ method: 'GET', path: '/api/dcim/sites/?limit=50' }),
        ),
        {
          method: 'PATCH',
          headers: { 'Content-Type': 'application/json' },
          setupRequest: (req) => ({
            ...req,
            path: `/api/dcim/sites/${siteIds[(next = (next + stride) % siteIds.length)]}/`,
            body: JSON.stringify({ description: `edited ${next}` }),
          }),
        },
      ],
      probe: () => ({
        method: 'PATCH',
        path: `/api/dcim/sites/${siteIds[0]}/`,
        body: JSON.stringify({ description: 'edited' }),
      }),
    },
    {
      name: 'filtered',
      title: `filtered list (status=active, tenant_id; ${filterTenant.activeSites} match)`,
      connections,
      timeout: 60,
      requests: get(filtered),
      probe: () => ({ method: 'GET', path: filtered }),
    },
    {
      name: 'detail',
      title: 'detail GET, random site id',
      connections,
      timeout: 60,
      requests: () => [{ method: 'GET', setupRequest: (req) => ({ ...req, path: randomDetail() }) }],
      probe: () => ({ method: 'GET', path: randomDetail() }),
    },
    {
      name: 'brief',
      title: 'brief list, page of 50',
      connections,
      timeout: 60,
      requests: get('/api/dcim/sites/?brief=1&limit=50'),
      probe: () => ({ method: 'GET', path: '/api/dcim/sites/?brief=1&limit=50' }),
    },
    {
      name: 'bulk-create',
      title: `bulk create, 1,000 sites/request, ${bulkConnections} connections`,
      connections: bulkConnections,
      objectsPerRequest: 1000,
      timeout: 60,
      requests: () => [
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: bulkSitesBody(1000) }),
        },
      ],
      probe: () => ({ method: 'POST', path: '/api/dcim/sites/', body: bulkSitesBody(1000) }),
    },
  ];
}

/**
 * autocannon stops at its deadline and abandons the requests in flight, which the server still
 * finishes (PGlite one query at a time): slow scenarios would leak that backlog into the next run.
 * One cheap request queued behind them answers once they are done.
 */
export async function settle(base: string, token: string): Promise<void> {
  await fetch(`${base}/api/dcim/sites/?brief=1&limit=1`, {
    headers: { Authorization: `Token ${token}` },
    signal: AbortSignal.timeout(120_000),
  })
    .then((r) => r.arrayBuffer())
    .catch(() => undefined);
}

export async function runScenario(s: Scenario, base: string, token: string, duration: number): Promise<ScenarioResult> {
  const requests = s.requests().map((r) => ({ path: '/api/dcim/sites/', ...r }));
  const r = await autocannon({
    url: base,
    connections: s.connections,
    duration,
    timeout: s.timeout,
    pipelining: 1,
    headers: { Authorization: `Token ${token}`, Accept: 'application/json' },
    requests,
  });
  const out: ScenarioResult = {
    name: s.name,
    title: s.title,
    connections: s.connections,
    durationSec: r.duration,
    requests: r.requests.total,
    reqPerSecMean: r.requests.average,
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    latencyMeanMs: r.latency.average,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
  };
  if (s.objectsPerRequest) {
    out.objectsPerSec = r.requests.average * s.objectsPerRequest;
    // only 2xx requests wrote objects; a cross-check that does not depend on per-second sampling
    out.objectsPerSecFromTotal = (r['2xx'] * s.objectsPerRequest) / r.duration;
  }
  return out;
}
