/**
 * The rack pages through app.inject() on the suite's engine: a rack's page with both faces drawn
 * inline (every device named, linked to its page and escaped; reservations; empty units linking to
 * the add-device form pre-filled, whose post makes the device there), the non-racked devices tab,
 * `/dcim/rack-elevations/` (filters, pages, faces, the user's view scope), damaged data that must
 * not make a 500, and statement counts that do not grow with the racks or devices shown.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  grant,
  type Json,
  make,
  makeDevice,
  makeDeviceType,
  makeLocation,
  makeRack,
  makeRole,
  makeSite,
  makeUser,
  uniq,
} from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fewestStatements } from '../helpers/statements.js';
import { formValues, postForm } from '../helpers/web-forms.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
let site: Json;
let location: Json;
let rack: Json;
let oneU: Json;
let twoU: Json;
let fullDepth: Json;
let role: Json;
const devices: Json[] = [];
let reservation: Json;
let unpositioned: Json;

/** a device in `r` at `position` on `face` */
const mount = (r: Json, type: Json, position: number | null, face: string | null, extra: Json = {}) =>
  makeDevice(t, { site: r.site.id, rack: r.id, device_type: type.id, role: role.id, position, face, ...extra });

beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
  site = await makeSite(t);
  location = await makeLocation(t, { site: site.id });
  rack = await makeRack(t, site, { location: location.id, u_height: 42 });
  oneU = await makeDeviceType(t, { u_height: 1, is_full_depth: false });
  twoU = await makeDeviceType(t, { u_height: 2, is_full_depth: false });
  fullDepth = await makeDeviceType(t, { u_height: 1, is_full_depth: true });
  role = await makeRole(t, { color: 'aa1409' });
  devices.push(await mount(rack, oneU, 1, 'front', { name: '<script>alert(1)</script>' }));
  devices.push(await mount(rack, twoU, 2, 'front'));
  devices.push(await mount(rack, oneU, 5, 'rear'));
  devices.push(await mount(rack, fullDepth, 6, 'front'));
  devices.push(await mount(rack, oneU, 10.5, 'front', { name: uniq('half') }));
  unpositioned = await mount(rack, oneU, null, null, { name: uniq('loose') });
  const holder = await makeUser(t);
  reservation = await make(t, '/api/dcim/rack-reservations/', {
    rack: rack.id,
    units: [30, 31, 32],
    user: holder.id,
    description: 'for <b>growth</b>',
  });
});
afterAll(async () => t.close());

/** the inline drawings of a page: face label -> markup */
function drawings(body: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of body.matchAll(/<svg [^>]*class="elevation"[^>]*aria-label="([^"]+)"[^>]*>[\s\S]*?<\/svg>/g))
    out.set(m[1]!, m[0]);
  return out;
}
const deviceLinks = (svg: string) =>
  [...svg.matchAll(/<a href="\/dcim\/devices\/(\d+)\/" aria-label="([^"]*)" data-device="\d+">/g)].map((m) => ({
    id: Number(m[1]),
    label: m[2],
  }));
const addLinks = (svg: string) =>
  new Map(
    [...svg.matchAll(/<a class="add" href="([^"]+)" aria-label="[^"]+" data-add-unit="(\d+)">/g)].map((m) => [
      Number(m[2]),
      m[1]!.replace(/&amp;/g, '&'),
    ]),
  );

describe("a rack's page", () => {
  it('draws the front and the rear, every device linked to its page by name, escaped', async () => {
    const res = await admin.request('GET', `/dcim/racks/${rack.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)');
    expect(res.body).not.toMatch(/<style|style="/);
    const faces = drawings(res.body);
    const front = faces.get(`Front of rack ${rack.name}`)!;
    const rear = faces.get(`Rear of rack ${rack.name}`)!;
    expect(front).toBeTruthy();
    expect(rear).toBeTruthy();
    const frontIds = deviceLinks(front).map((l) => l.id);
    // front: its own front devices and the full-depth one; rear: the rear one and the full-depth one
    expect(frontIds.sort()).toEqual([devices[0]!.id, devices[1]!.id, devices[3]!.id, devices[4]!.id].sort());
    expect(
      deviceLinks(rear)
        .map((l) => l.id)
        .sort(),
    ).toEqual([devices[2]!.id, devices[3]!.id].sort());
    expect(deviceLinks(front).find((l) => l.id === devices[0]!.id)!.label).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt;',
    );
    expect(front).toContain('>&lt;script&gt;alert(1)&lt;/script&gt;</text>');
    // the role's colour as a presentation attribute, the CSP allows it
    expect(front).toContain('fill="#aa1409"');
    expect(res.body).toContain(`href="/api/dcim/racks/${rack.id}/elevation/?face=rear&amp;render=svg"`);
  });

  it('shows the reservations, hatched and linked to their page', async () => {
    const front = drawings((await admin.request('GET', `/dcim/racks/${rack.id}/`)).body).get(
      `Front of rack ${rack.name}`,
    )!;
    expect(front).toContain(`<a href="/dcim/rack-reservations/${reservation.id}/"`);
    expect(front).toContain('Reservation #');
    expect(front).toContain('for &lt;b&gt;growth&lt;/b&gt;');
    const reserved = [
      ...front.matchAll(/class="slot reserved" fill="url\(#rack-\d+-front-reserved\)" data-unit="(\d+)"/g),
    ];
    expect(reserved.map((m) => Number(m[1])).sort()).toEqual([30, 31, 32]);
    expect(front).toContain(`id="rack-${rack.id}-front-reserved"`);
  });

  it('links each empty unit, and only those, to the add form pre-filled', async () => {
    const front = drawings((await admin.request('GET', `/dcim/racks/${rack.id}/`)).body).get(
      `Front of rack ${rack.name}`,
    )!;
    const links = addLinks(front);
    // taken on the front: 1, 2-3, 6 (full depth), 10-11 (a half-unit device at 10.5); 5 is the rear's
    for (const u of [1, 2, 3, 6, 10, 11]) expect(links.has(u), `U${u}`).toBe(false);
    for (const u of [4, 5, 7, 9, 12, 30, 42]) expect(links.has(u), `U${u}`).toBe(true);
    expect(links.size).toBe(42 - 6);
    const url = new URL(links.get(20)!, 'http://x');
    expect(url.pathname).toBe('/dcim/devices/add/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      site: String(site.id),
      location: String(location.id),
      rack: String(rack.id),
      face: 'front',
      return_url: `/dcim/racks/${rack.id}/`,
      position: '20',
    });
  });

  it("opens the add form pre-filled from an empty unit's link, and its post makes the device there", async () => {
    const rear = drawings((await admin.request('GET', `/dcim/racks/${rack.id}/`)).body).get(
      `Rear of rack ${rack.name}`,
    )!;
    const href = addLinks(rear).get(20)!;
    const form = await admin.request('GET', href);
    expect(form.statusCode).toBe(200);
    const values = new Map(formValues(form.body, '/dcim/devices/add/'));
    expect(values.get('site')).toBe(String(site.id));
    expect(values.get('location')).toBe(String(location.id));
    expect(values.get('rack')).toBe(String(rack.id));
    expect(values.get('position')).toBe('20');
    expect(values.get('face')).toBe('rear');
    const name = uniq('from-unit');
    const pairs = formValues(form.body, '/dcim/devices/add/').map(([k, v]): [string, string] =>
      k === 'name'
        ? [k, name]
        : k === 'device_type'
          ? [k, String(oneU.id)]
          : k === 'role'
            ? [k, String(role.id)]
            : [k, v],
    );
    const res = await postForm(t, admin, '/dcim/devices/add/', [...pairs, ['_create', '1']], { formUrl: href });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/dcim/racks/${rack.id}/`);
    const made = (await t.get(`/api/dcim/devices/?name=${name}`)).json().results[0];
    expect(made).toMatchObject({ position: 20, face: { value: 'rear' }, rack: { id: rack.id } });
    const after = drawings((await admin.request('GET', `/dcim/racks/${rack.id}/`)).body);
    expect(deviceLinks(after.get(`Rear of rack ${rack.name}`)!).map((l) => l.label)).toContain(name);
    expect(addLinks(after.get(`Rear of rack ${rack.name}`)!).has(20)).toBe(false);
    await t.app.inject({
      method: 'DELETE',
      url: `/api/dcim/devices/${made.id}/`,
      headers: { authorization: `Token ${t.token}` },
    });
  });

  it('lists the devices without a position on the Non-racked devices tab', async () => {
    const page = await admin.request('GET', `/dcim/racks/${rack.id}/`);
    expect(page.body).toContain(
      `href="/dcim/racks/${rack.id}/non-racked-devices/">Non-racked devices <span class="count">1</span>`,
    );
    const tab = await admin.request('GET', `/dcim/racks/${rack.id}/non-racked-devices/?position__empty=false`);
    expect(tab.statusCode).toBe(200);
    expect(tab.body).toContain(unpositioned.name);
    expect(tab.body).not.toContain(String(devices[4]!.name));
  });

  it('shows devices a user may not view as blank blocks, and offers no add links without the add permission', async () => {
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.rack'], actions: ['view'], users: [u.id] });
    const session = await signIn(t, u.username, u.password);
    const res = await session.request('GET', `/dcim/racks/${rack.id}/`);
    expect(res.statusCode).toBe(200);
    const front = drawings(res.body).get(`Front of rack ${rack.name}`)!;
    expect(deviceLinks(front)).toEqual([]);
    expect(front).not.toContain(String(devices[1]!.name));
    expect([...front.matchAll(/<rect class="blocked"/g)]).toHaveLength(4);
    expect(addLinks(front).size).toBe(0);
  });
});

describe('damaged data', () => {
  it('draws two devices claiming the same units, and racks of 0, -3 and 32,767 units, without a 500', async () => {
    const r = await makeRack(t, site, { u_height: 10 });
    const a = await mount(r, twoU, 3, 'front');
    const b = await mount(r, twoU, 7, 'front');
    // what the API refuses, written directly
    await sql`update dcim_device set position = 4 where id = ${b.id}`.execute(t.db.kysely);
    const overlap = await admin.request('GET', `/dcim/racks/${r.id}/`);
    expect(overlap.statusCode).toBe(200);
    expect(deviceLinks(drawings(overlap.body).get(`Front of rack ${r.name}`)!).map((l) => l.id)).toEqual([a.id, b.id]);
    // a device above the top (the rack shrank underneath it) and a reservation past it
    await sql`update dcim_device set position = 9.5 where id = ${a.id}`.execute(t.db.kysely);
    const holder = await makeUser(t);
    await make(t, '/api/dcim/rack-reservations/', { rack: r.id, units: [9, 10], user: holder.id, description: 'top' });
    await sql`alter table dcim_rack drop constraint if exists dcim_rack_u_height_check`.execute(t.db.kysely);
    for (const height of [0, -3, 32_767]) {
      await sql`update dcim_rack set u_height = ${height} where id = ${r.id}`.execute(t.db.kysely);
      const res = await admin.request('GET', `/dcim/racks/${r.id}/`);
      expect(res.statusCode, `u_height ${height}`).toBe(200);
      const elevations = await admin.request('GET', `/dcim/rack-elevations/?id=${r.id}`);
      expect(elevations.statusCode, `u_height ${height}`).toBe(200);
    }
    await sql`delete from dcim_rack where id = ${r.id}`.execute(t.db.kysely).catch(() => undefined);
  });
});

describe('/dcim/rack-elevations/', () => {
  let other: Json;
  let racks: Json[];
  beforeAll(async () => {
    other = await makeSite(t);
    racks = [];
    for (let i = 0; i < 26; i += 1)
      racks.push(await makeRack(t, other, { name: `${other.name}-r${String(i).padStart(2, '0')}`, u_height: 12 }));
    for (const r of racks.slice(0, 6)) await mount(r, oneU, 1, 'front');
  });

  const shown = (body: string) => [...drawings(body).keys()];

  it("draws the site's racks, front by default, rear on asking, paged, sorted by name", async () => {
    const res = await admin.request('GET', `/dcim/rack-elevations/?site_id=${other.id}&per_page=50`);
    expect(res.statusCode).toBe(200);
    expect(shown(res.body)).toEqual(racks.map((r) => `Front of rack ${r.name}`));
    expect(res.body).toContain('Rack elevations <span class="count">26</span>');
    // the filter's chip, which keeps the page's own parameters when removed
    expect(res.body).toMatch(/class="chip filter-chip" href="\/dcim\/rack-elevations\/\?per_page=50"/);
    const rear = await admin.request('GET', `/dcim/rack-elevations/?site_id=${other.id}&face=rear&sort=-name`);
    expect(shown(rear.body)).toEqual(racks.map((r) => `Rear of rack ${r.name}`).reverse());
    // the filter form carries the face and sort over
    expect(rear.body).toContain('<input type="hidden" name="face" value="rear">');
    expect(rear.body).toContain('<input type="hidden" name="sort" value="-name">');
    const q = await admin.request('GET', `/dcim/rack-elevations/?q=${racks[3]!.name}`);
    expect(shown(q.body)).toEqual([`Front of rack ${racks[3]!.name}`]);
  });

  it('pages 25 racks at a time, the filters and face kept in the pager', async () => {
    const first = await admin.request('GET', `/dcim/rack-elevations/?site_id=${other.id}&face=rear&per_page=25`);
    expect(shown(first.body)).toEqual(racks.slice(0, 25).map((r) => `Rear of rack ${r.name}`));
    expect(first.body).toContain('1–25 of 26');
    const next = /<a href="([^"]+)" rel="next">/.exec(first.body)![1]!.replace(/&amp;/g, '&');
    expect(next).toBe(`/dcim/rack-elevations/?site_id=${other.id}&face=rear&per_page=25&page=2`);
    const second = await admin.request('GET', next);
    expect(shown(second.body)).toEqual([`Rear of rack ${racks[25]!.name}`]);
  });

  it('answers a bad filter with a 400 page, and is linked from the rack list and the menu', async () => {
    const bad = await admin.request('GET', '/dcim/rack-elevations/?site_id=abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('role="alert"');
    const list = await admin.request('GET', `/dcim/racks/?site_id=${other.id}`);
    expect(list.body).toContain(`href="/dcim/rack-elevations/?site_id=${other.id}">Elevations</a>`);
    expect(list.body).toContain('<li><a href="/dcim/rack-elevations/">Elevations</a></li>');
    const home = await admin.request('GET', '/');
    expect(home.body).not.toContain('<td><a href="/dcim/rack-elevations/">');
  });

  it('shows a user restricted to one site only its racks', async () => {
    const u = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.rack', 'dcim.device'],
      actions: ['view'],
      users: [u.id],
      constraints: { site_id: other.id },
    });
    const session = await signIn(t, u.username, u.password);
    const res = await session.request('GET', '/dcim/rack-elevations/?per_page=100');
    expect(res.statusCode).toBe(200);
    expect(shown(res.body).sort()).toEqual(racks.map((r) => `Front of rack ${r.name}`).sort());
    expect((await session.request('GET', `/dcim/racks/${rack.id}/`)).statusCode).toBe(404);
  });

  it('costs the same statements for 10 racks as for 25, and for an empty rack as for a full one', async () => {
    const few = await fewestStatements(t.db, () =>
      admin.request('GET', `/dcim/rack-elevations/?site_id=${other.id}&q=${other.name}-r0&per_page=25`),
    );
    const many = await fewestStatements(t.db, () =>
      admin.request('GET', `/dcim/rack-elevations/?site_id=${other.id}&per_page=25`),
    );
    expect(shown(few.result.body).length).toBeLessThan(shown(many.result.body).length);
    expect(shown(many.result.body)).toHaveLength(25);
    expect(many.n).toBeLessThanOrEqual(few.n);
    const empty = await fewestStatements(t.db, () => admin.request('GET', `/dcim/racks/${racks[20]!.id}/`));
    const full = await fewestStatements(t.db, () => admin.request('GET', `/dcim/racks/${rack.id}/`));
    expect(full.n).toBeLessThanOrEqual(empty.n);
  });
});
