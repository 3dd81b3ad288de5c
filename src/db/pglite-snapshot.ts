/**
 * The PGlite snapshot: a data directory in which initdb, every migration and the content-type sync
 * already ran, kept in a cache folder (node_modules/.cache/netinventory by default, filled by
 * `npm ci` through `inventory snapshot`). A fresh DATA_DIR starts as a copy of it instead of running
 * initdb and the migrations, which is most of a first start (~6 s of 7-12 s).
 *
 * The snapshot is keyed by everything that shapes the initial state: the PGlite version, the
 * migration files (names and contents) and the content types (registry order gives their ids), so
 * an upgrade or a new migration makes a new key and the old snapshot is not used. A copied
 * directory is byte for byte what a cold start would have built, apart from timestamps written by
 * `now()` at build time (schema_migrations.applied_at).
 *
 * Layout: <cache>/pglite-<key>/manifest.json (key, folders, files and their sizes), data/ (the
 * cluster) and spare/ (a copy ready to be moved into a new DATA_DIR, below). Each is written in a
 * temporary folder and renamed into place, so a reader sees all of one or none of it.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { copyFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
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

export function pgliteVersion(): string {
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
  if (
    m.format !== FORMAT ||
    m.key !== key ||
    !Array.isArray(m.dirs) ||
    !Array.isArray(m.files) ||
    !m.files.some(([f]) => f === MARKER)
  ) {
    throw new CorruptSnapshotError(`${dir}: manifest.json does not describe snapshot ${key}`);
  }
  return m;
}

/**
 * Copies the cluster described by `manifest` from `from` to `to` (created if needed), checking
 * each file's size. PG_VERSION goes last, so a copy cut short is still "fresh" to the next start.
 * On failure the files it wrote are removed again (an operator's own files are not ours to touch).
 */
async function copyCluster(manifest: Manifest, from: string, to: string): Promise<void> {
  const ordered = [...manifest.files.filter(([f]) => f !== MARKER), ...manifest.files.filter(([f]) => f === MARKER)];
  const copied: string[] = [];
  try {
    mkdirSync(to, { recursive: true });
    for (const dir of manifest.dirs) mkdirSync(join(to, dir), { recursive: true });
    // one file at a time: a background copy (makeSpare) then holds one of libuv's four threads, not all
    for (const [file, size] of ordered) {
      const target = join(to, file);
      copied.push(target);
      try {
        await copyFile(join(from, file), target);
      } catch (err) {
        throw new CorruptSnapshotError(`${from}: ${file}: ${(err as Error).message}`);
      }
      if (statSync(target).size !== size) throw new CorruptSnapshotError(`${from}: ${file} is not ${size} bytes`);
    }
  } catch (err) {
    for (const file of copied) rmSync(file, { force: true });
    throw err;
  }
}

/**
 * Copies the snapshot into `dataDir`. Returns false when there is no snapshot for `key`; throws
 * CorruptSnapshotError when its manifest is unreadable or a file is missing or has another size.
 */
export async function restoreSnapshot(cacheDir: string, key: string, dataDir: string): Promise<boolean> {
  const dir = snapshotPath(cacheDir, key);
  const manifest = readManifest(dir, key);
  if (!manifest) return false;
  await copyCluster(manifest, join(dir, 'data'), dataDir);
  return true;
}

/*
 * The spare: a copy of the snapshot made ahead of time (by `inventory snapshot`, and again in the
 * background after a start used it), which a fresh DATA_DIR on the same file system takes with one
 * rename. Creating a file is what a copy costs here, not its bytes: the cluster is ~1,500 files and
 * creating one took 0.1-1 ms on this machine (strace: openat 650 us under load), so a copy took
 * 0.1-2 s and a rename takes nothing.
 */

const SPARE = 'spare';

/**
 * Moves the spare into `dataDir` when there is one and `dataDir` is missing or empty; false
 * otherwise (no spare, another file system, a mount point, a concurrent start took it first).
 */
export function takeSpare(cacheDir: string, key: string, dataDir: string): boolean {
  const spare = join(snapshotPath(cacheDir, key), SPARE);
  if (!existsSync(join(spare, MARKER))) return false;
  try {
    mkdirSync(dirname(resolve(dataDir)), { recursive: true });
    // rename(2) replaces an empty directory and refuses a non-empty one (ENOTEMPTY)
    renameSync(spare, dataDir);
    return true;
  } catch {
    return false;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Makes the spare unless it exists: copies the snapshot to a temporary folder, then renames it to
 * `spare`, so a start never takes half a copy. Copies left by a process that died half way are
 * removed first. Returns true when a spare is there afterwards; throws CorruptSnapshotError when
 * the snapshot cannot be copied whole.
 */
export async function makeSpare(cacheDir: string, key: string): Promise<boolean> {
  const dir = snapshotPath(cacheDir, key);
  const manifest = readManifest(dir, key);
  if (!manifest) return false;
  if (existsSync(join(dir, SPARE, MARKER))) return true;
  for (const entry of readdirSync(dir)) {
    const pid = /^\.spare-(\d+)-/.exec(entry)?.[1];
    if (pid && !isRunning(Number(pid))) rmSync(join(dir, entry), { recursive: true, force: true });
  }
  const tmp = join(dir, `.spare-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await copyCluster(manifest, join(dir, 'data'), tmp);
    try {
      renameSync(tmp, join(dir, SPARE));
    } catch {
      // a spare made by another process meanwhile is as good (rename refuses to replace it)
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return existsSync(join(dir, SPARE, MARKER));
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
export async function buildSnapshot(
  cacheDir: string,
  key: string,
  prepare: (db: Database) => Promise<unknown>,
): Promise<string> {
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
    const manifest: Manifest = {
      format: FORMAT,
      key,
      pglite: pgliteVersion(),
      createdAt: new Date().toISOString(),
      ...listTree(join(tmp, 'data')),
    };
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
    if (entry.startsWith('pglite-') && entry !== `pglite-${key}`)
      rmSync(join(cacheDir, entry), { recursive: true, force: true });
  }
  return final;
}

/** Bytes on disk of a snapshot (the cost figure of docs/installation.md, "First start", and the `snapshot` command's report). */
export function snapshotSize(cacheDir: string, key: string): number {
  return listTree(join(snapshotPath(cacheDir, key), 'data')).files.reduce((sum, [, size]) => sum + size, 0);
}
