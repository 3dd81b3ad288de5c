/**
 * Cache metrics, read from the caches' own tallies at scrape time (nothing added to the read
 * path). The response cache (core/query/response-cache.ts) counts a hit when it serves stored
 * bytes and a miss when it is asked for a URL it has seen before but holds no fresh entry for; a
 * URL's first read is neither, since it is not stored. The count cache counts the list totals it
 * served.
 */
import type { Registry as PromRegistry } from 'prom-client';
import type { AppContext } from '../../core/context.js';
import { derivedCounter, derivedGauge } from './cells.js';

export function registerCacheMetrics(registry: PromRegistry, ctx: AppContext): void {
  const responses = ctx.responses;
  if (responses) {
    derivedCounter(
      {
        registry,
        name: 'inventory_response_cache_requests_total',
        help: 'Reads of the rendered-response cache: hit (served stored bytes) or miss (rendered again).',
        labelNames: ['result'],
      },
      () => {
        const s = responses.stats;
        return [
          { labels: { result: 'hit' }, value: s.hits },
          { labels: { result: 'miss' }, value: s.misses },
        ];
      },
    );
    derivedGauge(
      {
        registry,
        name: 'inventory_response_cache_bytes',
        help: 'Bytes held by the rendered-response cache (bodies and keys).',
      },
      () => [{ labels: {}, value: responses.stats.bytes }],
    );
    derivedGauge(
      { registry, name: 'inventory_response_cache_entries', help: 'Responses held by the rendered-response cache.' },
      () => [{ labels: {}, value: responses.stats.entries }],
    );
  }
  derivedCounter(
    {
      registry,
      name: 'inventory_count_cache_hits_total',
      help: 'List totals served from the count cache instead of counted.',
    },
    () => [{ labels: {}, value: ctx.counts.stats.hits }],
  );
}
