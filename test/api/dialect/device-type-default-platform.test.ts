/**
 * A device type's `default_platform` (NetBox 3.6, shown in the 4.4 dialect): a new device of the
 * type that names no platform takes it, in either dialect and in bulk; a device naming its own
 * keeps it; deleting the platform clears the default; 4.4 filters device types by it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api44,
  type Json,
  make44,
  makeDevice,
  makeDeviceType,
  makeRole,
  makeSite,
  named,
  uniq,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const platform = () => make44(t, '/api/dcim/platforms/', named('platform'));

describe('a device type with a default platform', () => {
  it('is shown and filtered in 4.4 only, and passed to new devices that name none', async () => {
    const [p, other] = [await platform(), await platform()];
    const type = await makeDeviceType(t);
    const set = await api44(t).patch(`/api/dcim/device-types/${type.id}/`, { default_platform: p.id });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().default_platform).toMatchObject({ id: p.id, name: p.name });
    expect((await t.get(`/api/dcim/device-types/${type.id}/`)).json()).not.toHaveProperty('default_platform');
    const listed = (await api44(t).get(`/api/dcim/device-types/?default_platform_id=${p.id}`)).json();
    expect(listed.results.map((r: Json) => r.id)).toEqual([type.id]);
    // a 3.4 client's device takes the default too: it is the server's rule, not the dialect's
    const plain = await makeDevice(t, { device_type: type.id });
    expect(plain.platform?.id).toBe(p.id);
    const own = await makeDevice(t, { device_type: type.id, platform: other.id });
    expect(own.platform.id).toBe(other.id);
    const [role, site] = [await makeRole(t), await makeSite(t)];
    const bulk = await t.post(
      '/api/dcim/devices/',
      [1, 2, 3].map(() => ({ name: uniq('d'), device_type: type.id, device_role: role.id, site: site.id })),
    );
    expect(bulk.statusCode, bulk.body).toBe(201);
    expect(bulk.json().map((d: Json) => d.platform?.id)).toEqual([p.id, p.id, p.id]);
    // an existing device left without a platform stays so
    const cleared = await t.patch(`/api/dcim/devices/${plain.id}/`, { platform: null });
    expect(cleared.json().platform).toBeNull();
  });

  it('is cleared when its platform is deleted', async () => {
    const p = await platform();
    const type = await makeDeviceType(t);
    await api44(t).patch(`/api/dcim/device-types/${type.id}/`, { default_platform: p.id });
    expect((await api44(t).del(`/api/dcim/platforms/${p.id}/`)).statusCode).toBe(204);
    expect((await api44(t).get(`/api/dcim/device-types/${type.id}/`)).json().default_platform).toBeNull();
  });
});
