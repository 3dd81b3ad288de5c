/**
 * `changelog_message` on writes (NetBox 4.4, #19713; crud/changelog-message.ts): taken by every
 * create, update and delete, single and bulk, in both dialects; stored on the change record of each
 * object the request names (not on what a delete cascades to), never on the object; a bad one is a
 * 400 under `changelog_message` that writes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite, makeTenant, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

/** the messages of an object's change records, oldest first, read as the 4.4 dialect shows them */
async function messagesOf(type: string, id: number): Promise<Array<[string, string]>> {
  const url = `/api/core/object-changes/?changed_object_type=${type}&changed_object_id=${id}&ordering=time`;
  const res = await t.request('GET', url, { headers: V44 });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.map((c: { action: { value: string }; message: string }) => [c.action.value, c.message]);
}

describe('changelog_message on single writes', () => {
  it('is stored on the create, update and delete records, and not on the object', async () => {
    const name = uniq('tenant');
    const created = await t.post('/api/tenancy/tenants/', { name, slug: name, changelog_message: 'new customer' });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).not.toHaveProperty('changelog_message');
    const id = created.json().id;
    const patched = await t.patch(`/api/tenancy/tenants/${id}/`, { description: 'x', changelog_message: 'ticket 7' });
    expect(patched.statusCode, patched.body).toBe(200);
    // a 3.4 client's write is taken the same way
    const put = await t.put(`/api/tenancy/tenants/${id}/`, { name, slug: name, changelog_message: ' renamed ' });
    expect(put.statusCode, put.body).toBe(200);
    const deleted = await t.del(`/api/tenancy/tenants/${id}/`, { changelog_message: 'contract ended' });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await messagesOf('tenancy.tenant', id)).toEqual([
      ['create', 'new customer'],
      ['update', 'ticket 7'],
      ['update', 'renamed'],
      ['delete', 'contract ended'],
    ]);
  });

  it('leaves the message empty when none is given, and off what a delete cascades to', async () => {
    const site = await makeSite(t);
    const loc = await t.post('/api/dcim/locations/', { name: uniq('loc'), slug: uniq('loc'), site: site.id });
    expect(loc.statusCode, loc.body).toBe(201);
    const del = await t.del(`/api/dcim/sites/${site.id}/`, { changelog_message: 'site closed' });
    expect(del.statusCode, del.body).toBe(204);
    expect(await messagesOf('dcim.site', site.id)).toEqual([
      ['create', ''],
      ['delete', 'site closed'],
    ]);
    expect(await messagesOf('dcim.location', loc.json().id)).toEqual([
      ['create', ''],
      ['delete', ''],
    ]);
  });

  it('shows in /api/extras/object-changes/ of the 4.4 dialect too', async () => {
    const tenant = await makeTenant(t);
    await t.patch(`/api/tenancy/tenants/${tenant.id}/`, { comments: 'c', changelog_message: 'via extras' });
    const res = await t.request(
      'GET',
      `/api/extras/object-changes/?changed_object_type=tenancy.tenant&changed_object_id=${tenant.id}&action=update`,
      { headers: V44 },
    );
    expect(res.json().results.map((c: { message: string }) => c.message)).toEqual(['via extras']);
  });
});

describe('changelog_message on bulk writes', () => {
  it('stores each item its own message in bulk create, update and delete', async () => {
    const a = uniq('bulk');
    const b = uniq('bulk');
    const created = await t.post('/api/tenancy/tenants/', [
      { name: a, slug: a, changelog_message: 'first' },
      { name: b, slug: b },
    ]);
    expect(created.statusCode, created.body).toBe(201);
    const [ida, idb] = created.json().map((o: { id: number }) => o.id);
    const patched = await t.patch('/api/tenancy/tenants/', [
      { id: ida, description: '1', changelog_message: 'bulk a' },
      { id: idb, description: '2', changelog_message: 'bulk b' },
    ]);
    expect(patched.statusCode, patched.body).toBe(200);
    const deleted = await t.del('/api/tenancy/tenants/', [{ id: ida, changelog_message: 'gone a' }, { id: idb }]);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await messagesOf('tenancy.tenant', ida)).toEqual([
      ['create', 'first'],
      ['update', 'bulk a'],
      ['delete', 'gone a'],
    ]);
    expect(await messagesOf('tenancy.tenant', idb)).toEqual([
      ['create', ''],
      ['update', 'bulk b'],
      ['delete', ''],
    ]);
  });
});

describe('a bad changelog_message', () => {
  it('is a 400 under changelog_message, in DRF CharField words, and writes nothing', async () => {
    const tenant = await makeTenant(t);
    const cases: Array<[unknown, string]> = [
      [42, 'Not a valid string.'],
      [null, 'This field may not be null.'],
      ['  ', 'This field may not be blank.'],
      ['x'.repeat(201), 'Ensure this field has no more than 200 characters.'],
    ];
    for (const [message, words] of cases) {
      const res = await t.patch(`/api/tenancy/tenants/${tenant.id}/`, {
        description: 'no',
        changelog_message: message,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ changelog_message: [words] });
    }
    const del = await t.del(`/api/tenancy/tenants/${tenant.id}/`, { changelog_message: ['a'] });
    expect(del.statusCode).toBe(400);
    expect(del.json()).toEqual({ changelog_message: ['Not a valid string.'] });
    const bulkDel = await t.del('/api/tenancy/tenants/', [{ id: tenant.id, changelog_message: 7 }]);
    expect(bulkDel.statusCode).toBe(400);
    expect(bulkDel.json()).toEqual([{ changelog_message: ['Not a valid string.'] }]);
    // a bulk create with one bad message creates nothing
    const name = uniq('bad');
    const bulk = await t.post('/api/tenancy/tenants/', [
      { name, slug: name },
      { name: `${name}-2`, slug: `${name}-2`, changelog_message: 'y'.repeat(201) },
    ]);
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual([{}, { changelog_message: ['Ensure this field has no more than 200 characters.'] }]);
    expect((await t.get(`/api/tenancy/tenants/?name=${name}`)).json().count).toBe(0);
    expect((await t.get(`/api/tenancy/tenants/${tenant.id}/`)).json().description).toBe(tenant.description);
    expect(await messagesOf('tenancy.tenant', tenant.id)).toEqual([['create', '']]);
  });

  it('takes exactly 200 characters', async () => {
    const tenant = await makeTenant(t);
    const message = 'z'.repeat(200);
    const res = await t.patch(`/api/tenancy/tenants/${tenant.id}/`, { description: 'ok', changelog_message: message });
    expect(res.statusCode, res.body).toBe(200);
    expect((await messagesOf('tenancy.tenant', tenant.id)).at(-1)).toEqual(['update', message]);
  });
});

describe('OPTIONS', () => {
  it('describes changelog_message, add_tags and remove_tags among the 4.4 write fields, not the 3.4 ones', async () => {
    const v44 = await t.request('OPTIONS', '/api/dcim/sites/', { headers: V44 });
    expect(v44.statusCode, v44.body).toBe(200);
    const post44 = v44.json().actions.POST;
    expect(post44.changelog_message).toEqual({
      type: 'string',
      required: false,
      read_only: false,
      label: 'Changelog Message',
      max_length: 200,
    });
    expect(post44.add_tags).toMatchObject({ type: 'list', required: false, read_only: false });
    expect(post44.remove_tags).toMatchObject({ type: 'list', required: false, read_only: false });
    // a model without tags takes a message but no tag edits
    const tokens = (await t.request('OPTIONS', '/api/users/tokens/', { headers: V44 })).json().actions.POST;
    expect(tokens).toHaveProperty('changelog_message');
    expect(tokens).not.toHaveProperty('add_tags');
    const v34 = (await t.request('OPTIONS', '/api/dcim/sites/')).json().actions.POST;
    expect(v34).not.toHaveProperty('changelog_message');
    expect(v34).not.toHaveProperty('add_tags');
  });
});
