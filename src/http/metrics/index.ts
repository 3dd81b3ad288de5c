/**
 * `/metrics` for a Prometheus scraper (spec: What the service does 4; reference 14): the text
 * exposition of one prom-client registry per app (tests build many apps in one process, so never
 * prom-client's global registry). Like NetBox's, it needs no token, even with LOGIN_REQUIRED, and
 * has no trailing slash. With METRICS_ENABLED=false none of this is installed: no route (a JSON
 * 404), no hooks, no statement listener. Flow and names: README.md in this folder.
 */
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Registry as PromRegistry } from 'prom-client';
import type { AppContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import { answerCollects, askPrimaryForMetrics } from './cluster-scrape.js';
import { registerCacheMetrics } from './cache-metrics.js';
import { registerDbMetrics } from './db-metrics.js';
import { createModelWriteCounter, registerModelMetrics, type WriteTotals } from './model-metrics.js';
import { registerReplicaMetrics } from './replica-metrics.js';
import { registerRequestMetrics } from './request-metrics.js';

export interface Metrics {
  registry: PromRegistry;
  /** committed writes per model; handed to the write path as AppContext.modelWrites */
  writes: WriteTotals;
}

/** The registry and the write counter; made before the AppContext, which carries the counter. */
export function createMetrics(): Metrics {
  const registry = new PromRegistry();
  // process_* and nodejs_* series (CPU, memory, event loop lag, GC), as NetBox exposes process_*
  collectDefaultMetrics({ register: registry });
  return { registry, writes: createModelWriteCounter() };
}

/**
 * Installs the hooks and the route (before the app is ready). `clustered`: this process is one of
 * `serve --workers N`; a scrape then answers for all of them (cluster-scrape.ts).
 */
export function registerMetrics(app: FastifyInstance, ctx: AppContext, metrics: Metrics, clustered = false): void {
  const { registry } = metrics;
  registerRequestMetrics(app, registry, ctx.registry);
  const stopDb = registerDbMetrics(registry, ctx.db);
  app.addHook('onClose', async () => stopDb());
  registerModelMetrics(registry, metrics.writes, ctx.db, ctx.registry);
  registerCacheMetrics(registry, ctx);
  if (ctx.db.replicas) registerReplicaMetrics(registry, ctx.db.replicas);

  if (clustered) {
    const stop = answerCollects(registry);
    app.addHook('onClose', async () => stop());
  }
  const exposition = async () => {
    if (!clustered) return registry.metrics();
    const text = await askPrimaryForMetrics();
    // never this process's figures alone: the service's counters would seem to jump back and forth
    if (text === null) throw Errors.metricsUnavailable();
    return text;
  };

  app.route({
    method: ['GET', 'HEAD'],
    url: '/metrics',
    // NetBox: a plain Django view, outside the API's authentication
    config: { public: true, noAuth: true, allow: 'GET, HEAD' },
    handler: async (_request, reply) => reply.type(registry.contentType).send(await exposition()),
  });
}
