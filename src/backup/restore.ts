/**
 * `inventory restore FILE [--force]`: reads the file once to check it whole (header, versions,
 * every table's row count and SHA-256, the trailer), then brings the target to the file's
 * migration level, then replaces every application table's rows in ONE transaction (a failure
 * rolls it all back), resets the sequences, and migrates forward to this code's level.
 */
import { resetSequences } from '../db/reset-sequences.js';
import { createHash } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { resolveStored } from '../core/media/media-store.js';
import { sql } from 'kysely';
import type { Database, Kdb } from '../db/client.js';
import { listMigrations, migrate, migrationScript } from '../db/migrate.js';
import {
  type BackupHeader,
  BackupError,
  compareVersions,
  FORMAT,
  FORMAT_VERSION,
  mediaKey,
  serviceVersion,
  type TableSummary,
} from './format.js';
import { readLines } from './read-file.js';
import { isSeeded, listTables } from './tables.js';

const BATCH = 1_000;

/** one media file of the file into MEDIA_ROOT under its stored name (checked by verifyBackup) */
async function writeMedia(
  root: string,
  name: string,
  row: Record<string, unknown>,
  written: string[],
  media: { count: number },
): Promise<void> {
  const path = resolveStored(root, name)!;
  const existed = await stat(path).then(
    () => true,
    () => false,
  );
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, Buffer.from(String(row.base64 ?? ''), 'base64'));
  if (!existed) written.push(path);
  media.count++;
}

/** Checks the whole file without writing anything; returns its header. */
export async function verifyBackup(file: string): Promise<BackupHeader> {
  let header: BackupHeader | null = null;
  let current: { name: string; hash: ReturnType<typeof createHash>; rows: number } | null = null;
  const seen: Record<string, TableSummary> = {};
  let trailer: Record<string, TableSummary> | null = null;
  const close = () => {
    if (current) seen[current.name] = { rows: current.rows, sha256: current.hash.digest('hex') };
    current = null;
  };
  for await (const item of readLines(file)) {
    if ('first' in item) {
      header = checkHeader(file, item.first);
      continue;
    }
    if (trailer) throw new BackupError(`${file} is not a backup: lines after its end`);
    if (item.kind === 'row') {
      if (!current) throw new BackupError(`${file} is not a backup: a row before any table`);
      current.hash.update(item.text).update('\n');
      current.rows++;
    } else if (item.value[0] === 'table' && typeof item.value[1] === 'string') {
      close();
      current = { name: item.value[1], hash: createHash('sha256'), rows: 0 };
    } else if (item.value[0] === 'media' && typeof item.value[1] === 'string') {
      close();
      // a name the media store could not have made (`../`, a path) would be written outside MEDIA_ROOT
      if (!resolveStored('/', item.value[1]))
        throw new BackupError(`${file} is not a backup: media file ${JSON.stringify(item.value[1])}`);
      current = { name: mediaKey(item.value[1]), hash: createHash('sha256'), rows: 0 };
    } else if (item.value[0] === 'end' && item.value[1] && typeof item.value[1] === 'object') {
      close();
      trailer = item.value[1] as Record<string, TableSummary>;
    } else throw new BackupError(`${file} is not a backup: unknown marker ${JSON.stringify(item.value[0])}`);
  }
  if (!header) throw new BackupError(`${file} is not a backup`);
  if (!trailer)
    throw new BackupError(
      `${file} is truncated: it ends before the end of table ${current ? (current as { name: string }).name : '?'}`,
    );
  const h: BackupHeader = header;
  const expected: Record<string, TableSummary> = trailer;
  for (const [name, want] of Object.entries(expected)) {
    const got = seen[name];
    const media = name.startsWith(mediaKey(''));
    const listed = media ? (h.media?.[name.slice(mediaKey('').length)] === undefined ? undefined : 1) : h.tables[name];
    if (!got || got.rows !== want.rows || got.rows !== listed)
      throw new BackupError(`${file}: table ${name} has ${got?.rows ?? 0} rows, the file says ${want.rows}`);
    if (got.sha256 !== want.sha256)
      throw new BackupError(`${file}: table ${name} fails its SHA-256 check (altered or damaged)`);
  }
  for (const name of Object.keys(seen))
    if (!expected[name]) throw new BackupError(`${file}: table ${name} is not in the file's checksums`);
  return h;
}

function checkHeader(file: string, value: unknown): BackupHeader {
  const h = value as Partial<BackupHeader> | null;
  if (!h || typeof h !== 'object' || h.format !== FORMAT || !Array.isArray(h.migrations) || !h.tables)
    throw new BackupError(`${file} is not a backup of this service`);
  if (h.formatVersion !== FORMAT_VERSION)
    throw new BackupError(`${file} has backup format ${h.formatVersion}; this code reads format ${FORMAT_VERSION}`);
  const ours = serviceVersion();
  if (compareVersions(String(h.serviceVersion), ours) > 0)
    throw new BackupError(
      `${file} was written by version ${h.serviceVersion}, newer than this code (${ours}); restore it with that version or newer`,
    );
  const known = new Set(listMigrations());
  const unknown = h.migrations.filter((m) => !known.has(m));
  if (unknown.length)
    throw new BackupError(
      `${file} needs migrations this code does not have (${unknown.slice(0, 3).join(', ')}); restore it with newer code`,
    );
  return h as BackupHeader;
}

async function appliedMigrations(db: Database): Promise<string[]> {
  await db.exec(`create table if not exists schema_migrations (
    name text primary key, applied_at timestamptz not null default now())`);
  const { rows } = await sql<{ name: string }>`select name from schema_migrations`.execute(db.kysely);
  return rows.map((r) => r.name);
}

/** the file's migrations the target lacks, in order; refuses a target ahead of the file */
async function migrateToFileLevel(db: Database, header: BackupHeader): Promise<void> {
  const done = await appliedMigrations(db);
  const wanted = new Set(header.migrations);
  const ahead = done.filter((m) => !wanted.has(m)).sort();
  if (ahead.length)
    throw new BackupError(
      `the target database has migrations the file does not (${ahead[0]}${ahead.length > 1 ? ` and ${ahead.length - 1} more` : ''}): restore into a new, empty database`,
    );
  const have = new Set(done);
  for (const name of header.migrations) {
    if (have.has(name)) continue;
    try {
      await db.exec(migrationScript(name));
    } catch (err) {
      await db.exec('rollback').catch(() => undefined);
      throw new Error(`migration ${name} failed: ${(err as Error).message}`);
    }
  }
}

/** tables holding rows other than what migrations put there */
async function nonEmptyTables(trx: Kdb, tables: string[]): Promise<string[]> {
  const data = tables.filter((t) => !isSeeded(t));
  if (!data.length) return [];
  const { rows } = await sql<{ name: string }>`${sql.join(
    data.map((t) => sql`(select ${t}::text as name from ${sql.table(t)} limit 1)`),
    sql` union all `,
  )}`.execute(trx);
  return rows.map((r) => r.name);
}

async function insertBatch(trx: Kdb, table: string, columns: string[], rows: Record<string, unknown>[]) {
  const cols = sql.join(columns.map((c) => sql.ref(c)));
  await sql`insert into ${sql.table(table)} (${cols}) select ${cols} from json_populate_recordset(null::${sql.table(table)}, ${JSON.stringify(rows)}::json)`.execute(
    trx,
  );
}

/**
 * Foreign-key checks off for the load (session_replication_role = replica also skips the
 * row-count triggers, whose tables come from the file): allowed to superusers, which PGlite's
 * user always is. Otherwise the file's parents-first order has to do.
 */
async function relaxChecks(trx: Kdb): Promise<boolean> {
  await sql`savepoint relax`.execute(trx);
  try {
    await sql`set local session_replication_role = replica`.execute(trx);
    await sql`release savepoint relax`.execute(trx);
    return true;
  } catch {
    await sql`rollback to savepoint relax`.execute(trx);
    return false;
  }
}

export interface RestoreResult {
  header: BackupHeader;
  tables: number;
  rows: number;
  /** media files written under MEDIA_ROOT */
  media: number;
  /** migrations applied after the load, to bring the file's data to this code's level */
  migratedAfter: string[];
}

export async function restoreBackup(
  db: Database,
  file: string,
  opts: { force: boolean; verified?: BackupHeader; mediaRoot?: string },
): Promise<RestoreResult> {
  const header = opts.verified ?? (await verifyBackup(file));
  // refuse a non-empty target before any migration touches it
  if (!opts.force) {
    const present = new Set(await appliedMigrations(db));
    if (present.size) {
      const tables = (await listTables(db.kysely)).map((t) => t.name);
      const busy = await nonEmptyTables(db.kysely, tables);
      if (busy.length)
        throw new BackupError(
          `the target database is not empty (${busy.slice(0, 3).join(', ')} have rows): use --force to replace its contents`,
        );
    }
  }
  await migrateToFileLevel(db, header);
  let rows = 0;
  let tableCount = 0;
  let table: string | null = null;
  let media: string | null = null;
  // media files written by this restore that were not there before: removed if the load rolls back
  const written: string[] = [];
  const mediaWritten = { count: 0 };
  await db.kysely
    .transaction()
    .execute(async (trx) => {
      await relaxChecks(trx);
      const tables = await listTables(trx);
      const columns = new Map(tables.map((t) => [t.name, new Set(t.columns)]));
      if (!opts.force) {
        const busy = await nonEmptyTables(trx, [...columns.keys()]);
        if (busy.length) throw new BackupError(`the target database is not empty (${busy.join(', ')}): use --force`);
      }
      // everything, seeded rows included, is replaced by the file's (cascade: sessions of old users go too)
      await sql`truncate ${sql.join([...columns.keys()].map((t) => sql.table(t)))} cascade`.execute(trx);
      let batch: Record<string, unknown>[] = [];
      const flush = async () => {
        if (!table || !batch.length) return;
        const have = columns.get(table)!;
        const cols = Object.keys(batch[0]!).filter((c) => have.has(c));
        await insertBatch(trx, table, cols, batch);
        rows += batch.length;
        batch = [];
      };
      for await (const item of readLines(file)) {
        if ('first' in item) continue;
        if (item.kind === 'row' && media) {
          if (opts.mediaRoot) await writeMedia(opts.mediaRoot, media, item.row, written, mediaWritten);
          continue;
        }
        if (item.kind === 'row') {
          batch.push(item.row);
          if (batch.length >= BATCH) await flush();
          continue;
        }
        await flush();
        if (item.value[0] === 'media') {
          table = null;
          media = String(item.value[1]);
          continue;
        }
        if (item.value[0] !== 'table') {
          table = null;
          break;
        }
        table = String(item.value[1]);
        if (!columns.has(table)) throw new BackupError(`table ${table} of the file does not exist in the target`);
        tableCount++;
      }
      await resetSequences(trx);
    })
    .catch(async (err: unknown) => {
      for (const path of written) await rm(path, { force: true });
      if (err instanceof BackupError) throw err;
      throw new BackupError(
        `restore failed${table ? ` while loading ${table}` : ''}, no row was changed: ${(err as Error).message}`,
      );
    });
  const migratedAfter = await migrate(db);
  return { header, tables: tableCount, rows, media: mediaWritten.count, migratedAfter };
}
