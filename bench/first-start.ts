/**
 * First start: the time from spawning the service on a new, empty DATA_DIR to its first
 * HTTP 200 on /api/status/, for each way of starting, N runs each, interleaved so a busy moment of
 * this shared machine falls on every mode alike. Prints median, min and max per mode, of the wall
 * time and of the CPU time the service used by then (which a busy machine hardly changes).
 *
 *   node --import tsx bench/first-start.ts [--runs 5] [--modes compiled-spare,compiled-copy,...]
 *
 * Modes (how the code runs - how the new DATA_DIR is filled):
 *   compiled-spare  `npm start` today: the bundle, the snapshot's spare moved in by a rename
 *   compiled-copy   the bundle, the snapshot copied file by file (no spare: another file system, or
 *                   a second fresh start within seconds of the first)
 *   compiled-initdb the bundle, PGLITE_SNAPSHOT=false: initdb and every migration
 *   tsx-spare       TypeScript through tsx, the spare
 *   tsx-initdb      how `npm start` ran before the bundle and the snapshot: tsx, initdb and migrations
 * The spare is made (or removed) before each run and that time is not counted: a person's
 * `npm ci && npm start` finds it made by postinstall.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureSnapshot, currentSnapshotKey } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { snapshotPath, snapshotSize } from '../src/db/pglite-snapshot.js';
import { freePort, ROOT } from './server.js';

const MODES = {
  'compiled-spare': { args: ['bin/inventory.js', 'serve'], snapshot: 'spare' },
  'compiled-copy': { args: ['bin/inventory.js', 'serve'], snapshot: 'copy' },
  'compiled-initdb': { args: ['bin/inventory.js', 'serve'], snapshot: 'off' },
  'tsx-spare': { args: ['--import', 'tsx', 'src/cli.ts', 'serve'], snapshot: 'spare' },
  'tsx-initdb': { args: ['--import', 'tsx', 'src/cli.ts', 'serve'], snapshot: 'off' },
} as const;
type Mode = keyof typeof MODES;

function option(name: string, dflt: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : dflt;
}

const config = loadConfig();

/**
 * CPU seconds (user + system, every thread) the process has used, from /proc (Linux): unlike the
 * wall time it hardly moves with the machine's load, so runs on a busy machine stay comparable.
 */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime and stime, fields 14 and 15 of proc(5), in clock ticks of 1/100 s
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Spawns one start; returns the milliseconds until the first 200 on /api/status/ and the CPU seconds spent by then. */
async function timeOneStart(mode: Mode): Promise<{ ms: number; cpu: number }> {
  const spec = MODES[mode];
  const dataDir = join(mkdtempSync(join(tmpdir(), 'inv-first-')), 'data');
  const port = await freePort();
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: '',
    LOG_LEVEL: 'warn',
  };
  if (spec.snapshot === 'off') env.PGLITE_SNAPSHOT = 'false';
  const started = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=16', ...spec.args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-4000)));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode}: the service exited with ${child.exitCode}:\n${err}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/status/`, { signal: AbortSignal.timeout(5_000) }).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return { ms: performance.now() - started, cpu: cpuSeconds(child.pid!) };
      if (performance.now() - started > 120_000) throw new Error(`${mode}: no answer within 120 s:\n${err}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  } finally {
    child.kill('SIGTERM');
    await exited;
    rmSync(join(dataDir, '..'), { recursive: true, force: true });
  }
}

function stats(values: number[]) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  return { median: mid, min: s[0]!, max: s[s.length - 1]! };
}

async function main() {
  const runs = Number(option('runs', '5'));
  const modes = option('modes', Object.keys(MODES).join(',')).split(',') as Mode[];
  for (const m of modes)
    if (!(m in MODES)) throw new Error(`unknown mode ${m}; one of ${Object.keys(MODES).join(', ')}`);
  const cacheDir = config.pgliteSnapshotDir;
  const t0 = performance.now();
  const { built } = await ensureSnapshot(cacheDir);
  const key = currentSnapshotKey();
  console.log(
    `snapshot ${snapshotPath(cacheDir, key)}: ${(snapshotSize(cacheDir, key) / 1e6).toFixed(1)} MB (+ the same for its spare), ${built ? `built in ${((performance.now() - t0) / 1000).toFixed(1)} s` : 'already there'}`,
  );
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (${runs} runs per mode, interleaved)`,
  );
  const times = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  const cpus = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  for (let i = 0; i < runs; i++) {
    for (const mode of modes) {
      const spare = join(snapshotPath(cacheDir, key), 'spare');
      if (MODES[mode].snapshot === 'spare') await ensureSnapshot(cacheDir);
      if (MODES[mode].snapshot === 'copy') rmSync(spare, { recursive: true, force: true });
      const { ms, cpu } = await timeOneStart(mode);
      times.get(mode)!.push(ms);
      cpus.get(mode)!.push(cpu * 1000);
      console.log(`  run ${i + 1} ${mode.padEnd(16)} ${(ms / 1000).toFixed(2)} s (${cpu.toFixed(2)} s CPU)`);
    }
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const f = (ms: number) => (ms / 1000).toFixed(2).padStart(7);
  console.log(
    '\nseconds to the first 200 on a new DATA_DIR: wall (median min max) and CPU of the service (median min max)',
  );
  console.log('mode              median     min     max  |  CPU median     min     max');
  for (const [mode, values] of times) {
    const w = stats(values);
    const c = stats(cpus.get(mode)!);
    console.log(`${mode.padEnd(16)} ${f(w.median)} ${f(w.min)} ${f(w.max)}  |  ${f(c.median)} ${f(c.min)} ${f(c.max)}`);
  }
  await ensureSnapshot(cacheDir);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
