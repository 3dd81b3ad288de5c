/**
 * `inventory serve`: one process, or with `--workers N` / WORKERS a node:cluster primary and N
 * worker processes on one port (README.md in this folder). The same entry runs in every process:
 * a forked worker starts the CLI again and lands here with cluster.isWorker set.
 */
import cluster from 'node:cluster';
import type { Config } from '../config.js';
import { createLogger } from '../logger.js';
import { boundHeapGrowth } from './heap-growth.js';
import { runClusterWorker } from './cluster-worker.js';
import { runPrimary } from './primary.js';
import { serveSingle } from './single.js';
import { resolveWorkerCount } from './worker-count.js';

export interface ServeOptions {
  /** `serve --demo`: load the demo network before serving, when the inventory holds no site yet */
  demo?: boolean;
}

export async function serve(config: Config, opts: ServeOptions = {}): Promise<void> {
  const log = createLogger(config);
  // every serving process: the single one, the cluster primary and each worker
  boundHeapGrowth();
  if (cluster.isWorker) return runClusterWorker(config, log);
  const { count, warning } = resolveWorkerCount(config);
  if (warning) log.warn(warning);
  // one process: no primary at all, so a single-process start pays nothing for the cluster
  if (count === 1) return serveSingle(config, log, opts);
  return runPrimary(config, count, log, opts);
}
