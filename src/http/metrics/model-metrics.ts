/**
 * Model metrics: committed writes per model and action (the write path reports them after commit,
 * core/crud/changelog.ts), and the number of objects per model, estimated by PostgreSQL.
 *
 * Object counts are never counted at scrape time (a count(*) of 100,000 addresses per scrape, per
 * process): one statement reads PostgreSQL's own figures for every model table at once - the
 * statistics' live row count (`pg_stat_user_tables.n_live_tup`, moved by every committed insert
 * and delete within a second or so), or, while the statistics have seen no activity on the table
 * since they were last reset, the planner's estimate from the last ANALYZE (`pg_class.reltuples`).
 * On PGlite this process is the only backend, so its pending statistics are flushed first and the
 * figure is current.
 */
import { sql } from 'kysely';
import type { Registry as PromRegistry } from 'prom-client';
import type { ModelWriteCounter, WriteCounts } from '../../core/context.js';
import type { Registry } from '../../core/model/registry.js';
import type { ModelDef } from '../../core/model/types.js';
import type { Database } from '../../db/client.js';
import { derivedCounter, derivedGauge } from './cells.js';

export type WriteTotals = ModelWriteCounter & { totals: Map<ModelDef, WriteCounts> };

/** Counts committed writes in plain numbers; the counters read them at scrape time. */
export function createModelWriteCounter(): WriteTotals {
  const totals = new Map<ModelDef, WriteCounts>();
  return {
    totals,
    written(model, counts) {
      let t = totals.get(model);
      if (!t) totals.set(model, (t = { create: 0, update: 0, delete: 0 }));
      t.create += counts.create;
      t.update += counts.update;
      t.delete += counts.delete;
    },
  };
}

const DJANGO_NAMES: Array<[keyof WriteCounts, string, string]> = [
  ['create', 'django_model_inserts_total', 'Number of insert operations by model.'],
  ['update', 'django_model_updates_total', 'Number of update operations by model.'],
  ['delete', 'django_model_deletes_total', 'Number of delete operations by model.'],
];

export function registerModelMetrics(
  registry: PromRegistry,
  writes: WriteTotals,
  db: Database,
  models: Registry,
): void {
  // NetBox: `model` is Django's model name (`site`, `ipaddress`)
  for (const [action, name, help] of DJANGO_NAMES) {
    derivedCounter({ registry, name, help, labelNames: ['model'] }, () =>
      [...writes.totals].map(([m, t]) => ({ labels: { model: m.model }, value: t[action] })),
    );
  }
  // the service's own: the full identity (`dcim.site`), as in the change log and webhooks
  derivedCounter(
    {
      registry,
      name: 'inventory_model_writes_total',
      help: 'Objects written by committed requests, by model and action.',
      labelNames: ['model', 'action'],
    },
    () =>
      [...writes.totals].flatMap(([m, t]) =>
        (['create', 'update', 'delete'] as const).map((action) => ({
          labels: { model: m.name, action },
          value: t[action],
        })),
      ),
  );

  // a table may hold more than one model's objects (NetBox 4's object types read the content types)
  const byTable = new Map<string, string[]>();
  for (const m of models.all()) byTable.set(m.table, [...(byTable.get(m.table) ?? []), m.name]);
  const tables = [...byTable.keys()];
  derivedGauge(
    // every worker process reads the same database: one figure, not their sum
    {
      registry,
      name: 'inventory_model_objects',
      help: 'Objects per model, as estimated by PostgreSQL statistics (never counted at scrape time).',
      labelNames: ['model'],
      aggregator: 'max',
    },
    async () => {
      const rows = await estimateRows(db, tables);
      return rows.flatMap((r) =>
        byTable.get(r.name)!.map((model) => ({ labels: { model }, value: Number(r.estimate) })),
      );
    },
  );
}

async function estimateRows(db: Database, tables: string[]): Promise<Array<{ name: string; estimate: number }>> {
  if (db.engine === 'pglite') await sql`select pg_stat_force_next_flush()`.execute(db.kysely);
  const res = await sql<{ name: string; estimate: number }>`
    select t.name,
      case when s.n_tup_ins + s.n_tup_upd + s.n_tup_del > 0
             or greatest(s.last_analyze, s.last_autoanalyze, s.last_vacuum, s.last_autovacuum) is not null
        then s.n_live_tup::float8
        else greatest(c.reltuples, 0)::float8 end as estimate
    from unnest(${tables}::text[]) as t(name)
    join pg_class c on c.oid = to_regclass(t.name)
    left join pg_stat_user_tables s on s.relid = c.oid`.execute(db.kysely);
  return res.rows;
}
