/**
 * Device roles (NetBox 4.3) and platforms (NetBox 4.4) are trees: the 4.4 dialect shows `parent`
 * and `_depth` and takes the `ancestor` filters; 3.4 shows neither (its shapes are the spec's).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api44, type Json, make44, makeDevice, makeVm, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe.each([
  ['device roles', '/api/dcim/device-roles/'],
  ['platforms', '/api/dcim/platforms/'],
])('%s as a tree', (_what, path) => {
  const node = (parent?: number) => {
    const name = uniq('node');
    return make44(t, path, { name, slug: name, parent });
  };

  it('shows parent and _depth in 4.4 only', async () => {
    const top = await node();
    const mid = await node(top.id);
    const low = await node(mid.id);
    expect(low.parent).toMatchObject({ id: mid.id, _depth: 1 });
    expect(low._depth).toBe(2);
    const brief = (await api44(t).get(`${path}${low.id}/?brief=1`)).json();
    expect(brief._depth).toBe(2);
    const old = (await t.get(`${path}${low.id}/`)).json();
    expect(old).not.toHaveProperty('parent');
    expect(old).not.toHaveProperty('_depth');
    expect((await t.get(`${path}${low.id}/?brief=1`)).json()).not.toHaveProperty('_depth');
    // a node moved to the top level takes its subtree along
    await api44(t).patch(`${path}${mid.id}/`, { parent: null });
    expect((await api44(t).get(`${path}${low.id}/`)).json()._depth).toBe(1);
  });

  it('filters parent (children) and ancestor (every level below) in 4.4', async () => {
    const top = await node();
    const mid = await node(top.id);
    const low = await node(mid.id);
    const ids = async (q: string) =>
      ((await api44(t).get(`${path}?${q}`)).json().results as Json[]).map((r) => r.id).sort();
    expect(await ids(`parent_id=${top.id}`)).toEqual([mid.id]);
    expect(await ids(`ancestor_id=${top.id}`)).toEqual([mid.id, low.id].sort());
    expect(await ids(`ancestor=${top.slug}`)).toEqual([mid.id, low.id].sort());
  });

  it('refuses a node below itself and deletes the subtree with its root', async () => {
    const top = await node();
    const mid = await node(top.id);
    const cycle = await api44(t).patch(`${path}${top.id}/`, { parent: mid.id });
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json()).toEqual({ parent: ['Cannot assign self or child as parent.'] });
    expect((await api44(t).del(`${path}${top.id}/`)).statusCode).toBe(204);
    expect((await api44(t).get(`${path}${mid.id}/`)).statusCode).toBe(404);
  });
});

describe('devices and virtual machines by role and platform', () => {
  it('take the descendants of a role or platform in 4.4, and only the one named in 3.4', async () => {
    const tree = async (path: string) => {
      const [a, b] = [uniq('top'), uniq('low')];
      const top = await make44(t, path, { name: a, slug: a });
      return [top, await make44(t, path, { name: b, slug: b, parent: top.id })] as const;
    };
    const [topRole, lowRole] = await tree('/api/dcim/device-roles/');
    const [topPlatform, lowPlatform] = await tree('/api/dcim/platforms/');
    const device = await makeDevice(t, { role: lowRole.id, platform: lowPlatform.id });
    const vm = await makeVm(t, { role: lowRole.id, platform: lowPlatform.id });
    for (const [path, obj] of [
      ['/api/dcim/devices/', device],
      ['/api/virtualization/virtual-machines/', vm],
    ] as const) {
      for (const q of [
        `role_id=${topRole.id}`,
        `role=${topRole.slug}`,
        `platform_id=${topPlatform.id}`,
        `platform=${topPlatform.slug}`,
      ]) {
        expect(
          (await api44(t).get(`${path}?${q}`)).json().results.map((r: Json) => r.id),
          `4.4 ${path}?${q}`,
        ).toEqual([obj.id]);
        expect((await t.get(`${path}?${q}`)).json().count, `3.4 ${path}?${q}`).toBe(0);
      }
      expect((await t.get(`${path}?platform_id=${lowPlatform.id}`)).json().results.map((r: Json) => r.id)).toEqual([
        obj.id,
      ]);
    }
  });
});
