/**
 * The pure parts of `serve --workers N` (src/serve/, http/metrics/cluster-scrape.ts): the worker
 * count per engine, the restart backoff, and the aggregation of several workers' families (the
 * process tests are in test/serve/).
 */
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import {
  CELL_BOUNDS,
  DJANGO_BOUNDS,
  derivedCounter,
  derivedGauge,
  derivedHistogram,
  LatencyCell,
} from '../../src/http/metrics/cells.js';
import { aggregateExposition } from '../../src/http/metrics/cluster-scrape.js';
import { FIRST_DELAY_MS, HEALTHY_MS, MAX_DELAY_MS, nextRestartDelay } from '../../src/serve/restart-backoff.js';
import { resolveWorkerCount } from '../../src/serve/worker-count.js';
import { servingProcessEnv } from '../../src/serve/malloc-arenas.js';
import { parseExposition } from '../helpers/prometheus.js';

describe('WORKERS and --workers', () => {
  it('reads a count or auto, and the flag wins over the environment', () => {
    expect(loadConfig({}).workers).toBeNull();
    expect(loadConfig({ WORKERS: 'auto' }).workers).toBeNull();
    expect(loadConfig({ WORKERS: '3' }).workers).toBe(3);
    expect(loadConfig({ WORKERS: '3' }, { WORKERS: '5' }).workers).toBe(5);
    expect(() => loadConfig({ WORKERS: '0' })).toThrow(/positive integer or auto/);
    expect(() => loadConfig({ WORKERS: 'many' })).toThrow(/positive integer or auto/);
  });

  it('runs one per core on PostgreSQL unless told, and always one on PGlite', () => {
    const pgUrl = 'postgres://x@127.0.0.1/db';
    expect(resolveWorkerCount({ workers: null, databaseUrl: pgUrl }, 8)).toEqual({ count: 8, warning: null });
    expect(resolveWorkerCount({ workers: 3, databaseUrl: pgUrl }, 8)).toEqual({ count: 3, warning: null });
    expect(resolveWorkerCount({ workers: null, databaseUrl: null }, 8)).toEqual({ count: 1, warning: null });
    const asked = resolveWorkerCount({ workers: 4, databaseUrl: null }, 8);
    expect(asked.count).toBe(1);
    expect(asked.warning).toMatch(/WORKERS=4 ignored.*one process only/);
  });
});

describe("the serving processes' malloc arenas", () => {
  it('are two unless the environment says otherwise', () => {
    expect(servingProcessEnv({})).toEqual({ MALLOC_ARENA_MAX: '2' });
    expect(servingProcessEnv({ MALLOC_ARENA_MAX: '8' })).toEqual({ MALLOC_ARENA_MAX: '8' });
  });
});

describe('restart backoff', () => {
  it('doubles for a worker that keeps dying soon after its start, up to the maximum, and starts over after a healthy run', () => {
    const state = { quickFailures: 0 };
    const delays = Array.from({ length: 10 }, () => nextRestartDelay(state, 100));
    expect(delays.slice(0, 4)).toEqual([FIRST_DELAY_MS, FIRST_DELAY_MS * 2, FIRST_DELAY_MS * 4, FIRST_DELAY_MS * 8]);
    expect(delays.at(-1)).toBe(MAX_DELAY_MS);
    expect(nextRestartDelay(state, HEALTHY_MS)).toBe(FIRST_DELAY_MS);
  });
});

/** the families one worker would send: a counter, a per-process gauge, a database-wide gauge, a histogram from cells */
async function workerFamilies(requests: number, latencies: number[], objects: number) {
  const registry = new Registry();
  derivedCounter(
    { registry, name: 'django_http_requests_total_by_method_total', help: 'h', labelNames: ['method'] },
    () => [{ labels: { method: 'GET' }, value: requests }],
  );
  derivedGauge({ registry, name: 'inventory_db_connections_max', help: 'h' }, () => [{ labels: {}, value: 10 }]);
  derivedGauge(
    { registry, name: 'inventory_model_objects', help: 'h', labelNames: ['model'], aggregator: 'max' },
    () => [{ labels: { model: 'dcim.site' }, value: objects }],
  );
  const cell = new LatencyCell();
  for (const s of latencies) cell.observe(s);
  derivedHistogram(
    { registry, name: 'django_http_requests_latency_including_middlewares_seconds', help: 'h' },
    DJANGO_BOUNDS,
    () => [{ labels: {}, cell }],
  );
  return registry.getMetricsAsJSON();
}

describe("aggregating the workers' families", () => {
  it('sums counters, histograms (buckets, sum, count) and per-process gauges; a database-wide gauge is one figure', async () => {
    expect(CELL_BOUNDS).toContain(0.05);
    const one = await workerFamilies(5, [0.001, 0.02, 0.2], 7);
    const two = await workerFamilies(3, [0.04, 3], 7);
    const text = await aggregateExposition(
      [
        { slot: 1, families: one },
        { slot: 2, families: two },
      ],
      { configured: 3, restarts: 1, own: [] },
    );
    const m = parseExposition(text);
    expect(m.value('django_http_requests_total_by_method_total', { method: 'GET' })).toBe(8);
    expect(m.value('inventory_db_connections_max')).toBe(20);
    expect(m.value('inventory_model_objects', { model: 'dcim.site' })).toBe(7);
    const h = 'django_http_requests_latency_including_middlewares_seconds';
    expect(m.value(`${h}_count`)).toBe(5);
    expect(m.value(`${h}_sum`)).toBeCloseTo(3.261, 6);
    expect(m.value(`${h}_bucket`, { le: '0.01' })).toBe(1);
    expect(m.value(`${h}_bucket`, { le: '0.05' })).toBe(3);
    expect(m.value(`${h}_bucket`, { le: '2.5' })).toBe(4);
    expect(m.value(`${h}_bucket`, { le: '+Inf' })).toBe(5);
    expect(m.value('inventory_cluster_worker_requests_total', { worker: '1' })).toBe(5);
    expect(m.value('inventory_cluster_worker_requests_total', { worker: '2' })).toBe(3);
    // one of three did not answer in time: the scrape says so
    expect(m.value('inventory_cluster_workers', { state: 'configured' })).toBe(3);
    expect(m.value('inventory_cluster_workers', { state: 'answered' })).toBe(2);
    expect(m.value('inventory_cluster_worker_restarts_total')).toBe(1);
  });
});
