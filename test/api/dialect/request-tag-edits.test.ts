/**
 * `add_tags` / `remove_tags` (NetBox 4.6, #21771; crud/tag-edits.ts): write-only lists beside
 * `tags` on every taggable model, in the forms `tags` takes, that add or remove without replacing;
 * in single and bulk writes, all or nothing; refused beside `tags`, on a create (remove), or naming
 * one tag both ways.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTag, makeTenant } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let red: Record<string, unknown>;
let green: Record<string, unknown>;
let blue: Record<string, unknown>;
const V44 = { accept: 'application/json; version=4.4' };

beforeAll(async () => {
  t = await makeTestApp();
  [red, green, blue] = [await makeTag(t), await makeTag(t), await makeTag(t)];
});
afterAll(async () => t.close());

const slugsOf = (o: { tags: Array<{ slug: string }> }) => o.tags.map((x) => x.slug).sort();
const sorted = (...tags: Array<Record<string, unknown>>) => tags.map((x) => x.slug as string).sort();

describe('add_tags and remove_tags', () => {
  it('add and remove without replacing, by id, name, slug or a slug string', async () => {
    const tenant = await makeTenant(t, { tags: [red.id] });
    const added = await t.patch(`/api/tenancy/tenants/${tenant.id}/`, {
      add_tags: [{ name: green.name }, blue.slug],
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(slugsOf(added.json())).toEqual(sorted(red, green, blue));
    expect(added.json()).not.toHaveProperty('add_tags');
    // adding a tag the object has keeps it once; removing one it lacks is no error
    const both = await t.request('PATCH', `/api/tenancy/tenants/${tenant.id}/`, {
      body: { add_tags: [red.id], remove_tags: [{ slug: green.slug }] },
      headers: V44,
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(slugsOf(both.json())).toEqual(sorted(red, blue));
    const removed = await t.patch(`/api/tenancy/tenants/${tenant.id}/`, { remove_tags: [red.id, green.id] });
    expect(slugsOf(removed.json())).toEqual(sorted(blue));
    // the change log's snapshot shows the tags after the edit
    const changes = await t.get(
      `/api/extras/object-changes/?changed_object_type=tenancy.tenant&changed_object_id=${tenant.id}&ordering=-time&limit=1`,
    );
    expect(changes.json().results[0].postchange_data.tags).toEqual([blue.name]);
  });

  it('tags a new object with add_tags', async () => {
    const tenant = await makeTenant(t, { add_tags: [red.slug, green.id] });
    expect(slugsOf(tenant as never)).toEqual(sorted(red, green));
  });

  it('applies to each item of a bulk PATCH, and to a PUT', async () => {
    const a = await makeTenant(t, { tags: [red.id] });
    const b = await makeTenant(t, { tags: [green.id] });
    const res = await t.patch('/api/tenancy/tenants/', [
      { id: a.id, add_tags: [blue.id] },
      { id: b.id, remove_tags: [green.id], add_tags: [red.id] },
    ]);
    expect(res.statusCode, res.body).toBe(200);
    const [ra, rb] = res.json();
    expect(slugsOf(ra)).toEqual(sorted(red, blue));
    expect(slugsOf(rb)).toEqual(sorted(red));
    const put = await t.put(`/api/tenancy/tenants/${a.id}/`, { name: a.name, slug: a.slug, remove_tags: [red.id] });
    expect(put.statusCode, put.body).toBe(200);
    expect(slugsOf(put.json())).toEqual(sorted(blue));
  });

  it('writes nothing in a bulk PATCH when one item names a tag that does not exist', async () => {
    const a = await makeTenant(t, { tags: [red.id] });
    const b = await makeTenant(t, { tags: [red.id] });
    const res = await t.patch('/api/tenancy/tenants/', [
      { id: a.id, add_tags: [blue.id], description: 'changed' },
      { id: b.id, add_tags: [{ slug: 'no-such-tag' }] },
    ]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['add_tags']);
    const after = (await t.get(`/api/tenancy/tenants/${a.id}/`)).json();
    expect(slugsOf(after)).toEqual(sorted(red));
    expect(after.description).toBe(a.description);
  });
});

describe('what add_tags and remove_tags refuse', () => {
  it('answers NetBox 4.6 messages, and writes nothing', async () => {
    const tenant = await makeTenant(t, { tags: [red.id] });
    const url = `/api/tenancy/tenants/${tenant.id}/`;
    const withTags = await t.patch(url, { tags: [green.id], add_tags: [blue.id] });
    expect(withTags.statusCode).toBe(400);
    expect(withTags.json()).toEqual({ tags: ['Cannot specify "tags" together with "add_tags" or "remove_tags".'] });
    // stricter than NetBox, which would clear the tags and drop the addition without a word
    const emptyTags = await t.patch(url, { tags: [], remove_tags: [red.id] });
    expect(emptyTags.statusCode).toBe(400);
    const overlap = await t.patch(url, { add_tags: [green.id, blue.id], remove_tags: [{ name: green.name }] });
    expect(overlap.statusCode).toBe(400);
    expect(overlap.json()).toEqual({
      remove_tags: [`Tags may not be present in both "add_tags" and "remove_tags": ${green.name}`],
    });
    const notList = await t.patch(url, { add_tags: 'x' });
    expect(notList.json()).toEqual({ add_tags: ['Expected a list of items but got type "str".'] });
    const create = await t.post('/api/tenancy/tenants/', {
      name: 'never',
      slug: 'never',
      remove_tags: [red.id],
    });
    expect(create.statusCode).toBe(400);
    expect(create.json()).toEqual({ remove_tags: ['Cannot use "remove_tags" when creating a new object.'] });
    expect(slugsOf((await t.get(url)).json())).toEqual(sorted(red));
  });
});
