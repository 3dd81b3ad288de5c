/**
 * One process per PGlite DATA_DIR. PGlite is PostgreSQL inside the process, with no lock between
 * processes (serve/worker-count.ts): a second process opening the same directory (a `migrate`, a
 * `backup` while the service runs) would write its own copy of the same files and corrupt them.
 * The opener writes `<DATA_DIR>/netinventory.lock` with its pid and the process's start time
 * (Linux's /proc/<pid>/stat), exclusively; a file naming a process that still runs refuses the
 * next opener with a message that says what to do. A file left by a process that died (killed,
 * power cut) is taken over: its pid no longer runs, or now runs another process (a different
 * start time). Released when the database closes. A directory the process cannot write to is
 * not locked (PGlite could not open it either and says so).
 */
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const LOCK_FILE = 'netinventory.lock';

/** a process's start time in clock ticks since boot, where /proc tells it; '' elsewhere */
function startTimeOf(pid: number): string {
  try {
    // the fields after the command name (which may hold spaces and parentheses) start after its last ')'
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
  } catch {
    return '';
  }
}

function isRunning(pid: number, started: string): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    // EPERM: it runs, as another user
    if ((err as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !started || !startTimeOf(pid) || startTimeOf(pid) === started;
}

export class DataDirInUseError extends Error {}

// this process's locks, by directory: opening the same directory twice in one process is allowed
const held = new Map<string, number>();

/** takes the directory's lock (or refuses); the returned function releases it */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  const mine = `${process.pid} ${startTimeOf(process.pid)}`;
  if (!held.has(path)) {
    try {
      writeFileSync(path, mine, { flag: 'wx' });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        if (code === 'EACCES' || code === 'EROFS' || code === 'ENOENT') return () => undefined;
        throw err;
      }
      const [pid, started = ''] = readFileSync(path, 'utf8').trim().split(' ');
      const owner = Number(pid);
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && isRunning(owner, started))
        throw new DataDirInUseError(
          `DATA_DIR ${dataDir} is in use by process ${owner} (a running service?): the embedded database takes one process at a time. Stop it first, or back it up from the running service with \`inventory backup FILE --url URL --token KEY\`.`,
        );
      writeFileSync(path, mine);
    }
  }
  held.set(path, (held.get(path) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const n = (held.get(path) ?? 1) - 1;
    if (n > 0) return void held.set(path, n);
    held.delete(path);
    try {
      if (readFileSync(path, 'utf8') === mine) unlinkSync(path);
    } catch {
      // already gone
    }
  };
}
