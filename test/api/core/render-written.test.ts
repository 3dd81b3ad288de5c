/**
 * What a write answers (represent/render-written.ts): the rows it wrote, read again in its
 * transaction with everything they show prefetched when rendering them as returned would take a
 * statement per relation. The answer is what a GET of the same objects shows, and its cost no
 * longer grows with the relations a row has.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  make,
  makeDevice,
  makeDeviceType,
  makeRole,
  makeSite,
  type Json,
  makeTag,
  makeTenant,
} from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => {
  await t.close();
});

/** statements a request runs */
async function cost(send: () => Promise<{ statusCode: number; body: string }>, status: number): Promise<number> {
  const before = t.db.stats.queries;
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  return t.db.stats.queries - before;
}

describe('the answer to a write', () => {
  it('is what GET shows of each object, in the order written', async () => {
    const [site, type, role] = [await makeSite(t), await makeDeviceType(t), await makeRole(t)];
    const tenant = await makeTenant(t);
    const tag = await makeTag(t);
    const items = [2, 1, 3].map((i) => ({
      name: uniq(`dev${i}`),
      site: site.id,
      device_type: type.id,
      role: role.id,
      ...(i === 1 ? { tenant: tenant.id, tags: [tag.id] } : {}),
    }));
    const res = await t.post('/api/dcim/devices/', items);
    expect(res.statusCode, res.body).toBe(201);
    const created = res.json() as Json[];
    expect(created.map((d) => d.name)).toEqual(items.map((i) => i.name));
    for (const d of created) expect(d).toEqual((await t.get(`/api/dcim/devices/${d.id}/`)).json());
    expect(created[1]!.tenant.id).toBe(tenant.id);
    expect(created[1]!.tags.map((x: Json) => x.id)).toEqual([tag.id]);
  });

  it('shows an update as GET does, many-to-many members included', async () => {
    const device = await makeDevice(t);
    const vlans = [
      await make(t, '/api/ipam/vlans/', { vid: 101, name: uniq('v') }),
      await make(t, '/api/ipam/vlans/', { vid: 102, name: uniq('v') }),
    ];
    const iface = await make(t, '/api/dcim/interfaces/', { device: device.id, name: uniq('eth'), type: '1000base-t' });
    const res = await t.patch(`/api/dcim/interfaces/${iface.id}/`, {
      mode: 'tagged',
      tagged_vlans: vlans.map((v) => v.id),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().tagged_vlans.map((v: Json) => v.id)).toEqual(vlans.map((v) => v.id));
    expect(res.json()).toEqual((await t.get(`/api/dcim/interfaces/${iface.id}/`)).json());
  });

  it('costs no more statements for a device with more parents', async () => {
    const [site, type, role] = [await makeSite(t), await makeDeviceType(t), await makeRole(t)];
    const tenant = await makeTenant(t);
    const base = () => ({ name: uniq('dev'), site: site.id, device_type: type.id, role: role.id });
    const plain = await make(t, '/api/dcim/devices/', base());
    // a tenant: a parent no validation rule of a device reads again on an update (a platform is)
    const richer = await make(t, '/api/dcim/devices/', { ...base(), tenant: tenant.id });
    const describe = (d: Json) => () => t.patch(`/api/dcim/devices/${d.id}/`, { description: uniq('d') });
    await cost(describe(plain), 200); // warms the caches (custom fields, event rules, the token)
    // rendered as returned, the richer device's tenant was one more nested load
    expect(await cost(describe(richer), 200)).toBe(await cost(describe(plain), 200));
  });
});
