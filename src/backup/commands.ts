/** The `backup` and `restore` commands of src/cli.ts: open the database as configured, report, close. */
import type { Config } from '../config.js';
import { openDatabase } from '../db/client.js';
import { isFreshDataDir } from '../db/pglite-snapshot.js';
import { writeBackup } from './backup.js';
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
  });
}

const seconds = (since: number) => (performance.now() - since) / 1000;

export async function backupCommand(config: Config, args: string[]): Promise<void> {
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new BackupError('usage: inventory backup FILE');
  if (!config.databaseUrl && isFreshDataDir(config.dataDir))
    throw new BackupError(`nothing to back up: DATA_DIR ${config.dataDir} holds no database`);
  const started = performance.now();
  const db = await open(config);
  try {
    const r = await writeBackup(db, file);
    const s = seconds(started);
    console.log(
      `Backup written to ${file}: ${r.tables} tables, ${r.rows} rows in ${s.toFixed(1)} s (${Math.round(r.rows / s)} rows/s).`,
    );
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
    const r = await restoreBackup(db, file, { force: args.includes('--force'), verified: header });
    const s = seconds(started);
    console.log(
      `Restored ${file} (version ${r.header.serviceVersion}, ${r.header.created}): ${r.tables} tables, ${r.rows} rows in ${s.toFixed(1)} s (${Math.round(r.rows / s)} rows/s)${r.migratedAfter.length ? `; then applied ${r.migratedAfter.length} newer migrations` : ''}.`,
    );
  } finally {
    await db.close();
  }
}
