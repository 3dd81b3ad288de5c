/**
 * The bulk pages every list gets (web/model-pages/bulk/): edit, delete and rename of ticked rows or
 * of "all N matching", posted as a browser posts them, each outcome checked through the REST API
 * and the change log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fewestStatements } from '../helpers/statements.js';
import { postForm as postFormOf } from '../helpers/web-forms.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import { grant, type Json, makeDevice, makeSite, makeTag, makeUser, uniq } from '../factories/index.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const api = async (url: string) => (await t.get(url)).json();
type Pairs = Array<[string, string]>;
const post = (url: string, pairs: Pairs, b: WebSession = admin, formUrl = '/dcim/interfaces/') =>
  postFormOf(t, b, url, pairs, { formUrl });

/** a device with `n` interfaces named GigabitEthernet0/1.. ; their ids in name order */
async function deviceWithInterfaces(n: number): Promise<{ device: Json; ids: number[] }> {
  const device = await makeDevice(t);
  const res = await t.post(
    '/api/dcim/interfaces/',
    Array.from({ length: n }, (_, i) => ({ device: device.id, name: `GigabitEthernet0/${i + 1}`, type: '1000base-t' })),
  );
  expect(res.statusCode, res.body).toBe(201);
  return { device, ids: (res.json() as Json[]).map((r) => r.id) };
}

const interfacesOf = async (device: Json): Promise<Json[]> =>
  (await api(`/api/dcim/interfaces/?device_id=${device.id}&limit=1000&ordering=id`)).results;

const changesOf = async (ids: number[], action = 'update'): Promise<Json[]> =>
  (
    await api(`/api/extras/object-changes/?changed_object_type=dcim.interface&action=${action}&limit=1000`)
  ).results.filter((c: Json) => ids.includes(c.changed_object_id));

describe('the list', () => {
  it('wraps its rows in a form whose buttons post the selection to the bulk pages, with the filters', async () => {
    const { device } = await deviceWithInterfaces(3);
    const page = await admin.request('GET', `/dcim/interfaces/?device_id=${device.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      `<form class="bulk" method="post" action="/dcim/interfaces/edit/?device_id=${device.id}">`,
    );
    expect(page.body).toMatch(/<input type="checkbox" name="pk" value="\d+" aria-label="Select GigabitEthernet0\/1/);
    expect(page.body).toContain('Select all 3 matching');
    expect(page.body).toContain('<input type="hidden" name="_count" value="3">');
    expect(page.body).toContain(`formaction="/dcim/interfaces/rename/?device_id=${device.id}"`);
    expect(page.body).toContain(`formaction="/dcim/interfaces/delete/?device_id=${device.id}"`);
  });

  it('offers a user who may only view the export of the selection, and no bulk change', async () => {
    const viewer = await makeUser(t);
    await grant(t, { object_types: ['dcim.interface'], actions: ['view'], users: [viewer.id] });
    const b = await signIn(t, viewer.username, viewer.password);
    const { device } = await deviceWithInterfaces(1);
    const page = await b.request('GET', `/dcim/interfaces/?device_id=${device.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Edit selected');
    expect(page.body).not.toContain('Delete selected');
    expect(page.body).toContain('Export selected');
  });
});

describe('bulk edit', () => {
  it('changes exactly the 30 ticked interfaces of 120, each with a change record under one request', async () => {
    const { device, ids } = await deviceWithInterfaces(120);
    const chosen = ids.slice(10, 40);
    const form = await post(
      '/dcim/interfaces/edit/',
      chosen.map((id) => ['pk', String(id)]),
    );
    expect(form.statusCode, form.body).toBe(200);
    expect(form.body).toContain('<h1>Editing 30 interfaces</h1>');
    expect(form.body).toContain('name="_nullify" value="description"');
    expect(form.body).not.toContain('name="name"');
    const res = await post('/dcim/interfaces/edit/', [
      ...chosen.map((id): [string, string] => ['pk', String(id)]),
      ['description', 'uplinks'],
      ['mtu', '9000'],
      ['enabled', ''],
      ['changelog_message', 'bulk re-describe'],
      ['_apply', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/dcim/interfaces/?done=updated%3A30');
    const all = await interfacesOf(device);
    const changed = all.filter((i) => i.description === 'uplinks');
    expect(changed.map((i) => i.id).sort()).toEqual([...chosen].sort());
    expect(changed.every((i) => i.mtu === 9000 && i.enabled === true)).toBe(true);
    expect(all.filter((i) => !chosen.includes(i.id)).every((i) => i.description === '' && i.mtu === null)).toBe(true);
    const changes = await changesOf(chosen);
    expect(changes).toHaveLength(30);
    expect(new Set(changes.map((c) => c.request_id)).size).toBe(1);
    expect(changes.every((c) => c.postchange_data.description === 'uplinks')).toBe(true);
    const notice = await admin.request('GET', res.headers.location as string);
    expect(notice.body).toContain('Updated 30 interfaces.');
  });

  it('"all 120 matching" disables every interface the filters match, on every page', async () => {
    const { device, ids } = await deviceWithInterfaces(120);
    const other = await deviceWithInterfaces(2);
    const res = await post(`/dcim/interfaces/edit/?device_id=${device.id}`, [
      ['_all', 'true'],
      ['_count', '120'],
      ['enabled', 'false'],
      ['_apply', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/dcim/interfaces/?device_id=${device.id}&done=updated%3A120`);
    expect((await interfacesOf(device)).every((i) => i.enabled === false)).toBe(true);
    expect((await interfacesOf(other.device)).every((i) => i.enabled === true)).toBe(true);
    expect(await changesOf(ids)).toHaveLength(120);
  });

  it('refuses "all matching" when the filters now match a different number, nothing written', async () => {
    const { device, ids } = await deviceWithInterfaces(5);
    const res = await post(`/dcim/interfaces/edit/?device_id=${device.id}`, [
      ['_all', 'true'],
      ['_count', '4'],
      ['description', 'stale'],
      ['_apply', '1'],
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('The filters now match 5 interfaces, not the 4 you selected: nothing was changed.');
    expect((await interfacesOf(device)).some((i) => i.description === 'stale')).toBe(false);
    expect(await changesOf(ids)).toHaveLength(0);
  });

  it('names the object that fails and writes nothing', async () => {
    const { device, ids } = await deviceWithInterfaces(3);
    const lag = await t.post('/api/dcim/interfaces/', { device: device.id, name: 'ae0', type: 'lag' });
    // the LAG cannot be its own parent LAG: only that object fails
    const res = await post('/dcim/interfaces/edit/', [
      ...[...ids, lag.json().id].map((id): [string, string] => ['pk', String(id)]),
      ['lag', String(lag.json().id)],
      ['_apply', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.body).toContain('ae0 could not be changed: nothing was changed.');
    expect((await interfacesOf(device)).every((i) => i.lag === null)).toBe(true);
    expect(await changesOf([...ids, lag.json().id])).toHaveLength(0);
  });

  it('sets null, adds and removes tags, and refuses a value beside "set null"', async () => {
    const { device, ids } = await deviceWithInterfaces(2);
    const [keep, add] = [await makeTag(t), await makeTag(t)];
    for (const id of ids)
      await t.patch(`/api/dcim/interfaces/${id}/`, { description: 'old', mtu: 1500, tags: [keep.id] });
    const pks = ids.map((id): [string, string] => ['pk', String(id)]);
    const both = await post('/dcim/interfaces/edit/', [...pks, ['mtu', '9000'], ['_nullify', 'mtu'], ['_apply', '1']]);
    expect(both.statusCode).toBe(400);
    expect(both.body).toContain('Either give a value or set it null, not both.');
    const res = await post('/dcim/interfaces/edit/', [
      ...pks,
      ['_nullify', 'mtu'],
      ['_nullify', 'description'],
      ['add_tags', String(add.id)],
      ['remove_tags', String(keep.id)],
      ['_apply', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    for (const i of await interfacesOf(device)) {
      expect(i).toMatchObject({ mtu: null, description: '' });
      expect(i.tags.map((x: Json) => x.id)).toEqual([add.id]);
    }
    const nothing = await post('/dcim/interfaces/edit/', [...pks, ['_apply', '1']]);
    expect(nothing.statusCode).toBe(400);
    expect(nothing.body).toContain('Fill in or set null at least one field.');
  });

  it('refuses no selection, a bad id, an id that no longer exists, and a user who may not change them', async () => {
    const { device, ids } = await deviceWithInterfaces(2);
    const none = await post('/dcim/interfaces/edit/', [['description', 'x']]);
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('No interfaces were selected.');
    const bad = await post('/dcim/interfaces/edit/', [['pk', 'abc']]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('&quot;abc&quot; is not the id of a interface.');
    await t.del(`/api/dcim/interfaces/${ids[1]}/`);
    const gone = await post('/dcim/interfaces/edit/', [
      ...ids.map((id): [string, string] => ['pk', String(id)]),
      ['description', 'x'],
      ['_apply', '1'],
    ]);
    expect(gone.statusCode).toBe(400);
    expect(gone.body).toContain(`1 of the selected interfaces no longer exist (ids ${ids[1]}): nothing was changed.`);
    const viewer = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.interface'],
      actions: ['change'],
      users: [viewer.id],
      constraints: { name: 'GigabitEthernet0/9' },
    });
    await grant(t, { object_types: ['dcim.interface'], actions: ['view'], users: [viewer.id] });
    const b = await signIn(t, viewer.username, viewer.password);
    const refused = await post(
      '/dcim/interfaces/edit/',
      [
        ['pk', String(ids[0])],
        ['description', 'x'],
        ['_apply', '1'],
      ],
      b,
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('You may not change 1 of the selected interfaces');
    expect((await interfacesOf(device)).every((i) => i.description === '')).toBe(true);
  });
});

describe('bulk rename', () => {
  it('previews GigabitEthernet -> Gi, then renames exactly the previewed objects', async () => {
    const { device, ids } = await deviceWithInterfaces(4);
    const pks = ids.slice(0, 3).map((id): [string, string] => ['pk', String(id)]);
    const form = await post('/dcim/interfaces/rename/', pks);
    expect(form.statusCode).toBe(200);
    expect(form.body).toMatch(/<input type="checkbox" name="use_regex" value="true" checked>/);
    const preview = await post('/dcim/interfaces/rename/', [
      ...pks,
      ['find', 'GigabitEthernet(\\d)/(\\d+)'],
      ['replace', 'Gi\\1/\\2'],
      ['use_regex', 'true'],
      ['_form', '1'],
      ['_preview', '1'],
    ]);
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('3 of 3 names change');
    expect(preview.body).toMatch(/GigabitEthernet0\/1<\/a><\/td><td>Gi0\/1<\/td>/);
    expect((await interfacesOf(device)).map((i) => i.name)).toContain('GigabitEthernet0/1');
    const res = await post('/dcim/interfaces/rename/', [
      ...pks,
      ['find', 'GigabitEthernet'],
      ['replace', 'Gi'],
      ['_form', '1'],
      ['_apply', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect((await interfacesOf(device)).map((i) => i.name)).toEqual(['Gi0/1', 'Gi0/2', 'Gi0/3', 'GigabitEthernet0/4']);
    expect(await changesOf(ids)).toHaveLength(3);
  });

  it('refuses a name that is taken, an invalid pattern and one that backtracks without end, nothing renamed', async () => {
    const { device, ids } = await deviceWithInterfaces(2);
    const pks = ids.map((id): [string, string] => ['pk', String(id)]);
    const taken = await post('/dcim/interfaces/rename/', [
      ...pks,
      ['find', '\\d+$'],
      ['replace', '9'],
      ['use_regex', 'true'],
      ['_form', '1'],
      ['_apply', '1'],
    ]);
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('nothing was renamed.');
    const invalid = await post('/dcim/interfaces/rename/', [
      ...pks,
      ['find', '('],
      ['use_regex', 'true'],
      ['_form', '1'],
      ['_preview', '1'],
    ]);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.body).toContain('Invalid regular expression');
    const long = await t.patch(`/api/dcim/interfaces/${ids[0]}/`, { name: `${'a'.repeat(40)}!` });
    expect(long.statusCode).toBe(200);
    const slow = await post('/dcim/interfaces/rename/', [
      ...pks,
      ['find', '^(a+)+$'],
      ['replace', 'x'],
      ['use_regex', 'true'],
      ['_form', '1'],
      ['_preview', '1'],
    ]);
    expect(slow.statusCode).toBe(400);
    expect(slow.body).toContain('This regular expression takes too long on these names');
    expect((await interfacesOf(device)).map((i) => i.name)).toEqual([`${'a'.repeat(40)}!`, 'GigabitEthernet0/2']);
  });
});

describe('bulk delete', () => {
  it('names the protected site and deletes nothing, then deletes the others once it is left out', async () => {
    const tag = uniq('bulkdel');
    const sites = [
      await makeSite(t, { description: tag }),
      await makeSite(t, { description: tag }),
      await makeSite(t, { description: tag }),
    ];
    await makeDevice(t, { site: sites[1]!.id });
    const pks = sites.map((s): [string, string] => ['pk', String(s.id)]);
    const confirm = await post('/dcim/sites/delete/', pks, admin, '/dcim/sites/');
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('<h1>Delete 3 sites?</h1>');
    expect(confirm.body).toContain(`1 of them cannot be deleted while other objects point at them: ${sites[1]!.name}`);
    expect(confirm.body).toContain('protected by its devices');
    const refused = await post(
      '/dcim/sites/delete/',
      [...pks, ['_confirm', '1'], ['confirm', 'true']],
      admin,
      '/dcim/sites/',
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('Nothing was deleted.');
    expect((await api(`/api/dcim/sites/?description=${tag}`)).count).toBe(3);
    const res = await post(
      '/dcim/sites/delete/',
      [
        ['pk', String(sites[0]!.id)],
        ['pk', String(sites[2]!.id)],
        ['_confirm', '1'],
        ['confirm', 'true'],
        ['changelog_message', 'retired'],
      ],
      admin,
      '/dcim/sites/',
    );
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe('/dcim/sites/?done=deleted%3A2');
    expect((await api(`/api/dcim/sites/?description=${tag}`)).results.map((s: Json) => s.id)).toEqual([sites[1]!.id]);
    for (const s of [sites[0]!, sites[2]!]) {
      const url = `/api/core/object-changes/?changed_object_type=dcim.site&changed_object_id=${s.id}&action=delete`;
      const changes = (await t.request('GET', url, { headers: { accept: 'application/json; version=4.4' } })).json();
      expect(changes.results.map((c: Json) => c.message)).toEqual(['retired']);
    }
  });

  it('deletes "all matching" without the confirmation box ticked only after it is', async () => {
    const { device, ids } = await deviceWithInterfaces(3);
    const unticked = await post(`/dcim/interfaces/delete/?device_id=${device.id}`, [
      ['_all', 'true'],
      ['_count', '3'],
      ['_confirm', '1'],
    ]);
    expect(unticked.statusCode).toBe(200);
    expect(unticked.body).toContain('<h1>Delete 3 interfaces?</h1>');
    expect(await interfacesOf(device)).toHaveLength(3);
    const res = await post(`/dcim/interfaces/delete/?device_id=${device.id}`, [
      ['_all', 'true'],
      ['_count', '3'],
      ['_confirm', '1'],
      ['confirm', 'true'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect(await interfacesOf(device)).toHaveLength(0);
    expect(await changesOf(ids, 'delete')).toHaveLength(3);
  });
});

describe('statements', () => {
  it('a bulk edit and a bulk delete run as many statements for 50 objects as for 5', async () => {
    const counts: Record<string, number[]> = { edit: [], delete: [] };
    for (const n of [5, 50]) {
      const { device } = await deviceWithInterfaces(n);
      const url = (kind: string) => `/dcim/interfaces/${kind}/?device_id=${device.id}`;
      let round = 0;
      const edit = await fewestStatements(t.db, () =>
        post(url('edit'), [
          ['_all', 'true'],
          ['description', `round ${round++}`],
          ['enabled', 'false'],
          ['_apply', '1'],
        ]),
      );
      expect(edit.result.statusCode, edit.result.body).toBe(303);
      counts.edit!.push(edit.n);
      // the fewest of three deletes, each of a device's n interfaces: on a slow host one run may
      // also pay for bookkeeping not its own, such as a session's or token's last use
      let fewestDelete = Number.POSITIVE_INFINITY;
      for (let k = 0; k < 3; k++) {
        const target = k === 0 ? device : (await deviceWithInterfaces(n)).device;
        const before = t.db.stats.queries;
        const del = await post(`/dcim/interfaces/delete/?device_id=${target.id}`, [
          ['_all', 'true'],
          ['_confirm', '1'],
          ['confirm', 'true'],
        ]);
        expect(del.statusCode, del.body).toBe(303);
        fewestDelete = Math.min(fewestDelete, t.db.stats.queries - before);
      }
      counts.delete!.push(fewestDelete);
    }
    expect(counts.edit![1]).toBe(counts.edit![0]);
    // the delete's count reads the form page for its token too (postForm): the same for both sizes
    expect(counts.delete![1]).toBe(counts.delete![0]);
  });
});
