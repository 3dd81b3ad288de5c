/**
 * First start (issue 10): the time from spawning the service on a new, empty DATA_DIR to its first
 * HTTP 200 on /api/status/, for each way of starting, N runs each, interleaved so a busy moment of
 * this shared machine falls on every mode alike. Prints median, min and max per mode.
 *
 *   node --import tsx bench/first-start.ts [--runs 5] [--modes compiled-spare,compiled-copy,...]
 *
 * Modes (how the code runs - how the new DATA_DIR is filled):
 *   compiled-spare  `npm start` today: the bundle, the snapshot's spare moved in by a rename
 *   compiled-copy   the bundle, the snapshot copied file by file (no spare: another file system, or
 *                   a second fresh start within seconds of the first)
 *   compiled-initdb the bundle, PGLITE_SNAPSHOT=false: initdb and every migration
 *   tsx-spare       TypeScript through tsx, the spare
 *   tsx-initdb      `npm start` before issue 10: tsx, initdb and migrations
 * The spare is made (or removed) before each run and that time is not counted: a person's
 * `npm ci && npm start` finds it made by postinstall.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
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

/** Spawns one start and returns the milliseconds until the first 200 on /api/status/. */
async function timeOneStart(mode: Mode): Promise<number> {
  const spec = MODES[mode];
  const dataDir = join(mkdtempSync(join(tmpdir(), 'inv-first-')), 'data');
  const port = await freePort();
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: '', LOG_LEVEL: 'warn' };
  if (spec.snapshot === 'off') env.PGLITE_SNAPSHOT = 'false';
  const started = performance.now();
  const child = spawn(process.execPath, ['--max-semi-space-size=64', ...spec.args], { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (b: Buffer) => (err = (err + b.toString()).slice(-4000)));
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${mode}: the service exited with ${child.exitCode}:\n${err}`);
      const ok = await fetch(`http://127.0.0.1:${port}/api/status/`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status === 200, () => false);
      if (ok) return performance.now() - started;
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
  for (const m of modes) if (!(m in MODES)) throw new Error(`unknown mode ${m}; one of ${Object.keys(MODES).join(', ')}`);
  const cacheDir = config.pgliteSnapshotDir;
  const t0 = performance.now();
  const { built } = await ensureSnapshot(cacheDir);
  const key = currentSnapshotKey();
  console.log(`snapshot ${snapshotPath(cacheDir, key)}: ${(snapshotSize(cacheDir, key) / 1e6).toFixed(1)} MB (+ the same for its spare), ${built ? `built in ${((performance.now() - t0) / 1000).toFixed(1)} s` : 'already there'}`);
  console.log(`load average before: ${loadavg().map((l) => l.toFixed(2)).join(' ')} (${runs} runs per mode, interleaved)`);
  const times = new Map<Mode, number[]>(modes.map((m) => [m, []]));
  for (let i = 0; i < runs; i++) {
    for (const mode of modes) {
      const spare = join(snapshotPath(cacheDir, key), 'spare');
      if (MODES[mode].snapshot === 'spare') await ensureSnapshot(cacheDir);
      if (MODES[mode].snapshot === 'copy') rmSync(spare, { recursive: true, force: true });
      const ms = await timeOneStart(mode);
      times.get(mode)!.push(ms);
      console.log(`  run ${i + 1} ${mode.padEnd(16)} ${(ms / 1000).toFixed(2)} s`);
    }
  }
  console.log(`load average after: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log('\nmode              median     min     max   (seconds to the first 200 on a new DATA_DIR)');
  for (const [mode, values] of times) {
    const s = stats(values);
    console.log(`${mode.padEnd(16)} ${(s.median / 1000).toFixed(2).padStart(7)} ${(s.min / 1000).toFixed(2).padStart(7)} ${(s.max / 1000).toFixed(2).padStart(7)}`);
  }
  await ensureSnapshot(cacheDir);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
