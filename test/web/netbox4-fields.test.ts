/**
 * The fields NetBox 4 added to existing models, on the generated pages (web/model-ui.ts, the
 * pages' `everyField` reads): a rack's rack type, a prefix's scope, an interface's MAC address
 * objects, a VLAN group's VID ranges, shown on the object page and the list and saved from the
 * edit form as a browser posts it, checked through the REST API in NetBox 4.4's dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { formValues, postForm as postFormOf } from '../helpers/web-forms.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import {
  make,
  makeDevice,
  makeInterface,
  makeLocation,
  makeManufacturer,
  makeRole,
  makeSite,
  uniq,
} from '../factories/index.js';
import { api44, make44, makeRackType } from '../factories/netbox4.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const page = async (url: string) => {
  const res = await admin.request('GET', url);
  expect(res.statusCode, url).toBe(200);
  return res.body;
};
const get44 = async (url: string) => (await api44(t).get(url)).json();
/** the edit form's values as a browser posts them, with `changes` put in place of their names' */
async function postEdit(url: string, changes: Array<[string, string]>, extra: Array<[string, string]> = []) {
  const form = await page(url);
  const names = new Set(changes.map(([k]) => k));
  const pairs = [...formValues(form, url).filter(([k]) => !names.has(k)), ...changes, ...extra];
  return postFormOf(t, admin, url, pairs, { formUrl: url });
}
/** the attribute panel's row of a label: its value cell's markup */
const attribute = (body: string, label: string) =>
  new RegExp(`<th[^>]*>${label}</th>\\s*<td[^>]*>(.*?)</td>`, 's').exec(body)?.[1] ?? null;

describe('a rack with a rack type', () => {
  it('shows the rack type, airflow and starting unit, and saves them from the edit form', async () => {
    const site = await makeSite(t);
    const [type1, type2] = [
      await makeRackType(t, { u_height: 30 }),
      await makeRackType(t, { u_height: 20, starting_unit: 5 }),
    ];
    const rack = await make44(t, '/api/dcim/racks/', {
      name: uniq('rack4'),
      site: site.id,
      rack_type: type1.id,
      airflow: 'front-to-rear',
    });
    const body = await page(`/dcim/racks/${rack.id}/`);
    expect(attribute(body, 'Rack type')).toContain(`<a href="/dcim/rack-types/${type1.id}/">${type1.model}</a>`);
    expect(attribute(body, 'Airflow')).toContain('Front to rear');
    expect(attribute(body, 'Starting unit')).toContain('1');
    // the list shows the rack type by default, as NetBox 4.4's
    const list = await page(`/dcim/racks/?id=${rack.id}`);
    expect(list).toContain(`<a href="/dcim/rack-types/${type1.id}/">${type1.model}</a>`);

    const url = `/dcim/racks/${rack.id}/edit/`;
    const form = await page(url);
    expect(form).toMatch(/<select[^>]*id="id_rack_type" name="rack_type"/);
    expect(form).toMatch(/<select[^>]*id="id_airflow" name="airflow"/);
    expect(form).toMatch(/<input type="number" id="id_starting_unit" name="starting_unit" value="1"/);
    const res = await postEdit(url, [
      ['rack_type', String(type2.id)],
      ['airflow', 'rear-to-front'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    const after = await get44(`/api/dcim/racks/${rack.id}/`);
    expect(after).toMatchObject({
      rack_type: { id: type2.id },
      airflow: { value: 'rear-to-front' },
      // the rack copies its new type's height and numbering (rack-type-link.ts)
      u_height: 20,
      starting_unit: 5,
    });
  });
});

describe('a prefix with a scope', () => {
  it('shows the scope, offers its objects by type, and saves a new one', async () => {
    const site = await makeSite(t);
    const loc = await makeLocation(t, { site: site.id });
    const other = await makeSite(t);
    const prefix = await make44(t, '/api/ipam/prefixes/', {
      prefix: '10.144.0.0/24',
      scope_type: 'dcim.location',
      scope_id: loc.id,
    });
    const body = await page(`/ipam/prefixes/${prefix.id}/`);
    expect(attribute(body, 'Scope')).toContain(`<a href="/dcim/locations/${loc.id}/">${loc.name}</a>`);
    expect(attribute(body, 'Site')).toContain(`<a href="/dcim/sites/${site.id}/">${site.name}</a>`);
    const list = await page(`/ipam/prefixes/?id=${prefix.id}`);
    expect(list).toContain(`<a href="/dcim/locations/${loc.id}/">${loc.name}</a>`);

    const url = `/ipam/prefixes/${prefix.id}/edit/`;
    const form = await page(url);
    expect(form).toMatch(/<select id="id_scope_type" name="scope_type">.*<option value="dcim.location" selected>/s);
    // the scope is a picker of the chosen type's objects, which follows the type select
    expect(form).toMatch(/<select id="id_scope_id" name="scope_id" data-picker="\/api\/dcim\/locations\/"/);
    expect(form).toContain(`<option value="${loc.id}" selected>${loc.name}</option>`);
    expect(form).toContain('data-picker-type-field="scope_type"');

    // without JavaScript: another type, then "Show choices", answers the form with that type's objects
    const shown = await postEdit(url, [['scope_type', 'dcim.site']], [['_picker', 'scope_id']]);
    expect(shown.statusCode).toBe(200);
    expect(shown.body).toMatch(/<select id="id_scope_id" name="scope_id" data-picker="\/api\/dcim\/sites\/"/);
    expect(shown.body).toContain(`<option value="${other.id}">${other.name}</option>`);
    expect((await get44(`/api/ipam/prefixes/${prefix.id}/`)).scope_type).toBe('dcim.location');

    const res = await postEdit(url, [
      ['scope_type', 'dcim.site'],
      ['scope_id', String(other.id)],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    const after = await get44(`/api/ipam/prefixes/${prefix.id}/`);
    expect(after).toMatchObject({ scope_type: 'dcim.site', scope_id: other.id, scope: { id: other.id } });
    // the 3.4 site follows the scope
    expect((await (await t.get(`/api/ipam/prefixes/${prefix.id}/`)).json()).site.id).toBe(other.id);
  });

  it('an edit of the 3.4 site alone moves the scope with it (the untouched scope is not sent back)', async () => {
    const [a, b] = [await makeSite(t), await makeSite(t)];
    const prefix = await make44(t, '/api/ipam/prefixes/', {
      prefix: '10.145.0.0/24',
      scope_type: 'dcim.site',
      scope_id: a.id,
    });
    const res = await postEdit(`/ipam/prefixes/${prefix.id}/edit/`, [['site', String(b.id)]]);
    expect(res.statusCode, res.body).toBe(303);
    expect(await get44(`/api/ipam/prefixes/${prefix.id}/`)).toMatchObject({ scope_type: 'dcim.site', scope_id: b.id });
  });

  it('adds a prefix scoped to a location from the add form', async () => {
    const loc = await makeLocation(t);
    const res = await postFormOf(t, admin, '/ipam/prefixes/add/', [
      ['prefix', '10.146.0.0/24'],
      ['status', 'active'],
      ['scope_type', 'dcim.location'],
      ['scope_id', String(loc.id)],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    const made = (await get44('/api/ipam/prefixes/?prefix=10.146.0.0/24')).results[0];
    expect(made).toMatchObject({ scope_type: 'dcim.location', scope_id: loc.id });
  });
});

describe('an interface with MAC addresses', () => {
  it('lists its MAC objects and its primary, and saves another primary', async () => {
    const device = await makeDevice(t);
    const iface = await makeInterface(t, device);
    const on = { assigned_object_type: 'dcim.interface', assigned_object_id: iface.id };
    const mac1 = await make44(t, '/api/dcim/mac-addresses/', { mac_address: '02:00:00:00:44:01', ...on });
    const mac2 = await make44(t, '/api/dcim/mac-addresses/', { mac_address: '02:00:00:00:44:02', ...on });
    expect(
      (await api44(t).patch(`/api/dcim/interfaces/${iface.id}/`, { primary_mac_address: mac1.id })).statusCode,
    ).toBe(200);
    const body = await page(`/dcim/interfaces/${iface.id}/`);
    expect(attribute(body, 'Primary MAC address')).toContain(
      `<a href="/dcim/mac-addresses/${mac1.id}/">02:00:00:00:44:01</a>`,
    );
    const all = attribute(body, 'MAC addresses') ?? '';
    expect(all).toContain(`<a href="/dcim/mac-addresses/${mac1.id}/">`);
    expect(all).toContain(`<a href="/dcim/mac-addresses/${mac2.id}/">`);

    const url = `/dcim/interfaces/${iface.id}/edit/`;
    const form = await page(url);
    expect(form).toMatch(/<select[^>]*id="id_primary_mac_address" name="primary_mac_address"/);
    expect(form).toContain(`<option value="${mac1.id}" selected>02:00:00:00:44:01</option>`);
    const res = await postEdit(url, [['primary_mac_address', String(mac2.id)]]);
    expect(res.statusCode, res.body).toBe(303);
    const after = await get44(`/api/dcim/interfaces/${iface.id}/`);
    expect(after.primary_mac_address.id).toBe(mac2.id);
    // 3.4's mac_address mirrors the primary
    expect(after.mac_address).toBe('02:00:00:00:44:02');
  });
});

describe('a VLAN group with VID ranges', () => {
  it('shows the ranges as NetBox words them and saves new ones; bad text is the field’s error', async () => {
    const name = uniq('vg4');
    const group = await make44(t, '/api/ipam/vlan-groups/', {
      name,
      slug: name,
      vid_ranges: [
        [10, 20],
        [30, 40],
      ],
    });
    const body = await page(`/ipam/vlan-groups/${group.id}/`);
    expect(attribute(body, 'VLAN ID ranges')).toContain('10-20, 30-40');
    const list = await page(`/ipam/vlan-groups/?id=${group.id}`);
    // NetBox 4.4's default columns: the utilization of the ranges and the tenant
    expect(list).toMatch(/>Utilization</);
    expect(list).toMatch(/>Tenant</);

    const url = `/ipam/vlan-groups/${group.id}/edit/`;
    const form = await page(url);
    expect(form).toMatch(/<input type="text" id="id_vid_ranges" name="vid_ranges" value="10-20, 30-40"/);
    const bad = await postEdit(url, [['vid_ranges', '10-20, lots']]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="id_vid_ranges-error">&quot;lots&quot; is no range/);
    const overlap = await postEdit(url, [['vid_ranges', '10-20, 15-30']]);
    expect(overlap.statusCode).toBe(400);
    expect(overlap.body).toContain('Ranges cannot overlap.');

    const res = await postEdit(url, [['vid_ranges', '100-199, 300, 400-410']]);
    expect(res.statusCode, res.body).toBe(303);
    const after = await get44(`/api/ipam/vlan-groups/${group.id}/`);
    expect(after.vid_ranges).toEqual([
      [100, 199],
      [300, 300],
      [400, 410],
    ]);
    // 3.4's bounds follow
    expect(await (await t.get(`/api/ipam/vlan-groups/${group.id}/`)).json()).toMatchObject({
      min_vid: 100,
      max_vid: 410,
    });
  });
});

describe('a rack numbered from its starting unit (NetBox 4.1)', () => {
  it('draws, lists and places devices and reservations on units starting_unit .. starting_unit + height - 1', async () => {
    const site = await makeSite(t);
    const rack = await make44(t, '/api/dcim/racks/', {
      name: uniq('rack5'),
      site: site.id,
      u_height: 10,
      starting_unit: 5,
    });
    // a device below the first unit or past the last does not fit; one on U5 and one reaching U14 do
    const type = await make(t, '/api/dcim/device-types/', {
      model: uniq('2u'),
      slug: uniq('2u'),
      u_height: 2,
      manufacturer: (await makeManufacturer(t)).id,
    });
    const place = (position: number) =>
      makeDevice(t, { site: site.id, rack: rack.id, face: 'front', position, device_type: type.id });
    const refused = async (position: number) => {
      const res = await t.request('POST', '/api/dcim/devices/', {
        body: {
          name: uniq('d'),
          site: site.id,
          rack: rack.id,
          face: 'front',
          position,
          device_type: type.id,
          role: (await makeRole(t)).id,
        },
      });
      expect(res.statusCode, `U${position}`).toBe(400);
      expect(res.json().position[0]).toMatch(/^U\d+(\.0)? is already occupied or does not have sufficient space/);
    };
    await refused(3);
    await refused(14);
    const low = await place(5);
    const high = await place(13);
    const user = (await t.get(`/api/users/users/?username=${t.username}`)).json().results[0].id;
    const resv = await t.request('POST', '/api/dcim/rack-reservations/', {
      body: { rack: rack.id, units: [2, 3], user, description: 'below' },
    });
    expect(resv.statusCode).toBe(400);
    expect(resv.json().units[0]).toBe('Invalid unit(s) for 10U rack: 2, 3');
    expect(
      (
        await t.request('POST', '/api/dcim/rack-reservations/', {
          body: { rack: rack.id, units: [9, 10], user, description: 'inside' },
        })
      ).statusCode,
    ).toBe(201);

    const body = await page(`/dcim/racks/${rack.id}/`);
    const front = /<svg [^>]*aria-label="Front of rack[^"]*"[^>]*>[\s\S]*?<\/svg>/.exec(body)![0];
    const units = [...front.matchAll(/<rect class="slot[^"]*"[^>]* data-unit="(\d+)"/g)].map((m) => Number(m[1]));
    expect(units).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
    expect(front).toContain(`data-device="${low.id}"`);
    expect(front).toContain(`data-device="${high.id}"`);
    expect(front).toContain('aria-label="Add a device at U7"');
    expect(front).not.toContain('aria-label="Add a device at U5"');
    // the REST list of units, from the top
    const json = (await t.get(`/api/dcim/racks/${rack.id}/elevation/?face=front&limit=100`)).json();
    const ids = json.results.map((u: { id: number }) => u.id).filter(Number.isInteger);
    expect(ids).toEqual([14, 13, 12, 11, 10, 9, 8, 7, 6, 5]);
    expect(json.results.find((u: { id: number }) => u.id === 5).device.id).toBe(low.id);
  });
});
