/**
 * How an import's related columns find their objects (web/import/resolve-names.ts): a name another
 * row of the same import gives (a parent location, a LAG), a name several objects share narrowed
 * by the row's site or device, and NetBox's manufacturer column for a device type. Outcomes are
 * read back through the REST API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { postImport, previewRows } from '../helpers/import-page.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import {
  type Json,
  makeDevice,
  makeDeviceType,
  makeManufacturer,
  makeRole,
  makeSite,
  uniq,
} from '../factories/index.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp({ IMPORT_MAX_ROWS: '50', IMPORT_MAX_BYTES: '20000' });
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const post = (list: string, fields: Record<string, string>, b: WebSession = admin) => postImport(t, b, list, fields);
const api = async (url: string) => (await t.get(url)).json();

interface Fixture {
  site: Json;
  type: Json;
  role: Json;
  prefix: string;
}

async function fixture(): Promise<Fixture> {
  return { site: await makeSite(t), type: await makeDeviceType(t), role: await makeRole(t), prefix: uniq('imp') };
}

describe('rows naming objects other rows make', () => {
  it('locations whose parents come in the same import, in any order; a parent no row makes is an error', async () => {
    const site = await makeSite(t);
    const p = uniq('loc');
    const data = [
      'name,slug,site,parent',
      `${p}-c,${p}-c,${site.name},${p}-b`,
      `${p}-a,${p}-a,${site.name},`,
      `${p}-b,${p}-b,${site.name},${p}-a`,
    ].join('\n');
    const dry = await post('/dcim/locations/', { data, _preview: '1' });
    expect(dry.statusCode, dry.body).toBe(200);
    expect(previewRows(dry.body).map((r) => r[1])).toEqual(['create', 'create', 'create']);
    expect((await api(`/api/dcim/locations/?name__isw=${p}`)).count).toBe(0);
    const done = await post('/dcim/locations/', { data, _apply: '1' });
    expect(done.statusCode, done.body).toBe(303);
    const locs = (await api(`/api/dcim/locations/?name__isw=${p}`)).results as Json[];
    const parentOf = Object.fromEntries(locs.map((l) => [l.name, l.parent?.name ?? null]));
    expect(parentOf).toEqual({ [`${p}-a`]: null, [`${p}-b`]: `${p}-a`, [`${p}-c`]: `${p}-b` });
    const orphan = await post('/dcim/locations/', {
      data: `name,slug,site,parent\n${p}-x,${p}-x,${site.name},${p}-nowhere`,
      _preview: '1',
    });
    expect(orphan.statusCode).toBe(400);
    expect(previewRows(orphan.body)[0]![2]).toContain(`parent: No location with name "${p}-nowhere"`);
  });

  it('interfaces whose LAG comes in the same import, on the same device', async () => {
    const device = await makeDevice(t);
    const other = await makeDevice(t);
    // the same LAG name on another device must not be taken
    expect((await t.post('/api/dcim/interfaces/', { device: other.id, name: 'bond0', type: 'lag' })).statusCode).toBe(
      201,
    );
    const data = `device,name,type,lag\n${device.name},eth0,1000base-t,bond0\n${device.name},bond0,lag,`;
    const res = await post('/dcim/interfaces/', { data, _apply: '1' });
    expect(res.statusCode, res.body).toBe(303);
    const ifaces = (await api(`/api/dcim/interfaces/?device_id=${device.id}`)).results as Json[];
    const bond = ifaces.find((i) => i.name === 'bond0')!;
    expect(ifaces.find((i) => i.name === 'eth0')!.lag.id).toBe(bond.id);
  });
});

describe('a name looked for within the row', () => {
  it("a name several objects share is narrowed by the row's site (racks)", async () => {
    const [a, b] = [await makeSite(t), await makeSite(t)];
    const rack = uniq('rack');
    const inA = await t.post('/api/dcim/racks/', { name: rack, site: a.id });
    const inB = await t.post('/api/dcim/racks/', { name: rack, site: b.id });
    expect([inA.statusCode, inB.statusCode]).toEqual([201, 201]);
    const f = await fixture();
    const data = `name,site,rack,device_type,role\n${f.prefix},${b.name},${rack},${f.type.model},${f.role.name}`;
    const res = await post('/dcim/devices/', { data, _apply: '1' });
    expect(res.statusCode, res.body).toBe(303);
    const [d] = (await api(`/api/dcim/devices/?name=${f.prefix}`)).results as Json[];
    expect(d!.rack.id).toBe(inB.json().id);
  });

  it("NetBox's manufacturer column picks the device type of that model among manufacturers", async () => {
    const model = uniq('Same');
    const [m1, m2] = [await makeManufacturer(t), await makeManufacturer(t)];
    await makeDeviceType(t, { manufacturer: m1.id, model, slug: `${model}-1` });
    const type2 = await makeDeviceType(t, { manufacturer: m2.id, model, slug: `${model}-2` });
    const f = await fixture();
    const head = 'name,site,device_type,role';
    const shared = await post('/dcim/devices/', {
      data: `${head}\n${f.prefix},${f.site.name},${model},${f.role.name}`,
      _preview: '1',
    });
    expect(shared.statusCode).toBe(400);
    expect(previewRows(shared.body)[0]![2]).toContain(
      `device_type: Several device type objects have model "${model}".`,
    );
    const page = await admin.request('GET', '/dcim/devices/import/');
    expect(page.body).toMatch(
      /<code>manufacturer<\/code><\/td><td><\/td><td>manufacturer by name \(or id\): only to find the device_type, not stored/,
    );
    const res = await post('/dcim/devices/', {
      data: `${head},manufacturer\n${f.prefix},${f.site.name},${model},${f.role.name},${m2.name}`,
      _apply: '1',
    });
    expect(res.statusCode, res.body).toBe(303);
    const [d] = (await api(`/api/dcim/devices/?name=${f.prefix}`)).results as Json[];
    expect(d!.device_type.id).toBe(type2.id);
  });
});
