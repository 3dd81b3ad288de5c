/**
 * Temporary directories of a test process, removed when their owner is done with them (a test
 * app's close, an afterAll) and, for any an aborted test left, when the process exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const live = new Set<string>();
let removedOnExit = false;

/** a new, empty directory in the system's temporary folder, named `<prefix><random>` */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  if (!removedOnExit) {
    removedOnExit = true;
    process.once('exit', removeAllTempDirs);
  }
  live.add(dir);
  return dir;
}

export function removeTempDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  live.delete(dir);
}

function removeAllTempDirs(): void {
  for (const dir of live) removeTempDir(dir);
}
