/**
 * Demo data while the service runs: `inventory demo-data --url --token` loads it into a running
 * service over HTTP (a real service process and a real CLI process), and `serve --demo` loads it
 * before serving into an inventory that holds no site yet. Neither loads it twice.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { loadConfig } from '../../src/config.js';
import { loadDemoAtStart } from '../../src/serve/demo-at-start.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { CHILD_TOKEN, childDatabase, startChildService } from '../helpers/child-service.js';
import { ENGINE } from '../helpers/engine.js';

const ROOT = resolve(import.meta.dirname, '../..');

/** `inventory demo-data <args>` as its own process: exit code and what it printed */
function demoDataCli(args: string[]): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'demo-data', ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr.on('data', (b: Buffer) => (out += b.toString()));
  return new Promise((ok) => child.once('exit', (code) => ok({ code, out })));
}

describe(`inventory demo-data --url against a running service (${ENGINE})`, () => {
  it('loads the demo network through the API of the service, which keeps serving; a second run loads nothing', async () => {
    const db = await childDatabase();
    const svc = await startChildService(db);
    try {
      const api = async (path: string) =>
        (await fetch(`${svc.url}/api/${path}`, { headers: { authorization: `Token ${CHILD_TOKEN}` } })).json();
      expect((await api('dcim/sites/')).count).toBe(0);

      const first = await demoDataCli(['--url', svc.url, '--token', CHILD_TOKEN]);
      expect(first.code, first.out).toBe(0);
      expect(first.out).toContain('Loading demo data:');
      expect(first.out).toContain('Done.');
      expect((await api('dcim/sites/')).count).toBe(4);
      expect((await api('dcim/devices/?limit=1')).count).toBe(36);
      // the VMs name their cluster only: they stand in its site (NetBox 3.4)
      const vms = await api('virtualization/virtual-machines/?site=fra1');
      expect(vms.count).toBe(3);
      // the loader wrote as the token's user: its change records name that user
      const changes = await api('extras/object-changes/?changed_object_type=dcim.site&limit=1');
      expect(changes.results[0].user_name).toBe('child-admin');

      const again = await demoDataCli(['--url', svc.url, '--token', CHILD_TOKEN]);
      expect(again.code, again.out).toBe(0);
      expect(again.out).toContain('already there');
      expect((await api('dcim/sites/')).count).toBe(4);

      const refused = await demoDataCli(['--url', svc.url, '--token', '0'.repeat(40)]);
      expect(refused.code).toBe(1);
      expect(refused.out).toContain('answered 403');
      expect(svc.child.exitCode).toBeNull();
    } finally {
      svc.child.kill('SIGTERM');
      await svc.exited;
      await db.drop();
    }
  }, 300_000);
});

describe('serve --demo', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('loads the demo network into an inventory without sites before serving, and only then', async () => {
    t = await makeTestApp();
    const log = createLogger(loadConfig({ LOG_LEVEL: 'silent' }));
    expect(await loadDemoAtStart(t.app, t.db, log)).toBe(true);
    expect((await t.get('/api/dcim/sites/')).json().count).toBe(4);
    expect((await t.get('/api/dcim/cables/?limit=1')).json().count).toBe(76);
    expect(await loadDemoAtStart(t.app, t.db, log)).toBe(false);
    expect((await t.get('/api/dcim/sites/')).json().count).toBe(4);
    // the loader's own superuser is gone once it is done
    expect((await t.get('/api/users/users/?username__isw=demo-loader')).json().count).toBe(0);
  }, 180_000);
});
