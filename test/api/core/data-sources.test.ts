/**
 * Data sources (NetBox 3.7 core): local directories synced into data files. Each test syncs its own
 * temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDataFile, readDataFileData, readDataFileText } from '../../../src/apps/core/data-file-content.js';
import { type TestApp, makeTestApp } from '../../helpers/app.js';
import { uniq, grant, makeUser, type Json } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

const tempDir = () => t.tempDir('inv-ds-');

function write(dir: string, rel: string, content: string | Buffer): void {
  mkdirSync(join(dir, rel, '..'), { recursive: true });
  writeFileSync(join(dir, rel), content);
}

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');

async function makeSource(attrs: Json = {}, token?: string): Promise<Json> {
  const res = await t.request('POST', '/api/core/data-sources/', {
    body: { name: uniq('ds'), type: 'local', source_url: tempDir(), ...attrs },
    token,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function sync(id: number, token?: string) {
  return t.request('POST', `/api/core/data-sources/${id}/sync/`, { token });
}

async function filesOf(id: number): Promise<Json[]> {
  const res = await t.get(`/api/core/data-files/?source_id=${id}&limit=1000&ordering=path`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results;
}

describe('POST /api/core/data-sources/', () => {
  it('creates a local source in NetBox 3.7 shape, status new and no files', async () => {
    const dir = tempDir();
    const res = await t.post('/api/core/data-sources/', {
      name: uniq('ds'),
      type: 'local',
      source_url: `file://${dir}`,
      ignore_rules: '*.bak',
      parameters: null,
    });
    expect(res.statusCode, res.body).toBe(201);
    const ds = res.json();
    expect(ds).toMatchObject({
      type: { value: 'local', label: 'Local' },
      status: { value: 'new', label: 'New' },
      enabled: true,
      source_url: `file://${dir}`,
      file_count: 0,
      last_synced: null,
    });
    for (const k of [
      'id',
      'url',
      'display',
      'name',
      'description',
      'comments',
      'parameters',
      'ignore_rules',
      'custom_fields',
      'created',
      'last_updated',
    ])
      expect(ds).toHaveProperty(k);
    const brief = (await t.get(`/api/core/data-sources/${ds.id}/?brief=1`)).json();
    expect(Object.keys(brief).sort()).toEqual(['display', 'id', 'name', 'url']);
  });

  it.each(['git', 'amazon-s3'])('refuses type %s with a 400 naming the type', async (type) => {
    const res = await t.post('/api/core/data-sources/', {
      name: uniq('ds'),
      type,
      source_url: 'https://example.com/repo.git',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().type[0]).toMatch(/not supported.*only "local"/);
  });

  it('refuses a relative path or another URL scheme', async () => {
    for (const source_url of ['relative/dir', 'http://example.com/x']) {
      const res = await t.post('/api/core/data-sources/', { name: uniq('ds'), type: 'local', source_url });
      expect(res.statusCode, source_url).toBe(400);
      expect(res.json()).toHaveProperty('source_url');
    }
  });

  it('takes a superuser or the sync permission to create one', async () => {
    const user = await makeUser(t);
    await grant(t, { object_types: ['core.datasource'], actions: ['view', 'add', 'change'], users: [user.id] });
    const denied = await t.request('POST', '/api/core/data-sources/', {
      body: { name: uniq('ds'), type: 'local', source_url: tempDir() },
      token: user.token,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toMatch(/core\.sync_datasource/);
    await grant(t, { object_types: ['core.datasource'], actions: ['sync'], users: [user.id] });
    const ds = await makeSource({}, user.token);
    // a change that does not repoint it needs no more than change
    const other = await makeUser(t);
    await grant(t, { object_types: ['core.datasource'], actions: ['view', 'change'], users: [other.id] });
    expect(
      (await t.request('PATCH', `/api/core/data-sources/${ds.id}/`, { body: { description: 'x' }, token: other.token }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.request('PATCH', `/api/core/data-sources/${ds.id}/`, {
          body: { source_url: '/etc' },
          token: other.token,
        })
      ).statusCode,
    ).toBe(403);
  });
});

describe('DATA_SOURCE_ROOTS', () => {
  it('confines sources to the allowed roots, as written and as resolved at sync', async () => {
    const root = tempDir();
    const outside = tempDir();
    write(outside, 'secret.txt', 'secret');
    const confined = await makeTestApp({ DATA_SOURCE_ROOTS: root });
    try {
      const refused = await confined.post('/api/core/data-sources/', {
        name: uniq('ds'),
        type: 'local',
        source_url: outside,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().source_url[0]).toMatch(/DATA_SOURCE_ROOTS/);
      // a link inside the root that leads out of it is caught when the sync resolves it
      symlinkSync(outside, join(root, 'escape'));
      const created = await confined.post('/api/core/data-sources/', {
        name: uniq('ds'),
        type: 'local',
        source_url: join(root, 'escape'),
      });
      expect(created.statusCode, created.body).toBe(201);
      const res = await confined.post(`/api/core/data-sources/${created.json().id}/sync/`, {});
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/outside every allowed data source root/);
      expect((await confined.get(`/api/core/data-files/?source_id=${created.json().id}`)).json().count).toBe(0);
    } finally {
      await confined.close();
    }
  });
});

describe('POST /api/core/data-sources/<id>/sync/', () => {
  it('creates, updates and deletes data files with their size and sha256, and records a job', async () => {
    const ds = await makeSource();
    const dir = ds.source_url as string;
    write(dir, 'a.yaml', 'a: 1\n');
    write(dir, 'sub/b.json', '{"b": 2}');
    write(dir, 'gone.txt', 'bye');
    const first = await sync(ds.id);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ id: ds.id, status: { value: 'completed' }, file_count: 3 });
    expect(first.json().last_synced).toEqual(expect.any(String));
    let files = await filesOf(ds.id);
    expect(files.map((f) => f.path)).toEqual(['a.yaml', 'gone.txt', 'sub/b.json']);
    const a = files[0]!;
    expect(a).toMatchObject({
      display: 'a.yaml',
      size: 5,
      hash: sha256('a: 1\n'),
      source: { id: ds.id, name: ds.name },
    });
    expect(a).not.toHaveProperty('data');
    expect(await readDataFileText({ q: t.db.kysely }, a.id)).toBe('a: 1\n');
    expect(await readDataFileData({ q: t.db.kysely }, a.id)).toEqual({ a: 1 });
    expect(await readDataFileData({ q: t.db.kysely }, files[2]!.id)).toEqual({ b: 2 });

    write(dir, 'a.yaml', 'a: 22\n');
    unlinkSync(join(dir, 'gone.txt'));
    write(dir, 'new.txt', 'hello');
    const bId = files[2]!.id;
    const bUpdated = files[2]!.last_updated;
    expect((await sync(ds.id)).statusCode).toBe(200);
    files = await filesOf(ds.id);
    expect(files.map((f) => f.path)).toEqual(['a.yaml', 'new.txt', 'sub/b.json']);
    expect(files[0]).toMatchObject({ id: a.id, size: 6, hash: sha256('a: 22\n') });
    expect(files[2]).toMatchObject({ id: bId, last_updated: bUpdated });
    expect((await readDataFile({ q: t.db.kysely }, a.id))!.data.toString()).toBe('a: 22\n');

    const jobs = (
      await t.get(`/api/core/jobs/?object_type=core.datasource&object_id=${ds.id}&ordering=created`)
    ).json();
    expect(jobs.count).toBe(2);
    expect(jobs.results[1]).toMatchObject({
      status: { value: 'completed' },
      object_type: 'core.datasource',
      object_id: ds.id,
      data: { created: 1, updated: 1, deleted: 1 },
    });
    expect(jobs.results[1].user.username).toBe(t.username);
    expect(jobs.results[1].display).toBe(jobs.results[1].job_id);
  });

  it('leaves out hidden files and those the ignore rules name, matched on the file name', async () => {
    const ds = await makeSource({ ignore_rules: '*.bak\nsecret?.txt\n[!k]eep.md' });
    const dir = ds.source_url as string;
    for (const f of [
      'keep.txt',
      'x.bak',
      'deep/y.bak',
      'secret1.txt',
      'secret12.txt',
      '.hidden',
      '.git/config',
      'keep.md',
      'beep.md',
    ])
      write(dir, f, f);
    expect((await sync(ds.id)).statusCode).toBe(200);
    expect((await filesOf(ds.id)).map((f) => f.path)).toEqual(['keep.md', 'keep.txt', 'secret12.txt']);
  });

  it('reads links within the source and skips those leading out of it', async () => {
    const ds = await makeSource();
    const dir = ds.source_url as string;
    const outside = tempDir();
    write(outside, 'passwd', 'root:x:0:0');
    write(dir, 'real.txt', 'real');
    symlinkSync(join(dir, 'real.txt'), join(dir, 'alias.txt'));
    symlinkSync(join(outside, 'passwd'), join(dir, 'escape.txt'));
    symlinkSync(outside, join(dir, 'escape-dir'));
    const res = await sync(ds.id);
    expect(res.statusCode, res.body).toBe(200);
    expect((await filesOf(ds.id)).map((f) => f.path)).toEqual(['alias.txt', 'real.txt']);
    const job = (await t.get(`/api/core/jobs/?object_type=core.datasource&object_id=${ds.id}`)).json().results[0];
    expect(job.data.skipped).toEqual(
      expect.arrayContaining([{ path: 'escape.txt', reason: expect.stringMatching(/outside/) }]),
    );
  });

  it('reads a file that is not UTF-8 as bytes only', async () => {
    const ds = await makeSource();
    write(ds.source_url, 'blob.bin', Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    expect((await sync(ds.id)).statusCode).toBe(200);
    const [blob] = await filesOf(ds.id);
    expect(blob).toMatchObject({ size: 4, hash: sha256(Buffer.from([0xff, 0xfe, 0x00, 0x01])) });
    expect([...(await readDataFile({ q: t.db.kysely }, blob!.id))!.data]).toEqual([0xff, 0xfe, 0x00, 0x01]);
    expect(await readDataFileText({ q: t.db.kysely }, blob!.id)).toBeNull();
    expect(await readDataFileData({ q: t.db.kysely }, blob!.id)).toBeUndefined();
  });

  it('passes over special files and reports broken links, without waiting on a FIFO', async () => {
    const ds = await makeSource();
    const dir = ds.source_url as string;
    write(dir, 'plain.txt', 'plain');
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    symlinkSync(join(dir, 'nowhere.txt'), join(dir, 'broken.txt'));
    symlinkSync(join(dir, 'pipe'), join(dir, 'pipe-link'));
    const res = await sync(ds.id);
    expect(res.statusCode, res.body).toBe(200);
    expect((await filesOf(ds.id)).map((f) => f.path)).toEqual(['plain.txt']);
    const job = (await t.get(`/api/core/jobs/?object_type=core.datasource&object_id=${ds.id}`)).json().results[0];
    expect(job.data.skipped.map((s: Json) => s.path).sort()).toEqual(['broken.txt', 'pipe-link']);
  });

  it('skips files over DATA_SOURCE_MAX_FILE_SIZE and fails over the total, changing nothing', async () => {
    const small = await makeTestApp({ DATA_SOURCE_MAX_FILE_SIZE: '10', DATA_SOURCE_MAX_TOTAL_SIZE: '15' });
    try {
      const dir = tempDir();
      write(dir, 'big.txt', 'x'.repeat(11));
      write(dir, 'ok.txt', 'y'.repeat(10));
      const ds = (
        await small.post('/api/core/data-sources/', { name: uniq('ds'), type: 'local', source_url: dir })
      ).json();
      expect((await small.post(`/api/core/data-sources/${ds.id}/sync/`, {})).statusCode).toBe(200);
      expect(
        (await small.get(`/api/core/data-files/?source_id=${ds.id}`)).json().results.map((f: Json) => f.path),
      ).toEqual(['ok.txt']);
      write(dir, 'more.txt', 'z'.repeat(10));
      const res = await small.post(`/api/core/data-sources/${ds.id}/sync/`, {});
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/DATA_SOURCE_MAX_TOTAL_SIZE/);
      expect((await small.get(`/api/core/data-files/?source_id=${ds.id}`)).json().count).toBe(1);
      expect((await small.get(`/api/core/data-sources/${ds.id}/`)).json().status.value).toBe('failed');
      const jobs = (
        await small.get(`/api/core/jobs/?object_id=${ds.id}&object_type=core.datasource&status=errored`)
      ).json();
      expect(jobs.count).toBe(1);
      expect(jobs.results[0].error).toMatch(/DATA_SOURCE_MAX_TOTAL_SIZE/);
    } finally {
      await small.close();
    }
  });

  it('fails clearly when the directory is missing', async () => {
    const ds = await makeSource({ source_url: join(tempDir(), 'missing') });
    const res = await sync(ds.id);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^Sync failed: .*does not exist/);
  });

  it('takes core.sync_datasource, constraints included', async () => {
    const ds = await makeSource();
    const other = await makeSource();
    const user = await makeUser(t);
    await grant(t, { object_types: ['core.datasource'], actions: ['view'], users: [user.id] });
    const denied = await sync(ds.id, user.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().detail).toBe('This user does not have permission to synchronize this data source.');
    await grant(t, {
      object_types: ['core.datasource'],
      actions: ['sync'],
      users: [user.id],
      constraints: { name: ds.name },
    });
    expect((await sync(ds.id, user.token)).statusCode).toBe(200);
    expect((await sync(other.id, user.token)).statusCode).toBe(403);
    expect((await t.request('POST', `/api/core/data-sources/${ds.id}/sync/`, { token: null })).statusCode).toBe(403);
    expect((await sync(999_999_999)).statusCode).toBe(404);
  });

  it('keeps one consistent set of files under concurrent syncs of one source', async () => {
    const ds = await makeSource();
    const dir = ds.source_url as string;
    for (let i = 0; i < 30; i++) write(dir, `f${String(i).padStart(2, '0')}.txt`, `file ${i}`);
    const answers = await Promise.all(Array.from({ length: 4 }, () => sync(ds.id)));
    const codes = answers.map((r) => r.statusCode);
    for (const r of answers) if (r.statusCode === 409) expect(r.json().detail).toMatch(/already in progress/);
    expect(
      codes.every((c) => c === 200 || c === 409),
      String(codes),
    ).toBe(true);
    expect(codes).toContain(200);
    const files = await filesOf(ds.id);
    expect(files).toHaveLength(30);
    expect(new Set(files.map((f) => f.path)).size).toBe(30);
    const jobs = (await t.get(`/api/core/jobs/?object_type=core.datasource&object_id=${ds.id}`)).json();
    expect(jobs.count).toBe(codes.filter((c) => c === 200).length);
  });

  it('deletes the source with its files and jobs', async () => {
    const ds = await makeSource();
    write(ds.source_url, 'a.txt', 'a');
    expect((await sync(ds.id)).statusCode).toBe(200);
    const [file] = await filesOf(ds.id);
    expect((await t.del(`/api/core/data-sources/${ds.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/core/data-files/${file!.id}/`)).statusCode).toBe(404);
    expect((await t.get(`/api/core/jobs/?object_type=core.datasource&object_id=${ds.id}`)).json().count).toBe(0);
    expect(await readDataFile({ q: t.db.kysely }, file!.id)).toBeNull();
  });
});

describe('GET /api/core/data-files/', () => {
  it('is read-only and filters by source, path and hash', async () => {
    const ds = await makeSource();
    write(ds.source_url, 'one.txt', 'one');
    write(ds.source_url, 'two.txt', 'two');
    await sync(ds.id);
    const byName = (await t.get(`/api/core/data-files/?source=${ds.name}&path__ic=two`)).json();
    expect(byName.results.map((f: Json) => f.path)).toEqual(['two.txt']);
    expect((await t.get(`/api/core/data-files/?hash=${sha256('one')}&source_id=${ds.id}`)).json().count).toBe(1);
    expect((await t.post('/api/core/data-files/', {})).statusCode).toBe(405);
  });
});
