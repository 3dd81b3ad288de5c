/**
 * A service's parent (NetBox 4.3): parent_object_type / parent_object_id / parent in 4.4, which
 * hides device and virtual_machine; 3.4 shows those as before (apps/ipam/service-parent.ts). Either
 * shape is written in either dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, make, makeDevice, makeVm, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };
const SERVICES = '/api/ipam/services/';

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get44 = async (url: string) => (await t.request('GET', url, { headers: V44 })).json();
const send44 = (method: string, url: string, body: unknown) => t.request(method, url, { body, headers: V44 });
const service = (extra: Json) => ({ name: uniq('svc'), protocol: 'tcp', ports: [22], ...extra });

describe('a service parent', () => {
  it('shows the parent in 4.4 and device / virtual_machine in 3.4, written either way', async () => {
    const device = await makeDevice(t);
    const made = await t.post(SERVICES, service({ device: device.id }));
    expect(made.statusCode, made.body).toBe(201);
    const s = made.json();
    expect(s).not.toHaveProperty('parent');
    const now = await get44(`${SERVICES}${s.id}/`);
    expect(Object.keys(now).slice(0, 8)).toEqual([
      'id',
      'url',
      'display_url',
      'display',
      'parent_object_type',
      'parent_object_id',
      'parent',
      'name',
    ]);
    expect(now).toMatchObject({ parent_object_type: 'dcim.device', parent_object_id: device.id });
    expect(now.parent).toMatchObject({ id: device.id, name: device.name });
    expect(now).not.toHaveProperty('device');
    expect(now).not.toHaveProperty('virtual_machine');
    // 4.4 moves it to a VM: 3.4 sees the VM
    const vm = await makeVm(t);
    const moved = await send44('PATCH', `${SERVICES}${s.id}/`, {
      parent_object_type: 'virtualization.virtualmachine',
      parent_object_id: vm.id,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const old = (await t.get(`${SERVICES}${s.id}/`)).json();
    expect([old.device, old.virtual_machine.id]).toEqual([null, vm.id]);
    // 3.4's shape written in 4.4 moves it back
    await send44('PATCH', `${SERVICES}${s.id}/`, { device: device.id, virtual_machine: null });
    expect(await get44(`${SERVICES}${s.id}/`)).toMatchObject({
      parent_object_type: 'dcim.device',
      parent_object_id: device.id,
    });
    const changes = (
      await t.get(
        `/api/extras/object-changes/?changed_object_type=ipam.service&changed_object_id=${s.id}&ordering=time`,
      )
    ).json().results as Json[];
    expect(changes.map((c) => c.postchange_data.parent_object_type)).toEqual([
      'dcim.device',
      'virtualization.virtualmachine',
      'dcim.device',
    ]);
    expect(changes[1]!.postchange_data).toMatchObject({ device: null, virtual_machine: vm.id });
  });

  it('takes an FHRP group as parent, which 3.4 shows as neither', async () => {
    const group = await make(t, '/api/ipam/fhrp-groups/', { protocol: 'vrrp2', group_id: 7, name: uniq('vrrp') });
    const made = await send44(
      'POST',
      SERVICES,
      service({ parent_object_type: 'ipam.fhrpgroup', parent_object_id: group.id }),
    );
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().parent).toMatchObject({ id: group.id });
    const old = (await t.get(`${SERVICES}${made.json().id}/`)).json();
    expect([old.device, old.virtual_machine]).toEqual([null, null]);
    // a 3.4 PUT writing both back as null leaves the group
    const put = await t.put(`${SERVICES}${old.id}/`, {
      ...service({}),
      name: old.name,
      device: null,
      virtual_machine: null,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await get44(`${SERVICES}${old.id}/`)).parent_object_type).toBe('ipam.fhrpgroup');
    expect((await get44(`${SERVICES}?fhrpgroup_id=${group.id}`)).count).toBe(1);
    expect((await get44(`${SERVICES}?fhrpgroup=${group.name}`)).count).toBe(1);
  });

  it('filters by parent in both shapes', async () => {
    const [device, vm] = [await makeDevice(t), await makeVm(t)];
    await t.post(SERVICES, service({ device: device.id }));
    await send44(
      'POST',
      SERVICES,
      service({ parent_object_type: 'virtualization.virtualmachine', parent_object_id: vm.id }),
    );
    const count = async (q: string) => (await get44(`${SERVICES}?${q}`)).count;
    expect(await count(`parent_object_type=dcim.device&parent_object_id=${device.id}`)).toBe(1);
    expect(await count(`device_id=${device.id}`)).toBe(1);
    expect(await count(`virtual_machine_id=${vm.id}`)).toBe(1);
    expect(await count(`parent_object_type=virtualization.virtualmachine&parent_object_id=${vm.id}`)).toBe(1);
  });

  it('refuses a parent of another type, or none, writing nothing', async () => {
    const device = await makeDevice(t);
    const s = (await t.post(SERVICES, service({ device: device.id }))).json();
    const bad = await send44('PATCH', `${SERVICES}${s.id}/`, {
      parent_object_type: 'dcim.site',
      parent_object_id: 1,
      description: 'x',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ parent_object_type: ['Invalid content type: dcim.site'] });
    const none = await t.post(SERVICES, service({}));
    expect(none.json()).toEqual({
      __all__: ['A service must be associated with either a device or a virtual machine.'],
    });
    const both = await t.post(SERVICES, service({ device: device.id, virtual_machine: (await makeVm(t)).id }));
    expect(both.json()).toEqual({
      __all__: ['A service cannot be associated with both a device and a virtual machine.'],
    });
    const now = await get44(`${SERVICES}${s.id}/`);
    expect([now.parent_object_type, now.description]).toEqual(['dcim.device', '']);
  });
});
