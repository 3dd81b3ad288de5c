/**
 * `inventory backup` / `restore` (src/backup/): data made through the API, backed up, restored
 * onto a new database of this run's engine and of the other one, and compared row by row (a
 * backup of the restored database must carry the very same row lines); then every refusal, a
 * failed load that must leave the target as it was, and --force.
 */
import { randomBytes } from 'node:crypto';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { writeBackup } from '../../src/backup/backup.js';
import { restoreBackup, verifyBackup } from '../../src/backup/restore.js';
import { loadConfig } from '../../src/config.js';
import { type Database, openDatabase } from '../../src/db/client.js';
import {
  makeCable,
  makeDevice,
  makeInterface,
  makeSite,
  makeToken,
  makeUser,
  make,
  named,
  uniq,
} from '../factories/index.js';
import { type TestApp, makeTestApp } from '../helpers/app.js';
import { dataUri, png } from '../helpers/images.js';
import { ENGINE, adminQuery, needsPostgresServer, pgUrl } from '../helpers/engine.js';

let t: TestApp;
let dir: string;
let file: string;
let sourceRows: string;
const pgServer = await needsPostgresServer();

/** the file's lines after the header (the header's time and engine differ from one backup to the next) */
const rowLines = (path: string) => gunzipSync(readFileSync(path)).toString('utf8').split('\n').slice(1).join('\n');

async function rowsOf(db: Database): Promise<string> {
  const path = join(dir, `${uniq('check')}.jsonl.gz`);
  await writeBackup(db, path);
  return rowLines(path);
}

/** a new, empty database of an engine (PostgreSQL: a database of its own on the server) */
async function newTarget(engine: 'pglite' | 'postgres'): Promise<{ db: Database; drop(): Promise<void> }> {
  if (engine === 'pglite') {
    const db = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
    return { db, drop: () => db.close() };
  }
  const name = `inv_bk_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  const db = await openDatabase({ databaseUrl: pgUrl(name), dataDir: '', poolSize: 2 });
  return {
    db,
    drop: async () => {
      await db.close();
      await adminQuery(`drop database if exists ${name} with (force)`);
    },
  };
}

/** rewrites a backup's lines, then recomputes its trailer (so only `edit`'s change is wrong) */
function rewrite(edit: (lines: string[]) => string[], trailer = true): string {
  const lines = gunzipSync(readFileSync(file)).toString('utf8').trimEnd().split('\n');
  let out = edit(lines);
  if (trailer) {
    const sums: Record<string, { rows: number; sha256: string }> = {};
    let cur: { name: string; hash: ReturnType<typeof createHash>; rows: number } | null = null;
    const close = () => cur && (sums[cur.name] = { rows: cur.rows, sha256: cur.hash.digest('hex') });
    for (const line of out.slice(1, -1)) {
      if (line.startsWith('["table"')) {
        close();
        cur = { name: JSON.parse(line)[1], hash: createHash('sha256'), rows: 0 };
      } else {
        cur!.hash.update(line).update('\n');
        cur!.rows++;
      }
    }
    close();
    out = [...out.slice(0, -1), JSON.stringify(['end', sums])];
  }
  const path = join(dir, `${uniq('edited')}.jsonl.gz`);
  writeFileSync(path, gzipSync(`${out.join('\n')}\n`));
  return path;
}

async function refusal(path: string, force = false): Promise<string> {
  const err = await restoreBackup(t.db, path, { force }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return (err as Error).message;
}

beforeAll(async () => {
  t = await makeTestApp();
  dir = t.tempDir('inv-backup-');
  const [a, b] = [await makeDevice(t), await makeDevice(t)];
  const cable = await makeCable(t, await makeInterface(t, a), await makeInterface(t, b));
  expect(cable.id).toBeGreaterThan(0);
  const site = await makeSite(t, { description: 'quote \' and "double", ünïcode, tab\t' });
  await make(t, '/api/ipam/prefixes/', { prefix: '10.77.0.0/16', site: site.id });
  await make(t, '/api/ipam/ip-addresses/', { address: '10.77.1.1/24', dns_name: 'a.example.org' });
  await make(t, '/api/extras/tags/', named('tag'));
  await makeUser(t);
  await makeToken(t);
  file = join(dir, 'backup.jsonl.gz');
  await writeBackup(t.db, file);
  sourceRows = rowLines(file);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('backup', () => {
  it('writes a whole file: header, every table checked by the trailer', async () => {
    const header = await verifyBackup(file);
    expect(header.format).toBe('netinventory-backup');
    expect(header.engine).toBe(ENGINE);
    expect(header.migrations.length).toBeGreaterThan(50);
    expect(header.tables.dcim_device).toBeGreaterThanOrEqual(2);
    expect(header.tables.users_token).toBeGreaterThanOrEqual(2);
    expect(header.tables).not.toHaveProperty('users_session');
  });

  it('is one snapshot while writes go on: counts taken at the start match the rows streamed', async () => {
    const path = join(dir, 'during-writes.jsonl.gz');
    const writes = Promise.all(Array.from({ length: 15 }, () => makeSite(t)));
    await writeBackup(t.db, path);
    await writes;
    // verifyBackup compares the header's count(*) of every table with the rows read later
    await expect(verifyBackup(path)).resolves.toBeTruthy();
    file = join(dir, 'backup2.jsonl.gz');
    await writeBackup(t.db, file);
    sourceRows = rowLines(file);
  });
});

describe('restore onto a new database', () => {
  for (const engine of ['pglite', 'postgres'] as const) {
    const other = engine !== ENGINE;
    const skip = engine === 'postgres' && !pgServer.available;
    it.skipIf(skip)(
      `${other ? 'the other engine' : 'the same engine'} (${engine}): every row the same, sequences after the rows, the API answers alike${skip ? pgServer.reason : ''}`,
      async () => {
        const target = await newTarget(engine);
        try {
          const r = await restoreBackup(target.db, file, { force: false });
          expect(r.rows).toBeGreaterThan(100);
          expect(await rowsOf(target.db)).toBe(sourceRows);
          const max = await sql<{ m: number }>`select max(id)::int as m from dcim_site`.execute(target.db.kysely);
          const next = await sql<{
            n: number;
          }>`select nextval(pg_get_serial_sequence('dcim_site', 'id'))::int as n`.execute(target.db.kysely);
          expect(next.rows[0]!.n).toBeGreaterThan(max.rows[0]!.m);
          // the restored service: the superuser's token works and the lists read the same
          const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent', MEDIA_ROOT: t.tempDir('inv-bk-media-') }), {
            db: target.db,
          });
          try {
            for (const url of ['/api/dcim/devices/?ordering=id', '/api/dcim/cables/', '/api/ipam/ip-addresses/']) {
              const want = await t.get(url);
              const got = await app.inject({ url, headers: { authorization: `Token ${t.token}` } });
              expect(got.statusCode, got.body).toBe(200);
              expect(got.json()).toEqual(want.json());
            }
          } finally {
            await app.close();
          }
        } finally {
          await target.drop();
        }
      },
      120_000,
    );
  }
});

describe('refusals: one-line message, target untouched', () => {
  it('a truncated file, a file that is not a backup, a newer version, unknown migrations, a checksum mismatch, a non-empty target', async () => {
    const before = await rowsOf(t.db);
    const bytes = readFileSync(file);
    const cut = join(dir, 'cut.jsonl.gz');
    writeFileSync(cut, bytes.subarray(0, Math.floor(bytes.length / 2)));
    expect(await refusal(cut)).toMatch(/not a whole gzip file|truncated/);
    const cleanCut = rewrite((l) => l.slice(0, Math.floor(l.length / 2)), false);
    expect(await refusal(cleanCut)).toMatch(/is truncated/);
    const text = join(dir, 'text.txt');
    writeFileSync(text, 'hello\n');
    expect(await refusal(text)).toMatch(/not a whole gzip file/);
    const notBackup = join(dir, 'other.gz');
    writeFileSync(notBackup, gzipSync('{"hello": 1}\n'));
    expect(await refusal(notBackup)).toMatch(/is not a backup of this service/);
    const newer = rewrite((l) => [JSON.stringify({ ...JSON.parse(l[0]!), serviceVersion: '999.0.0' }), ...l.slice(1)]);
    expect(await refusal(newer)).toMatch(/version 999\.0\.0, newer than this code/);
    const future = rewrite((l) => {
      const h = JSON.parse(l[0]!);
      return [JSON.stringify({ ...h, migrations: [...h.migrations, '9999_future.sql'] }), ...l.slice(1)];
    });
    expect(await refusal(future)).toMatch(/migrations this code does not have \(9999_future\.sql\)/);
    const altered = rewrite(
      (l) => l.map((line) => line.replace('"dns_name":"a.example.org"', '"dns_name":"b.example.org"')),
      false,
    );
    expect(await refusal(altered)).toMatch(/ipam_ipaddress fails its SHA-256 check/);
    expect(await refusal(file)).toMatch(/target database is not empty .*use --force/);
    for (const m of [await refusal(future), await refusal(file)]) expect(m).not.toContain('\n');
    expect(await rowsOf(t.db)).toBe(before);
  });

  it('a load that fails in the middle (a bad row under a good checksum) leaves the target as it was', async () => {
    const before = await rowsOf(t.db);
    const bad = rewrite((l) => {
      const i = l.indexOf(JSON.stringify(['table', 'dcim_device']));
      expect(i).toBeGreaterThan(0);
      // the header counts the added row too, so only the load can fail
      const h = JSON.parse(l[0]!);
      h.tables.dcim_device += 1;
      return [JSON.stringify(h), ...l.slice(1, i + 1), '{"id":"not a number"}', ...l.slice(i + 1)];
    });
    expect(await refusal(bad, true)).toMatch(
      /^restore failed while loading dcim_device, no row was changed: invalid input syntax/,
    );
    expect(await rowsOf(t.db)).toBe(before);
  });
});

describe('the running service: GET /api/core/backup/ and backup --url', () => {
  it('is for superusers only', async () => {
    const user = await makeUser(t);
    const res = await t.get('/api/core/backup/', user.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().detail).toBe('Only a superuser may download a backup.');
    expect((await t.get('/api/core/backup/', null)).statusCode).toBe(403);
  });

  it('streams a whole, consistent backup while writes go on', async () => {
    const sitesBefore = (await t.get('/api/dcim/sites/?limit=1')).json().count as number;
    const writes = Promise.all(Array.from({ length: 10 }, () => makeSite(t)));
    const res = await t.get('/api/core/backup/');
    await writes;
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/gzip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="inventory-backup-[\dT-]+\.jsonl\.gz"$/);
    const path = join(dir, 'over-http.jsonl.gz');
    writeFileSync(path, res.rawPayload);
    const header = await verifyBackup(path);
    expect(header.tables.dcim_site).toBeGreaterThanOrEqual(sitesBefore);
    expect(header.tables.dcim_site).toBeLessThanOrEqual(sitesBefore + 10);
  });

  it('inventory backup FILE --url --token: the same rows as the database; a refused token leaves no file', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const run = (...args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          ['--import', 'tsx', 'src/cli.ts', 'backup', ...args],
          { env: { ...process.env, LOG_LEVEL: 'silent' }, timeout: 60_000 },
          (err, stdout, stderr) => resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        );
      });
    const path = join(dir, 'cli-http.jsonl.gz');
    const ok = await run(path, '--url', address, '--token', t.token);
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toMatch(/^Backup written to .* by the service at /);
    expect(rowLines(path)).toBe(await rowsOf(t.db));
    const user = await makeUser(t);
    const refused = join(dir, 'refused.jsonl.gz');
    const bad = await run(refused, '--url', address, '--token', user.token);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim()).toMatch(/^the service at .* answered 403: .*Only a superuser/);
    expect(existsSync(refused) || existsSync(`${refused}.partial`)).toBe(false);
  }, 90_000);
});

describe('--force', () => {
  it('replaces a non-empty database with the file: rows made since are gone', async () => {
    const later = await makeSite(t);
    expect(await rowsOf(t.db)).not.toBe(sourceRows);
    await restoreBackup(t.db, file, { force: true });
    expect(await rowsOf(t.db)).toBe(sourceRows);
    const gone = await sql<{ n: number }>`select count(*)::int as n from dcim_site where id = ${later.id}`.execute(
      t.db.kysely,
    );
    expect(gone.rows[0]!.n).toBe(0);
  });
});

describe('the commands', () => {
  /** `inventory <args>` as a child process with its own DATA_DIR */
  const cli = (dataDir: string, ...args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('refuse bad input with one line on stderr and exit 1, before any database is made', () => {
    const dataDir = join(dir, 'cli-data');
    const newer = rewrite((l) => [JSON.stringify({ ...JSON.parse(l[0]!), serviceVersion: '999.0.0' }), ...l.slice(1)]);
    const r = cli(dataDir, 'restore', newer);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(
      /^\S+ was written by version 999\.0\.0, newer than this code \([\d.]+\); restore it/,
    );
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    const b = cli(dataDir, 'backup', join(dir, 'none.jsonl.gz'));
    expect(b.status).toBe(1);
    expect(b.stderr.trim()).toBe(`nothing to back up: DATA_DIR ${dataDir} holds no database`);
    expect(existsSync(dataDir)).toBe(false);
    expect(existsSync(join(dir, 'none.jsonl.gz'))).toBe(false);
  }, 60_000);
});

describe('media files travel with their rows', () => {
  it("an image attachment's file is in the backup and written under the target's MEDIA_ROOT; a name outside it is refused", async () => {
    const site = await makeSite(t);
    const image = png(4, 3);
    const attachment = await make(t, '/api/extras/image-attachments/', {
      content_type: 'dcim.site',
      object_id: site.id,
      name: 'rack-front',
      image_data: dataUri(image),
    });
    const stored = String(attachment.image).replace(/^.*\/media\//, '');
    const path = join(dir, `${uniq('media')}.jsonl.gz`);
    const written = await writeBackup(t.db, path, { mediaRoot: t.app.inventory.config.mediaRoot });
    expect(written.media).toBeGreaterThanOrEqual(1);
    expect((await verifyBackup(path)).media?.[stored]).toBe(image.length);

    const target = await newTarget(ENGINE);
    const mediaRoot = t.tempDir('inv-restored-media-');
    try {
      const restored = await restoreBackup(target.db, path, { force: false, mediaRoot });
      expect(restored.media).toBe(written.media);
      expect(readFileSync(join(mediaRoot, stored)).equals(image)).toBe(true);
    } finally {
      await target.drop();
    }

    // a media name that climbs out of MEDIA_ROOT, under a checksum that matches it
    const lines = gunzipSync(readFileSync(path)).toString('utf8').trimEnd().split('\n');
    const at = lines.indexOf(JSON.stringify(['media', stored]));
    const evil = [...lines];
    evil[at] = JSON.stringify(['media', '../../etc/evil.png']);
    const header = JSON.parse(evil[0]!);
    header.media = { '../../etc/evil.png': image.length };
    evil[0] = JSON.stringify(header);
    const evilPath = join(dir, `${uniq('evil')}.jsonl.gz`);
    writeFileSync(evilPath, gzipSync(`${evil.join('\n')}\n`));
    await expect(verifyBackup(evilPath)).rejects.toThrow(/is not a backup: media file "..\/..\/etc\/evil.png"/);
  }, 120_000);
});
