/**
 * `parent` / `parent_id` on the group trees match direct children only, as NetBox 3.4's plain
 * ModelMultipleChoiceFilter does; locations are the exception, where NetBox 3.4 takes the whole
 * subtree (a TreeNodeMultipleChoiceFilter). A client walking a tree one level at a time must not
 * see grandchildren twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { type Json, make, named } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const ids = async (url: string) => {
  const res = await t.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res
    .json()
    .results.map((r: Json) => r.id)
    .sort((a: number, b: number) => a - b);
};

describe.each([
  ['/api/dcim/regions/'],
  ['/api/dcim/site-groups/'],
  ['/api/tenancy/tenant-groups/'],
  ['/api/tenancy/contact-groups/'],
  ['/api/wireless/wireless-lan-groups/'],
])('%s parent filters', (path) => {
  it('match the direct children of the parent, by id and by slug, not its grandchildren', async () => {
    const top = await make(t, path, named('tp'));
    const child = await make(t, path, { ...named('tp'), parent: top.id });
    await make(t, path, { ...named('tp'), parent: child.id });
    expect(await ids(`${path}?parent_id=${top.id}`)).toEqual([child.id]);
    expect(await ids(`${path}?parent=${top.slug}`)).toEqual([child.id]);
    expect(await ids(`${path}?parent_id=${top.id}&parent_id=${child.id}`)).toHaveLength(2);
  });
});

describe('locations', () => {
  it('match the whole subtree of the parent, as NetBox 3.4 does for them', async () => {
    const site = await make(t, '/api/dcim/sites/', named('tps'));
    const top = await make(t, '/api/dcim/locations/', { ...named('tpl'), site: site.id });
    const child = await make(t, '/api/dcim/locations/', { ...named('tpl'), site: site.id, parent: top.id });
    const grandchild = await make(t, '/api/dcim/locations/', { ...named('tpl'), site: site.id, parent: child.id });
    expect(await ids(`/api/dcim/locations/?parent_id=${top.id}`)).toEqual([child.id, grandchild.id]);
  });
});
