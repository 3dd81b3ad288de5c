/**
 * `node --import tsx bench/import-netbox.ts [--engine pglite|postgres] [--small]`: how long
 * `inventory import-netbox` takes to copy the standard data set (seed-standard.ts, about 35,000
 * objects) from one instance of this service into an empty one: a source server seeded through
 * its API, then the command run as a user runs it, into a fresh PGlite DATA_DIR or PostgreSQL
 * database. Prints the command's report (objects/s, where the time goes, its CPU) and the wall time.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STANDARD_FULL, STANDARD_SMALL, seedStandard } from './seed-standard.js';
import { adminQuery, ROOT, startServer, TOKEN } from './server.js';

const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const args = process.argv.slice(2);
const engine = args.includes('--engine') ? args[args.indexOf('--engine') + 1] : 'pglite';
const small = args.includes('--small');

async function main() {
  console.log(`source: a PGlite service seeded with the ${small ? 'small ' : ''}standard data set`);
  const source = await startServer({ engine: 'pglite', pgUrl: PG });
  const dir = mkdtempSync(join(tmpdir(), 'inv-import-bench-'));
  const target = `inv_import_bench_${process.pid}`;
  try {
    await seedStandard({ base: source.url, token: TOKEN }, small ? STANDARD_SMALL : STANDARD_FULL, () => undefined);
    const env: Record<string, string> = { ...(process.env as Record<string, string>), LOG_LEVEL: 'warn' };
    if (engine === 'postgres') {
      await adminQuery(PG, `create database ${target}`);
      const url = new URL(PG);
      url.pathname = `/${target}`;
      env.DATABASE_URL = url.toString();
    } else {
      env.DATABASE_URL = '';
      env.DATA_DIR = join(dir, 'data');
    }
    console.log(`target: an empty ${engine === 'postgres' ? 'PostgreSQL database' : 'PGlite DATA_DIR'}`);
    const started = performance.now();
    const code = await new Promise<number | null>((ok) => {
      const child = spawn(
        process.execPath,
        ['bin/inventory.js', 'import-netbox', '--url', source.url, '--token', TOKEN],
        { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      // the report and the last progress lines; the per-type lines are many
      let out = '';
      child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
      child.once('exit', (c) => {
        // the types that hold anything, then the report
        const lines = out.trimEnd().split('\n');
        console.log(lines.filter((l) => /^\[\d+\/\d+\]/.test(l) && !/: 0 read/.test(l)).join('\n'));
        const report = lines.findIndex((l) => l.startsWith('Copied from'));
        console.log(lines.slice(Math.max(0, report - 4)).join('\n'));
        ok(c);
      });
    });
    console.log(
      `\nwall time of the command (its start and the opening of the target included): ${((performance.now() - started) / 1000).toFixed(1)} s, exit ${code}`,
    );
    if (code !== 0) process.exitCode = 1;
  } finally {
    await source.stop();
    rmSync(dir, { recursive: true, force: true });
    if (engine === 'postgres') await adminQuery(PG, `drop database if exists ${target} with (force)`);
  }
}

await main();
