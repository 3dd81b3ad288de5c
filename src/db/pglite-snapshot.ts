/**
 * The PGlite snapshot: a data directory in which initdb, every migration and the content-type sync
 * already ran, kept in a cache folder (node_modules/.cache/netinventory by default, filled by
 * `npm ci` through `inventory snapshot`). A fresh DATA_DIR starts as a copy of it instead of running
 * initdb and the migrations, which is most of a first start (issue 10: ~6 s of 7-12 s).
 *
 * The snapshot is keyed by everything that shapes the initial state: the PGlite version, the
 * migration files (names and contents) and the content types (registry order gives their ids), so
 * an upgrade or a new migration makes a new key and the old snapshot is not used. A copied
 * directory is byte for byte what a cold start would have built, apart from timestamps written by
 * `now()` at build time (schema_migrations.applied_at).
 *
 * Layout: <cache>/pglite-<key>/manifest.json (key, files and their sizes) and data/ (the cluster).
 * It is written in a temporary folder and renamed into place, so a reader sees all of it or none.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { type Database, openDatabase } from './client.js';
import { listMigrations, readMigration } from './migrate.js';

/** bump when the layout or what goes into a snapshot changes */
const FORMAT = 2;
/** PostgreSQL's marker of an initialised cluster, and PGlite's test for "run initdb or not" */
const MARKER = 'PG_VERSION';

interface Manifest {
  format: number;
  key: string;
  pglite: string;
  createdAt: string;
  /** every folder of the cluster, empty ones included (PostgreSQL refuses to start without pg_tblspc and the like) */
  dirs: string[];
  /** relative path and size of every file of the cluster */
  files: [string, number][];
}

/** A snapshot that exists but cannot be used: truncated, edited, or half removed. */
export class CorruptSnapshotError extends Error {}

function pgliteVersion(): string {
  // the package exports no package.json; its entry point sits in dist/
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }).version;
}

/** The key of the snapshot that matches this code: `contentTypes` are the model identities in registry order. */
export function snapshotKey(contentTypes: readonly string[]): string {
  const hash = createHash('sha256');
  hash.update(JSON.stringify({ format: FORMAT, pglite: pgliteVersion(), contentTypes }));
  for (const name of listMigrations()) hash.update(`\0${name}\0${readMigration(name)}`);
  return hash.digest('hex').slice(0, 20);
}

/** true when the data directory holds no cluster yet (missing, empty, or a copy that stopped half way) */
export function isFreshDataDir(dataDir: string): boolean {
  return dataDir !== 'memory://' && !existsSync(join(dataDir, MARKER));
}

export function snapshotPath(cacheDir: string, key: string): string {
  return join(cacheDir, `pglite-${key}`);
}

function listTree(root: string): { dirs: string[]; files: [string, number][] } {
  const dirs: string[] = [];
  const files: [string, number][] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        dirs.push(relative(root, path));
        walk(path);
      } else files.push([relative(root, path), statSync(path).size]);
    }
  };
  walk(root);
  return { dirs: dirs.sort(), files: files.sort((a, b) => a[0].localeCompare(b[0])) };
}

function readManifest(dir: string, key: string): Manifest | null {
  let text: string;
  try {
    text = readFileSync(join(dir, 'manifest.json'), 'utf8');
  } catch {
    // no manifest: no snapshot (a folder without one was never completed by buildSnapshot)
    return null;
  }
  let m: Manifest;
  try {
    m = JSON.parse(text) as Manifest;
  } catch {
    throw new CorruptSnapshotError(`${dir}: manifest.json is not JSON`);
  }
  if (m.format !== FORMAT || m.key !== key || !Array.isArray(m.dirs) || !Array.isArray(m.files) || !m.files.some(([f]) => f === MARKER)) {
    throw new CorruptSnapshotError(`${dir}: manifest.json does not describe snapshot ${key}`);
  }
  return m;
}

/**
 * Copies the snapshot into `dataDir` (created if needed). Returns false when there is no snapshot
 * for `key`; throws CorruptSnapshotError when a file is missing or has another size. PG_VERSION is
 * copied last, so a copy cut short is still "fresh" to the next start, which copies again.
 */
export function restoreSnapshot(cacheDir: string, key: string, dataDir: string): boolean {
  const dir = snapshotPath(cacheDir, key);
  const manifest = readManifest(dir, key);
  if (!manifest) return false;
  const ordered = [...manifest.files.filter(([f]) => f !== MARKER), ...manifest.files.filter(([f]) => f === MARKER)];
  const copied: string[] = [];
  try {
    mkdirSync(dataDir, { recursive: true });
    for (const dir of manifest.dirs) mkdirSync(join(dataDir, dir), { recursive: true });
    for (const [file, size] of ordered) {
      const to = join(dataDir, file);
      copied.push(to);
      try {
        copyFileSync(join(dir, 'data', file), to);
      } catch (err) {
        throw new CorruptSnapshotError(`${dir}: ${file}: ${(err as Error).message}`);
      }
      if (statSync(to).size !== size) throw new CorruptSnapshotError(`${dir}: ${file} is not ${size} bytes`);
    }
  } catch (err) {
    // leave DATA_DIR as it was found (files of the operator's own are not ours to remove)
    for (const file of copied) rmSync(file, { force: true });
    throw err;
  }
  return true;
}

/** Removes a snapshot (a corrupt one, before it is built again). */
export function removeSnapshot(cacheDir: string, key: string): void {
  rmSync(snapshotPath(cacheDir, key), { recursive: true, force: true });
}

/**
 * Builds the snapshot for `key`: a new cluster in a temporary folder of `cacheDir`, prepared by
 * `prepare` (migrations and content types), closed cleanly, listed in its manifest and renamed into
 * place. Another process that finished first wins, and this copy is dropped. Snapshots of other
 * keys (older code) are removed. Returns the snapshot's folder.
 */
export async function buildSnapshot(cacheDir: string, key: string, prepare: (db: Database) => Promise<unknown>): Promise<string> {
  mkdirSync(cacheDir, { recursive: true });
  const tmp = join(cacheDir, `.build-${process.pid}-${randomBytes(4).toString('hex')}`);
  const final = snapshotPath(cacheDir, key);
  try {
    const db = await openDatabase({ databaseUrl: null, dataDir: join(tmp, 'data') });
    try {
      await prepare(db);
    } finally {
      await db.close();
    }
    const manifest: Manifest = { format: FORMAT, key, pglite: pgliteVersion(), createdAt: new Date().toISOString(), ...listTree(join(tmp, 'data')) };
    writeFileSync(join(tmp, 'manifest.json'), JSON.stringify(manifest));
    try {
      renameSync(tmp, final);
    } catch (err) {
      // ENOTEMPTY / EEXIST: a concurrent build got there first; its snapshot is as good as ours
      if (!existsSync(join(final, 'manifest.json'))) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const entry of readdirSync(cacheDir)) {
    if (entry.startsWith('pglite-') && entry !== `pglite-${key}`) rmSync(join(cacheDir, entry), { recursive: true, force: true });
  }
  return final;
}

/** Bytes on disk of a snapshot (the README's cost figure and the `snapshot` command's report). */
export function snapshotSize(cacheDir: string, key: string): number {
  return listTree(snapshotPath(cacheDir, key)).files.reduce((sum, [, size]) => sum + size, 0);
}
