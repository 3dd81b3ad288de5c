/**
 * What the system page (web/pages/system.page.ts) shows and exports for a support request (NetBox
 * 4's SystemView: release, runtime, database, configuration): the service's version, Node's, the
 * database engine with its server version and size, the migrations applied and pending
 * (db/migrate.ts), the configuration with secrets hidden, and how many objects each model has.
 * Superusers only: the caller checks.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'kysely';
import type { AppContext } from '../context.js';
import { listMigrations } from '../../db/migrate.js';
import { pgliteVersion } from '../../db/pglite-snapshot.js';
import { redactedConfig } from './redact-config.js';

export interface SystemInfo {
  version: string | null;
  node: string;
  database: { engine: 'pglite' | 'postgres'; engineVersion: string | null; serverVersion: string; sizeBytes: number };
  migrations: { applied: Array<{ name: string; applied_at: string }>; pending: string[] };
  config: Record<string, unknown>;
  /** model identity -> rows, every registered model */
  objectCounts: Record<string, number>;
}

function packageVersion(): string | null {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version?: string;
    };
    return pkg.version ?? null;
  } catch {
    // a bundled build has no package.json beside it
    return null;
  }
}

/** every model's rows in one statement (a count per table, unioned), not one round trip per model */
async function objectCounts(ctx: AppContext): Promise<Record<string, number>> {
  const { rows } = await sql<{ model: string; n: string }>`${sql.join(
    ctx.registry.all().map((m) => sql`select ${m.name}::text as model, count(*)::text as n from ${sql.table(m.table)}`),
    sql` union all `,
  )}`.execute(ctx.db.kysely);
  return Object.fromEntries(rows.map((r) => [r.model, Number(r.n)] as const).sort(([a], [b]) => (a < b ? -1 : 1)));
}

export async function systemInfo(ctx: AppContext): Promise<SystemInfo> {
  const q = ctx.db.kysely;
  const server = await sql<{ version: string; size: string }>`select current_setting('server_version') as version,
    pg_database_size(current_database())::text as size`.execute(q);
  const applied = await sql<{
    name: string;
    applied_at: Date | string;
  }>`select name, applied_at from schema_migrations order by name`.execute(q);
  const done = new Set(applied.rows.map((r) => r.name));
  return {
    version: packageVersion(),
    node: process.version,
    database: {
      engine: ctx.db.engine,
      engineVersion: ctx.db.engine === 'pglite' ? pgliteVersion() : null,
      serverVersion: server.rows[0]!.version,
      sizeBytes: Number(server.rows[0]!.size),
    },
    migrations: {
      applied: applied.rows.map((r) => ({
        name: r.name,
        applied_at: r.applied_at instanceof Date ? r.applied_at.toISOString() : String(r.applied_at),
      })),
      pending: listMigrations().filter((n) => !done.has(n)),
    },
    config: redactedConfig(ctx.config),
    objectCounts: await objectCounts(ctx),
  };
}
