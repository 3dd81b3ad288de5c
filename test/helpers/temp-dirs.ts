/**
 * Temporary directories of a test process, removed when their owner is done with them (a test
 * app's close, an afterAll) and, for any an aborted test left, when the process exits or is sent
 * SIGTERM, which is how vitest ends its workers (its forks pool: `fork.kill()`, no exit handler
 * runs). A process killed outright leaves them behind; their names carry its pid, so the next
 * run's global setup removes them (removeLeftoversOfEndedProcesses).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const live = new Set<string>();
let removedOnExit = false;

/** a new, empty directory in the system's temporary folder, named `<prefix>p<pid>-<random>` */
export function makeTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}p${process.pid}-`));
  if (!removedOnExit) {
    removedOnExit = true;
    process.once('exit', removeAllTempDirs);
    // a listener replaces SIGTERM's default, so this one ends the process as the default would
    process.once('SIGTERM', () => {
      removeAllTempDirs();
      process.exit(128 + 15);
    });
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

/** whether a process with this id runs on this machine */
export function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes what test processes that no longer run left in the temporary folder: directories made by
 * makeTempDir and the PGlite templates of global-setup.ts (`inventory-template-<pid>_<time>.tar`).
 * Answers how many it removed.
 */
export function removeLeftoversOfEndedProcesses(): number {
  let removed = 0;
  for (const name of readdirSync(tmpdir())) {
    const m =
      /^inv-[a-z-]+-p(\d+)-[A-Za-z0-9]{6}$/.exec(name) ?? /^inventory-template-(\d+)_[a-z0-9]+\.tar$/.exec(name);
    // a cluster node's directory may hold a running server: test/cluster/ stops it before removing it
    if (!m || name.startsWith('inv-pg-') || processRuns(Number(m[1]))) continue;
    rmSync(join(tmpdir(), name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
