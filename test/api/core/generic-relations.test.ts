import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
let site: { id: number; name: string };
beforeAll(async () => {
  t = await makeTestApp();
  const n = uniq('gsite');
  site = (await t.post('/api/dcim/sites/', { name: n, slug: n })).json();
});
afterAll(async () => t.close());

describe('generic relations (journal entries)', () => {
  it('writes type and id and renders the object nested', async () => {
    const res = await t.post('/api/extras/journal-entries/', {
      assigned_object_type: 'dcim.site',
      assigned_object_id: site.id,
      comments: 'hello',
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.assigned_object).toMatchObject({
      id: site.id,
      name: site.name,
      url: `http://localhost:80/api/dcim/sites/${site.id}/`,
    });
    expect(body.kind).toEqual({ value: 'info', label: 'Info' });
    expect(body.created_by.id).toBeTypeOf('number');
  });

  it('rejects an unknown type, a malformed type and a missing object', async () => {
    const bad = await t.post('/api/extras/journal-entries/', {
      assigned_object_type: 'dcim.nothing',
      assigned_object_id: 1,
      comments: 'x',
    });
    expect(bad.json()).toEqual({ assigned_object_type: ['Invalid content type: dcim.nothing'] });
    const malformed = await t.post('/api/extras/journal-entries/', {
      assigned_object_type: 'site',
      assigned_object_id: 1,
      comments: 'x',
    });
    expect(malformed.json().assigned_object_type[0]).toMatch(/Specify a content type as/);
    const missing = await t.post('/api/extras/journal-entries/', {
      assigned_object_type: 'dcim.site',
      assigned_object_id: 999999,
      comments: 'x',
    });
    expect(missing.json()).toEqual({
      assigned_object_id: ['Related object not found using the provided value: 999999.'],
    });
  });

  it('filters by the type and id', async () => {
    const res = await t.get(
      `/api/extras/journal-entries/?assigned_object_type=dcim.site&assigned_object_id=${site.id}`,
    );
    expect(res.json().count).toBe(1);
  });

  it('deletes the entries of a deleted object with it', async () => {
    const n = uniq('gdel');
    const other = (await t.post('/api/dcim/sites/', { name: n, slug: n })).json();
    const entry = (
      await t.post('/api/extras/journal-entries/', {
        assigned_object_type: 'dcim.site',
        assigned_object_id: other.id,
        comments: 'bye',
      })
    ).json();
    const del = await t.del(`/api/dcim/sites/${other.id}/`);
    expect(del.statusCode).toBe(204);
    expect((await t.get(`/api/extras/journal-entries/${entry.id}/`)).statusCode).toBe(404);
    const changes = (await t.get(`/api/extras/object-changes/?request_id=${del.headers['x-request-id']}`)).json();
    expect(changes.results.map((c: { changed_object_type: string }) => c.changed_object_type).sort()).toEqual([
      'dcim.site',
      'extras.journalentry',
    ]);
  });
});
