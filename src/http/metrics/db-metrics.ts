/**
 * Database metrics: every statement (Kysely's log hook, db/client.ts observeStatements) adds into
 * one latency cell; errors are counted by type; the pool is read when /metrics is scraped.
 * django-prometheus's labels are `alias` (Django's database name, NetBox's is `default`) and
 * `vendor` (`postgresql` on both engines: PGlite is PostgreSQL). Begin, commit and rollback are
 * statements sent like any other and are counted (Django's cursor wrapper does not see them).
 */
import type { Registry as PromRegistry } from 'prom-client';
import type { Database } from '../../db/client.js';
import { CELL_BOUNDS, DJANGO_BOUNDS, derivedCounter, derivedGauge, derivedHistogram, LatencyCell } from './cells.js';

const DB_LABELS = { alias: 'default', vendor: 'postgresql' };
/** the service's own statement buckets (seconds): most statements take well under a millisecond */
const OWN_BOUNDS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
if (OWN_BOUNDS.some((b) => !CELL_BOUNDS.includes(b))) throw new Error('db-metrics: bounds must be cell bounds');

/**
 * The exception type Django's PostgreSQL backend would raise (PEP 249 classes by SQLSTATE class),
 * which is the `type` label django_db_errors_total carries; other errors keep their class name.
 */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string' || code.length !== 5) return (error as Error | null)?.constructor?.name || 'Error';
  switch (code.slice(0, 2)) {
    case '23':
      return 'IntegrityError';
    case '22':
      return 'DataError';
    case '42':
      return 'ProgrammingError';
    case '0A':
      return 'NotSupportedError';
    case 'XX':
      return 'InternalError';
    case '08':
    case '40':
    case '53':
    case '55':
    case '57':
    case '58':
      return 'OperationalError';
    default:
      return 'DatabaseError';
  }
}

/** Starts counting the statements of `db`; returns the function that stops it (app close). */
export function registerDbMetrics(registry: PromRegistry, db: Database): () => void {
  const statements = new LatencyCell();
  const errors = new Map<string, number>();
  const stop = db.observeStatements((ms, error) => {
    statements.observe(ms / 1000);
    if (error !== undefined) {
      const type = errorType(error);
      errors.set(type, (errors.get(type) ?? 0) + 1);
    }
  });
  const labelNames = Object.keys(DB_LABELS);
  const family = (name: string, help: string, extra: string[] = []) => ({
    registry,
    name,
    help,
    labelNames: [...labelNames, ...extra],
  });

  derivedCounter(
    family(
      'django_db_execute_total',
      'Counter of executed statements by database and by vendor, including bulk executions.',
    ),
    () => [{ labels: DB_LABELS, value: statements.count }],
  );
  derivedHistogram(
    family('django_db_query_duration_seconds', 'Histogram of query duration by database and vendor.'),
    DJANGO_BOUNDS,
    () => [{ labels: DB_LABELS, cell: statements }],
  );
  derivedCounter(
    family('django_db_errors_total', 'Counter of execution errors by database, vendor and exception type.', ['type']),
    () => [...errors].map(([type, value]) => ({ labels: { ...DB_LABELS, type }, value })),
  );
  derivedCounter(
    family('django_db_new_connections_total', 'Counter of created connections by database and by vendor.'),
    () => [{ labels: DB_LABELS, value: db.pool().opened }],
  );

  // the service's own
  const own = (name: string, help: string, extra: string[] = []) => ({
    registry,
    name,
    help,
    labelNames: ['engine', ...extra],
  });
  const engine = { engine: db.engine };
  derivedHistogram(
    own('inventory_db_statement_duration_seconds', 'Time of each database statement (transaction control included).'),
    OWN_BOUNDS,
    () => [{ labels: engine, cell: statements }],
  );
  derivedGauge(
    own('inventory_db_connections', 'Database connections by state (PGlite: its one connection).', ['state']),
    () => {
      const p = db.pool();
      return [
        { labels: { ...engine, state: 'in_use' }, value: p.open - p.idle },
        { labels: { ...engine, state: 'idle' }, value: p.idle },
      ];
    },
  );
  derivedGauge(own('inventory_db_connections_waiting', 'Queries waiting for a free database connection.'), () => [
    { labels: engine, value: db.pool().waiting },
  ]);
  derivedGauge(
    own(
      'inventory_db_connections_max',
      'Most database connections the service opens (DATABASE_POOL_SIZE; with several worker processes, their sum).',
    ),
    () => [{ labels: engine, value: db.pool().max }],
  );
  return stop;
}
