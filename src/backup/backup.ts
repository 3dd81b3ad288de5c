/**
 * `inventory backup FILE`: every application table in one REPEATABLE READ, READ ONLY transaction
 * (one snapshot: rows committed after it began are not in the file, whatever the service writes
 * meanwhile), streamed table by table in primary-key pages into a gzip'd JSON Lines file (format.ts).
 * Written to FILE.partial and renamed when whole, so a failed run never leaves a file that looks good.
 */
import { createHash } from 'node:crypto';
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { once } from 'node:events';
import { createGzip, type Gzip } from 'node:zlib';
import { sql } from 'kysely';
import type { Database, Kdb } from '../db/client.js';
import { resolveStored } from '../core/media/media-store.js';
import {
  BackupError,
  type BackupHeader,
  FORMAT,
  FORMAT_VERSION,
  mediaKey,
  serviceVersion,
  type TableSummary,
} from './format.js';
import { listTables, loadOrder, type TableInfo } from './tables.js';

const PAGE = 2_000;

export interface BackupResult {
  tables: number;
  rows: number;
  bytes: number;
  /** media files in the file */
  media: number;
  /** media files the rows name that MEDIA_ROOT no longer holds */
  missingMedia: string[];
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

/** waits for room in the stream, or fails when it closes (an HTTP client that went away), so the snapshot's transaction never waits forever */
async function drained(gzip: Gzip): Promise<void> {
  const ac = new AbortController();
  try {
    await Promise.race([
      once(gzip, 'drain', { signal: ac.signal }),
      once(gzip, 'close', { signal: ac.signal }).then(() => {
        throw new BackupError('the backup was stopped: its reader went away');
      }),
    ]);
  } finally {
    ac.abort();
  }
}

/**
 * Writes a backup into `gzip` (a gzip stream whose output goes to a file or an HTTP response) and
 * ends it; on failure the stream is destroyed, so the receiver never sees a trailer.
 */
/**
 * The media files the snapshot's rows name (image attachments' images), read now: a name the media
 * store could not have made, or a file gone from MEDIA_ROOT, is left out and counted
 */
async function mediaFiles(
  trx: Kdb,
  mediaRoot: string | undefined,
): Promise<{ files: Map<string, Buffer>; missing: string[] }> {
  const files = new Map<string, Buffer>();
  const missing: string[] = [];
  if (!mediaRoot) return { files, missing };
  const { rows } = await sql<{
    image: string;
  }>`select distinct image from extras_imageattachment where image <> '' order by image`.execute(trx);
  for (const { image } of rows) {
    const path = resolveStored(mediaRoot, image);
    try {
      if (!path) throw new Error('not a stored name');
      files.set(image, await readFile(path));
    } catch {
      missing.push(image);
    }
  }
  return { files, missing };
}

export async function streamBackup(db: Database, gzip: Gzip, opts: { mediaRoot?: string } = {}): Promise<BackupResult> {
  let bytes = 0;
  const write = async (line: string) => {
    bytes += Buffer.byteLength(line) + 1;
    if (gzip.destroyed) throw new BackupError('the backup was stopped: its reader went away');
    if (!gzip.write(`${line}\n`)) await drained(gzip);
  };
  let total = 0;
  let tableCount = 0;
  let mediaCount = 0;
  let missing: string[] = [];
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
        const media = await mediaFiles(trx, opts.mediaRoot);
        missing = media.missing;
        const header: BackupHeader = {
          format: FORMAT,
          formatVersion: FORMAT_VERSION,
          serviceVersion: serviceVersion(),
          migrations: migrations.rows.map((r) => r.name),
          created: new Date().toISOString(),
          engine: db.engine,
          tables: Object.fromEntries(counts.rows.map((r) => [r.name, r.n])),
          media: Object.fromEntries([...media.files].map(([name, bytes]) => [name, bytes.length])),
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
        for (const [name, bytes] of media.files) {
          await write(JSON.stringify(['media', name]));
          const line = JSON.stringify({ base64: bytes.toString('base64') });
          summary[mediaKey(name)] = { rows: 1, sha256: createHash('sha256').update(line).update('\n').digest('hex') };
          await write(line);
          mediaCount++;
        }
        await write(JSON.stringify(['end', summary]));
      });
    gzip.end();
  } catch (err) {
    gzip.destroy(err as Error);
    throw err;
  }
  return { tables: tableCount, rows: total, bytes, media: mediaCount, missingMedia: missing };
}

/** `inventory backup FILE` on a database this process opened; FILE appears only when whole. */
export async function writeBackup(
  db: Database,
  file: string,
  opts: { mediaRoot?: string } = {},
): Promise<BackupResult> {
  const partial = `${file}.partial`;
  const gzip = createGzip();
  const out = createWriteStream(partial);
  // a failure destroys gzip with the error, which streamBackup throws: nothing more to do with it
  gzip.on('error', () => undefined);
  gzip.pipe(out);
  try {
    const result = await streamBackup(db, gzip, opts);
    await once(out, 'close');
    renameSync(partial, file);
    return result;
  } catch (err) {
    out.destroy();
    rmSync(partial, { force: true });
    throw err;
  }
}
