/**
 * test/helpers/temp-dirs.ts: a test process's temporary directories are gone when it exits and
 * when it is sent SIGTERM, as vitest ends its workers; the next run removes those of a process
 * killed outright.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { removeLeftoversOfEndedProcesses } from '../helpers/temp-dirs.js';

const HELPER = fileURLToPath(new URL('../helpers/temp-dirs.ts', import.meta.url));

/** a process that makes two directories, prints their paths, then waits until it is ended */
async function holder(): Promise<{ child: ChildProcess; dirs: string[] }> {
  const script = `
    const { makeTempDir } = await import(${JSON.stringify(HELPER)});
    console.log(JSON.stringify([makeTempDir('inv-unit-a-'), makeTempDir('inv-unit-b-')]));
    setInterval(() => undefined, 1000);
  `;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(child.stdout!, 'data')) as [Buffer];
  const dirs = JSON.parse(line.toString()) as string[];
  for (const dir of dirs) expect(existsSync(dir), dir).toBe(true);
  return { child, dirs };
}

describe('temporary directories of a test process', () => {
  it('are removed when the process is sent SIGTERM, which then ends with 143', async () => {
    const { child, dirs } = await holder();
    child.kill('SIGTERM');
    const [code, signal] = await once(child, 'exit');
    expect({ code, signal }).toEqual({ code: 143, signal: null });
    for (const dir of dirs) expect(existsSync(dir), dir).toBe(false);
  });

  it('are left by a process killed outright, and removed by the next run', async () => {
    const { child, dirs } = await holder();
    child.kill('SIGKILL');
    await once(child, 'exit');
    for (const dir of dirs) expect(existsSync(dir), dir).toBe(true);
    expect(removeLeftoversOfEndedProcesses()).toBeGreaterThanOrEqual(2);
    for (const dir of dirs) expect(existsSync(dir), dir).toBe(false);
  });
});
