/**
 * Read replicas (db/replicas/README.md), read from the replica set's own tallies at scrape time;
 * registered only with DATABASE_REPLICA_URLS. Where the reads went, how far behind each replica
 * is, and what asking the primary for the readers' write positions costs (db/replicas/fence-batch.ts).
 */
import type { Registry as PromRegistry } from 'prom-client';
import type { ReplicaSet } from '../../db/replicas/replica-set.js';
import { derivedCounter, derivedGauge } from './cells.js';

export function registerReplicaMetrics(registry: PromRegistry, replicas: ReplicaSet): void {
  derivedCounter(
    {
      registry,
      name: 'inventory_replica_statements_total',
      help: 'Statements of read requests answered on each replica.',
      labelNames: ['replica'],
    },
    () => replicas.nodes.map((n, i) => ({ labels: { replica: String(i + 1) }, value: n.reads })),
  );
  derivedCounter(
    {
      registry,
      name: 'inventory_replica_primary_reads_total',
      help: "Read requests sent to the primary because no replica had replayed the reader's last write in time.",
    },
    () => [{ labels: {}, value: replicas.primaryReads }],
  );
  derivedGauge(
    {
      registry,
      name: 'inventory_replica_lag_seconds',
      help: 'How far behind each replica is: the age of the oldest write it has not replayed.',
      labelNames: ['replica'],
    },
    () => replicas.nodes.map((n, i) => ({ labels: { replica: String(i + 1) }, value: n.view().lagMs / 1000 })),
  );
  derivedCounter(
    {
      registry,
      name: 'inventory_replica_write_position_lookups_total',
      help: 'Readers whose last write position was asked of the primary (one per signed-in read).',
    },
    () => [{ labels: {}, value: replicas.fences.lookups }],
  );
  derivedCounter(
    {
      registry,
      name: 'inventory_replica_write_position_statements_total',
      help: 'Statements on the primary that asked for those positions: readers arriving together share one.',
    },
    () => [{ labels: {}, value: replicas.fences.statements }],
  );
}
