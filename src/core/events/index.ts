/**
 * Starting a webhook worker for an app context from its settings (config.events), and wiring the
 * wake-up that the outbox (enqueue.ts) calls after a commit that queued deliveries.
 */
import type { AppContext } from '../context.js';
import { type EventWorker, startEventWorker } from './worker.js';

export function attachEventWorker(ctx: AppContext, overrides: { name?: string; pollMs?: number } = {}): EventWorker {
  const s = ctx.config.events;
  const worker = startEventWorker(ctx, {
    name: overrides.name,
    concurrency: s.concurrency,
    pollMs: overrides.pollMs ?? 1_000,
    leaseMs: s.lease * 1000,
    timeoutMs: s.timeout * 1000,
    retryMax: s.retryMax,
    retryIntervalMs: s.retryInterval * 1000,
  });
  ctx.wakeEventWorker = worker.wake;
  return worker;
}
