/** The `backup` and `restore` commands of src/cli.ts: open the database as configured, report, close. */
import { createWriteStream, renameSync, rmSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebStream } from 'node:stream/web';
import type { Config } from '../config.js';
import { openDatabase } from '../db/client.js';
import { isFreshDataDir } from '../db/pglite-snapshot.js';
import { writeBackup } from './backup.js';
import { BACKUP_PATH } from './backup.routes.js';
import { BackupError } from './format.js';
import { restoreBackup, verifyBackup } from './restore.js';

function open(config: Config) {
  // no migration here: a backup reads the schema as it is; a restore migrates to the file's level
  return openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeout: 0,
    poolSize: 2,
    driverPatches: config.pgDriverPatches,
    pgbouncer: config.databasePgbouncer,
    directUrl: config.databaseDirectUrl,
  });
}

const seconds = (since: number) => (performance.now() - since) / 1000;

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** `backup FILE --url URL --token KEY`: the running service streams it (backup.routes.ts); checked whole before FILE appears */
async function backupOverHttp(file: string, url: string, token: string): Promise<void> {
  const started = performance.now();
  const res = await fetch(new URL(BACKUP_PATH, url), { headers: { authorization: `Token ${token}` } });
  if (res.status !== 200 || !res.body) {
    const text = (await res.text()).slice(0, 300).replace(/\s+/g, ' ');
    throw new BackupError(`the service at ${url} answered ${res.status}: ${text}`);
  }
  const partial = `${file}.partial`;
  try {
    await pipeline(Readable.fromWeb(res.body as WebStream<Uint8Array>), createWriteStream(partial));
    const header = await verifyBackup(partial);
    renameSync(partial, file);
    const rows = Object.values(header.tables).reduce((a, b) => a + b, 0);
    const s = seconds(started);
    console.log(
      `Backup written to ${file} by the service at ${url}: ${Object.keys(header.tables).length} tables, ${rows} rows in ${s.toFixed(1)} s (${Math.round(rows / s)} rows/s).`,
    );
  } finally {
    rmSync(partial, { force: true });
  }
}

export async function backupCommand(config: Config, args: string[]): Promise<void> {
  const file = args.find((a, i) => !a.startsWith('--') && !['--url', '--token'].includes(args[i - 1] ?? ''));
  if (!file) throw new BackupError('usage: inventory backup FILE [--url URL --token KEY]');
  const url = flag(args, '--url');
  if (url) {
    const token = flag(args, '--token');
    if (!token) throw new BackupError("usage: inventory backup FILE --url URL --token KEY (a superuser's token)");
    return backupOverHttp(file, url, token);
  }
  if (!config.databaseUrl && isFreshDataDir(config.dataDir))
    throw new BackupError(`nothing to back up: DATA_DIR ${config.dataDir} holds no database`);
  // PGlite: this process opens DATA_DIR itself, which is safe only while no service has it open
  // (two processes on one DATA_DIR corrupt it): a running service is asked with --url instead
  const started = performance.now();
  const db = await open(config);
  try {
    const r = await writeBackup(db, file, { mediaRoot: config.mediaRoot });
    const s = seconds(started);
    console.log(
      `Backup written to ${file}: ${r.tables} tables, ${r.rows} rows, ${r.media} media files in ${s.toFixed(1)} s (${Math.round(r.rows / s)} rows/s).`,
    );
    if (r.missingMedia.length)
      console.log(`Not in MEDIA_ROOT, so not in the backup: ${r.missingMedia.slice(0, 10).join(', ')}`);
  } finally {
    await db.close();
  }
}

export async function restoreCommand(config: Config, args: string[]): Promise<void> {
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new BackupError('usage: inventory restore FILE [--force]');
  const started = performance.now();
  // a bad file is refused before the database is opened (a new DATA_DIR would be made otherwise)
  const header = await verifyBackup(file);
  const db = await open(config);
  try {
    const r = await restoreBackup(db, file, {
      force: args.includes('--force'),
      verified: header,
      mediaRoot: config.mediaRoot,
    });
    const s = seconds(started);
    console.log(
      `Restored ${file} (version ${r.header.serviceVersion}, ${r.header.created}): ${r.tables} tables, ${r.rows} rows, ${r.media} media files in ${s.toFixed(1)} s (${Math.round(r.rows / s)} rows/s)${r.migratedAfter.length ? `; then applied ${r.migratedAfter.length} newer migrations` : ''}.`,
    );
  } finally {
    await db.close();
  }
}
