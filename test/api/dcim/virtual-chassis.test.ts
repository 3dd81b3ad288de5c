/**
 * The master named when a virtual chassis is created joins it at position 1 (NetBox 3.4 signal)
 * through the one write path: the device change is validated and recorded with the request's id.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp, uniq } from '../../helpers/app.js';
import { grant, makeUser } from '../users/fixtures.js';
import { type Json, makeDevice } from './factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const changesOf = async (requestId: string) =>
  (await t.get(`/api/extras/object-changes/?request_id=${requestId}&ordering=id&limit=0`)).json().results as Json[];

describe('POST /api/dcim/virtual-chassis/ with a master', () => {
  it('makes the master a member at position 1, with a change record of the device in the same request', async () => {
    const device = await makeDevice(t);
    const res = await t.post('/api/dcim/virtual-chassis/', { name: uniq('vc'), master: device.id });
    expect(res.statusCode, res.body).toBe(201);
    const vc = res.json();
    expect(vc.member_count).toBe(1);
    const member = (await t.get(`/api/dcim/devices/${device.id}/`)).json();
    expect(member.virtual_chassis).toMatchObject({ id: vc.id });
    expect(member.vc_position).toBe(1);
    const changes = await changesOf(res.headers['x-request-id'] as string);
    const byType = Object.fromEntries(changes.map((c) => [c.changed_object_type, c]));
    expect(Object.keys(byType).sort()).toEqual(['dcim.device', 'dcim.virtualchassis']);
    expect(byType['dcim.device']!.action.value).toBe('update');
    expect(byType['dcim.device']!.changed_object_id).toBe(device.id);
    expect(byType['dcim.device']!.prechange_data).toMatchObject({ virtual_chassis: null, vc_position: null });
    expect(byType['dcim.device']!.postchange_data).toMatchObject({ virtual_chassis: vc.id, vc_position: 1 });
  });

  it('needs no permission to change the device (NetBox: the signal saves it)', async () => {
    const device = await makeDevice(t);
    const user = await makeUser(t);
    await grant(t, { object_types: ['dcim.virtualchassis', 'dcim.device'], actions: ['view'], users: [user.id] });
    await grant(t, { object_types: ['dcim.virtualchassis'], actions: ['add'], users: [user.id] });
    const res = await t.post('/api/dcim/virtual-chassis/', { name: uniq('vc'), master: device.id }, user.token);
    expect(res.statusCode, res.body).toBe(201);
    expect((await t.get(`/api/dcim/devices/${device.id}/`)).json().vc_position).toBe(1);
    // the user still cannot change devices themselves
    expect((await t.patch(`/api/dcim/devices/${device.id}/`, { vc_position: 2 }, user.token)).statusCode).toBe(403);
  });
});
