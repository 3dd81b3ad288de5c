/**
 * One process per PGlite DATA_DIR (src/db/data-dir-lock.ts): a directory held by a running process
 * is refused with a message that says what to do; one left by a process that died, or naming a pid
 * that another process now has, is taken over; one process may open a directory twice; the lock
 * goes with the last release.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from '../../src/db/data-dir-lock.js';
import { makeTempDir, removeTempDir } from '../helpers/temp-dirs.js';

const dirs: string[] = [];
const newDir = () => {
  const d = makeTempDir('inv-lock-');
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) removeTempDir(d);
});

/** another process that holds nothing but runs until killed, and its pid */
function sleeper(): { child: ChildProcess; pid: number } {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  return { child, pid: child.pid! };
}

/** a process's start time as the lock records it (/proc/<pid>/stat, field 22) */
function startTime(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
}

describe('the DATA_DIR lock', () => {
  it('refuses a directory that a running process holds, naming it and what to do', async () => {
    const dir = newDir();
    const { child, pid } = sleeper();
    try {
      writeFileSync(join(dir, 'netinventory.lock'), `${pid} ${startTime(pid)}`);
      expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dir)).toThrow(`is in use by process ${pid}`);
      expect(() => lockDataDir(dir)).toThrow('inventory backup FILE --url URL --token KEY');
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
    // once it is gone, the directory is free
    const release = lockDataDir(dir);
    expect(readFileSync(join(dir, 'netinventory.lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    release();
    expect(existsSync(join(dir, 'netinventory.lock'))).toBe(false);
  });

  it('takes over a lock whose pid now belongs to a process started later', async () => {
    const dir = newDir();
    const { child, pid } = sleeper();
    try {
      // the pid runs, but not the process that wrote the lock (another start time)
      writeFileSync(join(dir, 'netinventory.lock'), `${pid} 1`);
      const release = lockDataDir(dir);
      release();
    } finally {
      child.kill('SIGKILL');
      await new Promise((r) => child.once('exit', r));
    }
  });

  it('lets one process open a directory twice, and keeps the lock until the last release', () => {
    const dir = newDir();
    const first = lockDataDir(dir);
    const second = lockDataDir(dir);
    first();
    expect(existsSync(join(dir, 'netinventory.lock'))).toBe(true);
    first(); // a second release of the same hold changes nothing
    expect(existsSync(join(dir, 'netinventory.lock'))).toBe(true);
    second();
    expect(existsSync(join(dir, 'netinventory.lock'))).toBe(false);
  });

  it('does not remove a lock another process took over meanwhile', () => {
    const dir = newDir();
    const release = lockDataDir(dir);
    writeFileSync(join(dir, 'netinventory.lock'), '999999999 0');
    release();
    expect(readFileSync(join(dir, 'netinventory.lock'), 'utf8')).toBe('999999999 0');
  });
});
