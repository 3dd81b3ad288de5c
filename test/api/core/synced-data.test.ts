/**
 * Synced data (NetBox 3.7 SyncedDataMixin): objects whose content comes from a data file. Config
 * contexts take a YAML or JSON file as their data; a sync of the source updates the ones with auto
 * sync; `POST .../<id>/sync/` copies the file again.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../../helpers/app.js';
import { uniq, grant, makeUser, type Json } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

/** a synced data source over a new directory holding `files`; answers the source and its files by path */
async function sourceWith(
  files: Record<string, string | Buffer>,
): Promise<{ dir: string; source: Json; file: (path: string) => Promise<Json> }> {
  const dir = t.tempDir('inv-synced-');
  for (const [p, content] of Object.entries(files)) writeFileSync(join(dir, p), content);
  const source = (await t.post('/api/core/data-sources/', { name: uniq('ds'), type: 'local', source_url: dir })).json();
  expect((await t.post(`/api/core/data-sources/${source.id}/sync/`, {})).statusCode).toBe(200);
  const file = async (path: string) =>
    (await t.get(`/api/core/data-files/?source_id=${source.id}&path=${encodeURIComponent(path)}`)).json().results[0];
  return { dir, source, file };
}

const context = (attrs: Json) => t.post('/api/extras/config-contexts/', { name: uniq('cc'), data: {}, ...attrs });

describe('config contexts from data files', () => {
  it('takes a YAML file as its data, names the source and path, and clears them without a file', async () => {
    const { source, file } = await sourceWith({ 'ntp.yaml': 'ntp:\n  servers: [10.0.0.1, 10.0.0.2]\n' });
    const f = await file('ntp.yaml');
    const res = await context({ data_file: f.id, data: { ignored: true } });
    expect(res.statusCode, res.body).toBe(201);
    const cc = res.json();
    expect(cc).toMatchObject({
      data: { ntp: { servers: ['10.0.0.1', '10.0.0.2'] } },
      data_source: { id: source.id, name: source.name },
      data_file: { id: f.id, path: 'ntp.yaml' },
      data_path: 'ntp.yaml',
      auto_sync_enabled: false,
    });
    expect(Date.parse(cc.data_synced)).toBeGreaterThan(Date.now() - 60_000);
    expect(
      (await t.get(`/api/extras/config-contexts/?data_file_id=${f.id}`)).json().results.map((r: Json) => r.id),
    ).toEqual([cc.id]);
    expect((await t.get(`/api/extras/config-contexts/?data_source_id=${source.id}`)).json().count).toBe(1);

    // NetBox: without a data file the source, path and sync time are cleared; the data stays
    const off = (await t.patch(`/api/extras/config-contexts/${cc.id}/`, { data_file: null, data: { own: 1 } })).json();
    expect(off).toMatchObject({
      data: { own: 1 },
      data_source: null,
      data_file: null,
      data_path: '',
      data_synced: null,
    });
    // a source named alone is cleared too (NetBox's clean() sets it from the file)
    expect(
      (await t.patch(`/api/extras/config-contexts/${cc.id}/`, { data_source: source.id })).json().data_source,
    ).toBeNull();
  });

  it('refuses a file that holds no object, or is not YAML', async () => {
    const { file } = await sourceWith({
      'list.json': '[1, 2]',
      'bad.yaml': 'a: [unclosed',
      'bin.dat': Buffer.from([0xff, 0xfe, 0x00]),
    });
    const list = await context({ data_file: (await file('list.json')).id });
    expect(list.statusCode).toBe(400);
    expect(list.json().data_file[0]).toContain('JSON data must be in object form');
    const bad = await context({ data_file: (await file('bad.yaml')).id });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().data_file[0]).toContain('neither JSON nor YAML');
    expect((await context({ data_file: (await file('bin.dat')).id })).json()).toEqual({
      data_file: ['bin.dat is not UTF-8 text.'],
    });
    expect((await context({ data_file: 99999999 })).statusCode).toBe(400);
  });

  it('a sync of the source updates the contexts with auto sync, and only those; a file turned invalid leaves its context', async () => {
    const { dir, source, file } = await sourceWith({ 'a.json': '{"v": 1}', 'b.json': '{"v": 1}' });
    const auto = (await context({ data_file: (await file('a.json')).id, auto_sync_enabled: true })).json();
    const manual = (await context({ data_file: (await file('a.json')).id })).json();
    const turned = (await context({ data_file: (await file('b.json')).id, auto_sync_enabled: true })).json();
    writeFileSync(join(dir, 'a.json'), '{"v": 2}');
    writeFileSync(join(dir, 'b.json'), '"no longer an object"');
    expect((await t.post(`/api/core/data-sources/${source.id}/sync/`, {})).statusCode).toBe(200);
    expect((await t.get(`/api/extras/config-contexts/${auto.id}/`)).json().data).toEqual({ v: 2 });
    expect((await t.get(`/api/extras/config-contexts/${manual.id}/`)).json().data).toEqual({ v: 1 });
    expect((await t.get(`/api/extras/config-contexts/${turned.id}/`)).json().data).toEqual({ v: 1 });
    // the job names the context it could not update; the update is change-logged
    const job = (await t.get(`/api/core/jobs/?object_type=core.datasource&object_id=${source.id}&ordering=-id`)).json()
      .results[0];
    expect(job.data.auto_sync_failed).toEqual([
      { object_type: 'extras.configcontext', object_id: turned.id, error: expect.stringContaining('object') },
    ]);
    const changes = (
      await t.get(`/api/extras/object-changes/?changed_object_type=extras.configcontext&changed_object_id=${auto.id}`)
    ).json();
    expect(changes.count).toBe(2);

    // POST .../sync/ copies the file into a context without auto sync
    const synced = await t.post(`/api/extras/config-contexts/${manual.id}/sync/`, {});
    expect(synced.statusCode, synced.body).toBe(200);
    expect(synced.json().data).toEqual({ v: 2 });
  });

  it('sync needs the sync permission; an object without a file is answered as it is', async () => {
    const { file } = await sourceWith({ 'x.json': '{"x": 1}' });
    const cc = (await context({ data_file: (await file('x.json')).id })).json();
    const user = await makeUser(t);
    await grant(t, { object_types: ['extras.configcontext'], actions: ['view'], users: [user.id] });
    const denied = await t.request('POST', `/api/extras/config-contexts/${cc.id}/sync/`, { token: user.token });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ detail: 'Missing permission: extras.sync_configcontext' });
    await grant(t, { object_types: ['extras.configcontext'], actions: ['sync'], users: [user.id] });
    expect(
      (await t.request('POST', `/api/extras/config-contexts/${cc.id}/sync/`, { token: user.token })).statusCode,
    ).toBe(200);
    const plain = (await context({})).json();
    const res = await t.post(`/api/extras/config-contexts/${plain.id}/sync/`, {});
    expect(res.statusCode).toBe(200);
    expect(res.json().last_updated).toBe(plain.last_updated);
    expect((await t.post('/api/extras/config-contexts/99999999/sync/', {})).statusCode).toBe(404);
  });

  it('a data source named by a context cannot be deleted; a file the sync removes leaves the context its data', async () => {
    const { dir, source, file } = await sourceWith({ 'gone.json': '{"g": 1}' });
    const cc = (await context({ data_file: (await file('gone.json')).id })).json();
    expect((await t.del(`/api/core/data-sources/${source.id}/`)).statusCode).toBe(409);
    rmSync(join(dir, 'gone.json'));
    expect((await t.post(`/api/core/data-sources/${source.id}/sync/`, {})).statusCode).toBe(200);
    expect((await t.get(`/api/extras/config-contexts/${cc.id}/`)).json()).toMatchObject({
      data: { g: 1 },
      data_file: null,
      data_source: { id: source.id },
      data_path: 'gone.json',
    });
  });
});

describe('templates from data files', () => {
  it('a config template takes its code from a file, renders it, and follows the file on auto sync', async () => {
    const { dir, source, file } = await sourceWith({ 'base.j2': 'hostname {{ device.name }}' });
    const res = await t.post('/api/extras/config-templates/', {
      name: uniq('ct'),
      template_code: 'replaced',
      data_file: (await file('base.j2')).id,
      auto_sync_enabled: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const tpl = res.json();
    expect(tpl).toMatchObject({
      template_code: 'hostname {{ device.name }}',
      data_path: 'base.j2',
      data_source: { id: source.id },
    });
    const rendered = await t.post(`/api/extras/config-templates/${tpl.id}/render/`, { device: { name: 'edge1' } });
    expect(rendered.json().content).toBe('hostname edge1');
    writeFileSync(join(dir, 'base.j2'), 'hostname {{ device.name | upper }}');
    await t.post(`/api/core/data-sources/${source.id}/sync/`, {});
    expect(
      (await t.post(`/api/extras/config-templates/${tpl.id}/render/`, { device: { name: 'edge1' } })).json().content,
    ).toBe('hostname EDGE1');
    expect(
      (await t.get(`/api/extras/config-templates/?data_source_id=${source.id}`)).json().results.map((r: Json) => r.id),
    ).toEqual([tpl.id]);
  });

  it('an export template takes its code from a file; a file that is not text is refused', async () => {
    const { file } = await sourceWith({
      'sites.csv.j2': '{% for s in queryset %}{{ s.name }}\n{% endfor %}',
      'logo.bin': Buffer.from([0xc3, 0x28]),
    });
    const res = await t.post('/api/extras/export-templates/', {
      name: uniq('et'),
      content_types: ['dcim.site'],
      template_code: 'x',
      data_file: (await file('sites.csv.j2')).id,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      template_code: '{% for s in queryset %}{{ s.name }}\n{% endfor %}',
      data_path: 'sites.csv.j2',
    });
    const bad = await t.post('/api/extras/export-templates/', {
      name: uniq('et'),
      content_types: ['dcim.site'],
      template_code: 'x',
      data_file: (await file('logo.bin')).id,
    });
    expect(bad.json()).toEqual({ data_file: ['logo.bin is not UTF-8 text.'] });
  });
});
