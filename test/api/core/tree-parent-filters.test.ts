/**
 * `parent` / `parent_id` on the group trees match direct children only, as NetBox 3.4's plain
 * ModelMultipleChoiceFilter does; locations are the exception, where NetBox 3.4 takes the whole
 * subtree (a TreeNodeMultipleChoiceFilter). A client walking a tree one level at a time must not
 * see grandchildren twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp, uniq } from '../../helpers/app.js';

type Json = Record<string, any>;
let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

async function make(path: string, data: Json): Promise<Json> {
  const res = await t.post(path, data);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}
const named = (p: string) => {
  const n = uniq(p);
  return { name: n, slug: n };
};
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
    const top = await make(path, named('tp'));
    const child = await make(path, { ...named('tp'), parent: top.id });
    await make(path, { ...named('tp'), parent: child.id });
    expect(await ids(`${path}?parent_id=${top.id}`)).toEqual([child.id]);
    expect(await ids(`${path}?parent=${top.slug}`)).toEqual([child.id]);
    expect(await ids(`${path}?parent_id=${top.id}&parent_id=${child.id}`)).toHaveLength(2);
  });
});

describe('locations', () => {
  it('match the whole subtree of the parent, as NetBox 3.4 does for them', async () => {
    const site = await make('/api/dcim/sites/', named('tps'));
    const top = await make('/api/dcim/locations/', { ...named('tpl'), site: site.id });
    const child = await make('/api/dcim/locations/', { ...named('tpl'), site: site.id, parent: top.id });
    const grandchild = await make('/api/dcim/locations/', { ...named('tpl'), site: site.id, parent: child.id });
    expect(await ids(`/api/dcim/locations/?parent_id=${top.id}`)).toEqual([child.id, grandchild.id]);
  });
});
