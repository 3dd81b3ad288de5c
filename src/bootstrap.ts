/**
 * First-start work: open the database (a fresh PGlite directory from the snapshot), migrate, sync
 * content types, and create the first superuser when there are no users (from ADMIN_USERNAME /
 * ADMIN_PASSWORD / ADMIN_TOKEN, or with a generated password that is printed once).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from './config.js';
import { type Database, type Kdb, openDatabase } from './db/client.js';
import { ensureMonthPartitions } from './db/changelog-partitions.js';
import { migrate } from './db/migrate.js';
import { ensureOutboxDays } from './db/outbox-partitions.js';
import { foldGoneKeptCounts, foldGoneRowCounts } from './db/row-count-upkeep.js';
import {
  buildSnapshot,
  CorruptSnapshotError,
  isFreshDataDir,
  makeSpare,
  removeSnapshot,
  restoreSnapshot,
  snapshotKey,
  snapshotPath,
  takeSpare,
} from './db/pglite-snapshot.js';
import { allModels } from './apps/index.js';
import { syncContentTypes } from './apps/extras/content-type.model.js';
import { hashPassword } from './apps/users/password.js';

export async function prepareDatabase(db: Database): Promise<string[]> {
  const applied = await migrate(db);
  await syncContentTypes(db.kysely, allModels().registry);
  await foldGoneRowCounts(db.kysely);
  await foldGoneKeptCounts(db.kysely);
  // the change log's months ahead, before the first write of this start (db/changelog-partitions.ts)
  await ensureMonthPartitions(db.kysely);
  // and the webhook outbox's days (db/outbox-partitions.ts)
  await ensureOutboxDays(db.kysely);
  return applied;
}

/** The key of the PGlite snapshot this code starts from (db/pglite-snapshot.ts). */
export function currentSnapshotKey(): string {
  return snapshotKey(
    allModels()
      .registry.all()
      .map((m) => m.name),
  );
}

/**
 * Builds the PGlite snapshot for this code and its spare, unless they are there (npm postinstall:
 * `inventory snapshot`). Making the spare copies every file of the snapshot, which checks it: a
 * corrupt snapshot is removed and built again.
 */
export async function ensureSnapshot(cacheDir: string): Promise<{ path: string; key: string; built: boolean }> {
  const key = currentSnapshotKey();
  try {
    if (await makeSpare(cacheDir, key)) return { path: snapshotPath(cacheDir, key), key, built: false };
  } catch (err) {
    if (!(err instanceof CorruptSnapshotError)) throw err;
    removeSnapshot(cacheDir, key);
  }
  const path = await buildSnapshot(cacheDir, key, prepareDatabase);
  await makeSpare(cacheDir, key);
  return { path, key, built: true };
}

/** How the database was found: a new PGlite directory from the snapshot, or made by initdb, or one that existed. */
export type DatabaseOrigin = 'snapshot' | 'initdb' | 'existing' | 'postgres';

export interface PreparedDatabase {
  db: Database;
  origin: DatabaseOrigin;
  /** migrations applied by this start */
  applied: string[];
  /** what went wrong with the snapshot (a warning for the log); the start went on without it */
  snapshotProblem: string | null;
  /**
   * Work to do once the service listens: after a start from the snapshot, a new spare for the next
   * fresh DATA_DIR (copied in the background, one file at a time). Rejects with what went wrong.
   */
  afterStart(): Promise<void>;
}

/** Fills a fresh DATA_DIR from the snapshot for `key`: moves the spare, else copies, else builds first. */
async function fillFromSnapshot(config: Config, key: string): Promise<{ problem: string | null }> {
  const dir = config.pgliteSnapshotDir;
  if (takeSpare(dir, key, config.dataDir)) return { problem: null };
  let problem: string | null = null;
  try {
    if (await restoreSnapshot(dir, key, config.dataDir)) return { problem };
  } catch (err) {
    if (!(err instanceof CorruptSnapshotError)) throw err;
    problem = `${err.message}; building the PGlite snapshot again`;
    removeSnapshot(dir, key);
  }
  // a missing or stale snapshot: what a cold start costs, paid once per code version
  await buildSnapshot(dir, key, prepareDatabase);
  if (!(await restoreSnapshot(dir, key, config.dataDir))) throw new Error('the snapshot just built is missing');
  return { problem };
}

/**
 * Opens the database and makes it ready to serve (migrations, content types). A fresh PGlite
 * DATA_DIR starts from the snapshot (db/pglite-snapshot.ts) when PGLITE_SNAPSHOT is on; a missing
 * or stale snapshot is built first and a corrupt one built again. If the snapshot cannot be used at
 * all (an unwritable cache folder), the start goes the normal way: initdb in DATA_DIR. PostgreSQL
 * never uses a snapshot.
 */
export async function openPreparedDatabase(config: Config): Promise<PreparedDatabase> {
  const inMemory = config.dataDir === 'memory://';
  let origin: DatabaseOrigin = config.databaseUrl
    ? 'postgres'
    : inMemory || isFreshDataDir(config.dataDir)
      ? 'initdb'
      : 'existing';
  let snapshotProblem: string | null = null;
  let afterStart = async () => undefined;
  if (origin === 'initdb' && !inMemory && config.pgliteSnapshot) {
    try {
      const key = currentSnapshotKey();
      snapshotProblem = (await fillFromSnapshot(config, key)).problem;
      origin = 'snapshot';
      afterStart = async () => void (await makeSpare(config.pgliteSnapshotDir, key));
    } catch (err) {
      // the copy removed what it had written, so initdb finds DATA_DIR as it was
      snapshotProblem = `PGlite snapshot unusable (${(err as Error).message}); running initdb in ${config.dataDir}`;
    }
  }
  const db = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    statementTimeout: config.statementTimeout,
    poolSize: config.databasePoolSize,
    driverPatches: config.pgDriverPatches,
    replicaUrls: config.databaseReplicaUrls,
    replicaMaxLagMs: config.databaseReplicaMaxLagMs,
    pgbouncer: config.databasePgbouncer,
    directUrl: config.databaseDirectUrl,
  });
  const applied = await prepareDatabase(db);
  return { db, origin, applied, snapshotProblem, afterStart };
}

export async function createSuperuser(
  q: Kdb,
  username: string,
  password: string,
  token?: string | null,
): Promise<number> {
  const hash = await hashPassword(password);
  const res = await sql<{ id: number }>`insert into users_user (username, password, is_superuser, is_staff, is_active)
    values (${username}, ${hash}, true, true, true)
    on conflict (username) do update set password = excluded.password, is_superuser = true, is_staff = true, is_active = true
    returning id`.execute(q);
  const id = Number(res.rows[0]!.id);
  if (token) {
    await sql`insert into users_token (user_id, key, write_enabled, description) values (${id}, ${token}, true, 'bootstrap token')
      on conflict (key) do nothing`.execute(q);
  }
  return id;
}

/** The first superuser this start created, and its password when it was generated (null: taken from ADMIN_PASSWORD). */
export interface CreatedAdmin {
  username: string;
  generatedPassword: string | null;
}

/** Creates the first superuser when there are no users; returns null when there were some. */
export async function bootstrapAdmin(db: Database, config: Config): Promise<CreatedAdmin | null> {
  const count = await sql<{ n: number }>`select count(*)::int as n from users_user`.execute(db.kysely);
  if (Number(count.rows[0]!.n) > 0) return null;
  const username = config.adminUsername ?? 'admin';
  const password = config.adminPassword ?? randomBytes(12).toString('base64url');
  if (config.adminToken && !/^[0-9a-zA-Z]{40}$/.test(config.adminToken))
    throw new Error('ADMIN_TOKEN must be 40 hexadecimal characters');
  await createSuperuser(db.kysely, username, password, config.adminToken);
  return { username, generatedPassword: config.adminPassword ? null : password };
}
