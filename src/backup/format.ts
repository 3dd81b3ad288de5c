/**
 * The backup file: gzip'd JSON Lines. Line 1 is the header (object); then per table a section line
 * `["table", name]` followed by its rows, one JSON object each (row_to_json); the last line is the
 * trailer `["end", {table: {rows, sha256}}]`. After the tables, each media file the rows name (an
 * image attachment's image) is a section `["media", name]` with one line `{"base64": ...}`, checked
 * under `media:<name>` in the trailer. A section or trailer is an array, a row an object, so no
 * column name can be mistaken for a marker. The trailer's checksums cover each row line's text,
 * so a file cut short (no trailer) or altered is caught before anything is written.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FORMAT = 'netinventory-backup';
export const FORMAT_VERSION = 1;

export interface TableSummary {
  rows: number;
  sha256: string;
}

export interface BackupHeader {
  format: typeof FORMAT;
  formatVersion: number;
  /** package.json's version of the code that wrote the file */
  serviceVersion: string;
  /** schema_migrations of the source, in order */
  migrations: string[];
  created: string;
  engine: 'pglite' | 'postgres';
  /** table -> rows in the snapshot (the trailer repeats them with the checksums) */
  tables: Record<string, number>;
  /** media file (its stored name under MEDIA_ROOT) -> bytes; absent in files written before media travelled */
  media?: Record<string, number>;
}

/** the trailer's key of a media file's checksum */
export const mediaKey = (name: string) => `media:${name}`;

/**
 * this code's version: package.json found by walking up from this module (from src/backup/, or
 * from the compiled bundle in node_modules/.cache/netinventory/build-x/)
 */
export function serviceVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'netinventory' && pkg.version) return pkg.version;
    } catch {
      // no package.json here: look further up
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot find the service version: no package.json of netinventory above the code');
    dir = up;
  }
}

/** numeric compare of dotted versions (pre-release tags ignored): -1, 0 or 1 */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < 3; i++) {
    if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) < (pb[i] ?? 0) ? -1 : 1;
  }
  return 0;
}

/** A refusal with a one-line reason: the CLI prints it and exits 1; nothing was written. */
export class BackupError extends Error {}
