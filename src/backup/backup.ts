/**
 * `inventory backup FILE`: every application table in one REPEATABLE READ, READ ONLY transaction
 * (one snapshot: rows committed after it began are not in the file, whatever the service writes
 * meanwhile), streamed table by table in primary-key pages into a gzip'd JSON Lines file (format.ts).
 * Written to FILE.partial and renamed when whole, so a failed run never leaves a file that looks good.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { createGzip } from 'node:zlib';
import { sql } from 'kysely';
import type { Database, Kdb } from '../db/client.js';
import { type BackupHeader, FORMAT, FORMAT_VERSION, serviceVersion, type TableSummary } from './format.js';
import { listTables, loadOrder, type TableInfo } from './tables.js';

const PAGE = 2_000;

export interface BackupResult {
  tables: number;
  rows: number;
  bytes: number;
}

/** one page of a table after the row `after` (its JSON), in primary-key order */
async function page(trx: Kdb, t: TableInfo, after: string | null): Promise<string[]> {
  const table = sql.table(t.name);
  const pk = sql.join(t.primaryKey.map((c) => sql.ref(`t.${c}`)));
  const lastPk = sql.join(t.primaryKey.map((c) => sql.ref(`l.${c}`)));
  const cols = sql.join(t.columns.map((c) => sql.ref(`t.${c}`)));
  // the row is rebuilt from its stored columns only (generated ones are recomputed on restore)
  const where =
    after === null
      ? sql``
      : sql`where (${pk}) > (select ${lastPk} from json_populate_record(null::${table}, ${after}::json) l)`;
  const { rows } = await sql<{ j: string }>`
    select row_to_json(r)::text as j from (select ${cols} from ${table} t ${where} order by ${pk} limit ${PAGE}) r`.execute(
    trx,
  );
  return rows.map((r) => r.j);
}

export async function writeBackup(db: Database, file: string): Promise<BackupResult> {
  const partial = `${file}.partial`;
  const gzip = createGzip();
  const out = createWriteStream(partial);
  gzip.pipe(out);
  let bytes = 0;
  const write = async (line: string) => {
    bytes += Buffer.byteLength(line) + 1;
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  let total = 0;
  let tableCount = 0;
  try {
    await db.kysely
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        await sql`set transaction read only`.execute(trx);
        // times as UTC whatever the server's setting, so both engines write the same text for the same rows
        await sql`set local time zone 'UTC'`.execute(trx);
        const migrations = await sql<{ name: string }>`select name from schema_migrations order by name`.execute(trx);
        // parents first, so a restore that may not switch off foreign-key checks can load in file order
        const found = await listTables(trx);
        const byName = new Map(found.map((t) => [t.name, t]));
        const tables = (await loadOrder(trx, [...byName.keys()])).map((n) => byName.get(n)!);
        const counts = await sql<{ name: string; n: number }>`${sql.join(
          tables.map((t) => sql`select ${t.name}::text as name, count(*)::int as n from ${sql.table(t.name)}`),
          sql` union all `,
        )}`.execute(trx);
        const header: BackupHeader = {
          format: FORMAT,
          formatVersion: FORMAT_VERSION,
          serviceVersion: serviceVersion(),
          migrations: migrations.rows.map((r) => r.name),
          created: new Date().toISOString(),
          engine: db.engine,
          tables: Object.fromEntries(counts.rows.map((r) => [r.name, r.n])),
        };
        await write(JSON.stringify(header));
        const summary: Record<string, TableSummary> = {};
        for (const t of tables) {
          await write(JSON.stringify(['table', t.name]));
          const hash = createHash('sha256');
          let rows = 0;
          let after: string | null = null;
          for (;;) {
            const lines = await page(trx, t, after);
            for (const line of lines) {
              hash.update(line).update('\n');
              await write(line);
            }
            rows += lines.length;
            if (lines.length < PAGE) break;
            after = lines[lines.length - 1]!;
          }
          summary[t.name] = { rows, sha256: hash.digest('hex') };
          total += rows;
        }
        tableCount = tables.length;
        await write(JSON.stringify(['end', summary]));
      });
    gzip.end();
    await once(out, 'close');
    renameSync(partial, file);
  } catch (err) {
    gzip.destroy();
    out.destroy();
    rmSync(partial, { force: true });
    throw err;
  }
  return { tables: tableCount, rows: total, bytes };
}
