/**
 * How many processes `serve` runs, so a PostgreSQL deployment uses every core (docs/postgresql.md,
 * "Several processes on one machine"). PostgreSQL: WORKERS / --workers, by
 * default one per core. PGlite: always one. PGlite is PostgreSQL compiled to WebAssembly inside
 * the process, with no shared memory or lock between processes: two processes opening one
 * DATA_DIR would each write its own copy of the same files and corrupt them (db/data-dir-lock.ts
 * refuses the second). An explicit request
 * for more is answered with a warning and one process rather than a refusal, so a WORKERS setting
 * meant for a PostgreSQL deployment does not stop `npm start` on a machine without one.
 */
import { availableParallelism } from 'node:os';
import type { Config } from '../config.js';

export interface WorkerCount {
  count: number;
  /** said to the person who started the service when the request could not be followed */
  warning: string | null;
}

export function resolveWorkerCount(
  config: Pick<Config, 'workers' | 'databaseUrl'>,
  cores = availableParallelism(),
): WorkerCount {
  if (!config.databaseUrl) {
    const asked = config.workers ?? 1;
    const warning =
      asked > 1
        ? `WORKERS=${asked} ignored: the embedded PGlite database can be opened by one process only, so the service runs as one process. Set DATABASE_URL to a PostgreSQL server to run several.`
        : null;
    return { count: 1, warning };
  }
  return { count: config.workers ?? Math.max(1, cores), warning: null };
}
