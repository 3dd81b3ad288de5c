/**
 * An object's related-list tabs (ModelUi.tabs, web/object-views/related-tab.ts) through
 * app.inject() on the suite's engine: a device's component tabs with their counts, paged and
 * filtered, narrowed to the device whatever the URL says, a virtual chassis master listing its
 * members' interfaces as the API does, tabs hidden when empty or not permitted, and a page's
 * statements that do not grow with its rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, make, makeDevice, makeInterface, makeUser, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fewestStatements } from '../helpers/statements.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
let device: Record<string, unknown>;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
  device = await makeDevice(t, { name: uniq('tabbed') });
  await make(
    t,
    '/api/dcim/interfaces/',
    Array.from({ length: 48 }, (_, i) => ({ device: device.id, name: `ge-0/0/${i}`, type: '1000base-t', mtu: 9000 })),
  );
  await make(t, '/api/dcim/console-ports/', { device: device.id, name: 'con0' });
});
afterAll(async () => t.close());

/** the names in the first column of a table, in order */
const firstColumn = (body: string) =>
  [...body.matchAll(/<tr><td class="pk">.*?<\/td><td><a href="[^"]+">([^<]*)<\/a>/g)].map((m) => m[1]);
/** the object's tabs: label and badge */
const tabsOf = (body: string) =>
  [
    ...(body.match(/<nav class="tabs"[\s\S]*?<\/nav>/)?.[0] ?? '').matchAll(
      /<li><a href="[^"]+"(?: aria-current="page")?>([^<]+?)(?: <span class="count">(\d+)<\/span>)?<\/a><\/li>/g,
    ),
  ].map((m) => (m[2] ? `${m[1]} ${m[2]}` : m[1]));

describe("a device's component tabs", () => {
  it('are shown with their counts on the device page, and only those with components', async () => {
    const res = await admin.request('GET', `/dcim/devices/${device.id}/`);
    expect(res.statusCode).toBe(200);
    const tabs = tabsOf(res.body);
    expect(tabs).toContain('Interfaces 48');
    expect(tabs).toContain('Console ports 1');
    expect(tabs.some((x) => x!.startsWith('Front ports'))).toBe(false);
    expect(res.body).toContain(`href="/dcim/devices/${device.id}/interfaces/"`);
  });

  it('pages through 48 interfaces, sorted and filtered, with the columns NetBox shows', async () => {
    const first = await admin.request('GET', `/dcim/devices/${device.id}/interfaces/?per_page=25`);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('aria-current="page">Interfaces <span class="count">48</span>');
    expect(firstColumn(first.body)).toHaveLength(25);
    expect(first.body).toContain('1–25 of 48');
    const headers = [...first.body.matchAll(/<th scope="col"(?: aria-sort="\w+")?>(?:<a [^>]+>)?([^<]+)/g)].map(
      (m) => m[1],
    );
    expect(headers).toEqual([
      'Name',
      'Label',
      'Enabled',
      'Type',
      'Parent interface',
      'Parent LAG',
      'MTU',
      '802.1Q mode',
      'Untagged VLAN',
      'Tagged VLANs',
      'MAC address',
      'Description',
      'Cable',
      'Link peers',
      'Connected endpoints',
      'IP addresses',
    ]);
    const second = await admin.request('GET', `/dcim/devices/${device.id}/interfaces/?per_page=25&page=2`);
    expect(firstColumn(second.body)).toHaveLength(23);
    const sorted = await admin.request('GET', `/dcim/devices/${device.id}/interfaces/?sort=-name&per_page=25`);
    expect(firstColumn(sorted.body)[0]).toBe('ge-0/0/47');
    const found = await admin.request('GET', `/dcim/devices/${device.id}/interfaces/?q=ge-0/0/4`);
    expect(firstColumn(found.body).sort()).toEqual(
      ['ge-0/0/4', ...Array.from({ length: 8 }, (_, i) => `ge-0/0/4${i}`)].sort(),
    );
    // the selection posts to the interfaces' bulk pages with the device's filter, and comes back here
    expect(first.body).toContain(`formaction="/dcim/interfaces/edit/?device_id=${device.id}"`);
    expect(first.body).toContain(`name="return_url" value="/dcim/devices/${device.id}/interfaces/?per_page=25"`);
    expect(first.body).toContain(`href="/dcim/interfaces/add/?device=${device.id}&amp;return_url=`);
    // each row's Edit returns here
    expect(first.body).toMatch(
      /href="\/dcim\/interfaces\/\d+\/edit\/\?return_url=%2Fdcim%2Fdevices%2F\d+%2Finterfaces%2F%3Fper_page%3D25">Edit<\/a>/,
    );
  });

  it("lists this device's interfaces only, whatever device the URL names", async () => {
    const other = await makeDevice(t);
    await makeInterface(t, other, { name: 'other-eth' });
    const res = await admin.request('GET', `/dcim/devices/${device.id}/interfaces/?device_id=${other.id}&per_page=100`);
    expect(res.statusCode).toBe(200);
    expect(firstColumn(res.body)).toHaveLength(48);
    expect(res.body).not.toContain('other-eth');
  });

  it("on a virtual chassis master, lists the members' interfaces too, as the API's device_id does", async () => {
    const master = await makeDevice(t, { name: uniq('vc-a') });
    const member = await makeDevice(t, { name: uniq('vc-b') });
    const vc = await make(t, '/api/dcim/virtual-chassis/', { name: uniq('vc'), master: master.id });
    for (const [d, pos] of [
      [master, 1],
      [member, 2],
    ] as const)
      await t.app.inject({
        method: 'PATCH',
        url: `/api/dcim/devices/${d.id}/`,
        headers: { authorization: `Token ${t.token}` },
        payload: { virtual_chassis: vc.id, vc_position: pos },
      });
    await makeInterface(t, master, { name: 'a-eth0' });
    await makeInterface(t, member, { name: 'b-eth0' });
    const api = await t.app.inject({
      method: 'GET',
      url: `/api/dcim/interfaces/?device_id=${master.id}`,
      headers: { authorization: `Token ${t.token}` },
    });
    const res = await admin.request('GET', `/dcim/devices/${master.id}/interfaces/`);
    expect(firstColumn(res.body).sort()).toEqual(
      (api.json().results as Array<{ name: string }>).map((r) => r.name).sort(),
    );
    expect(firstColumn(res.body).sort()).toEqual(['a-eth0', 'b-eth0']);
  });

  it('costs the same statements for 5 rows as for 48', async () => {
    const small = await fewestStatements(t.db, () =>
      admin.request('GET', `/dcim/devices/${device.id}/interfaces/?per_page=25&q=ge-0/0/1`),
    );
    const big = await fewestStatements(t.db, () =>
      admin.request('GET', `/dcim/devices/${device.id}/interfaces/?per_page=50`),
    );
    expect(firstColumn(big.result.body)).toHaveLength(48);
    expect(big.n).toBeLessThanOrEqual(small.n);
  });

  it('answers an unknown tab and a hidden device with 404, a bad filter with a 400 page', async () => {
    expect((await admin.request('GET', `/dcim/devices/${device.id}/no-such-tab/`)).statusCode).toBe(404);
    expect((await admin.request('GET', '/dcim/devices/999999999/interfaces/')).statusCode).toBe(404);
    const bad = await admin.request('GET', `/dcim/devices/${device.id}/interfaces/?mtu=abc`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('role="alert"');
  });

  it("offers the add form filled in with the object, by the listed model's own field", async () => {
    const type = await make(t, '/api/dcim/device-types/', {
      manufacturer: (await make(t, '/api/dcim/manufacturers/', { name: uniq('mf'), slug: uniq('mf') })).id,
      model: uniq('type'),
      slug: uniq('type'),
    });
    await make(t, '/api/dcim/interface-templates/', { device_type: type.id, name: 'eth0', type: '1000base-t' });
    const res = await admin.request('GET', `/dcim/device-types/${type.id}/interfaces/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`href="/dcim/interface-templates/add/?device_type=${type.id}&amp;return_url=`);
  });

  it('answers junk in every tab URL of a device with a page, never a 500', async () => {
    const slugs = [
      ...(await admin.request('GET', `/dcim/devices/${device.id}/`)).body.matchAll(
        new RegExp(`href="/dcim/devices/${device.id}/([a-z-]+)/"`, 'g'),
      ),
    ].map((m) => m[1]);
    const all = [...new Set([...slugs, 'front-ports', 'virtual-machines', 'inventory'])];
    for (const slug of all)
      for (const q of [
        'page=-3&per_page=abc&sort=-nonsense',
        'device_id=abc&q=%01%02',
        'page=99999999999&name=%00',
        'cabled=maybe&id=<b>',
      ]) {
        const res = await admin.request('GET', `/dcim/devices/${device.id}/${slug}/?${q}`);
        expect(res.statusCode, `${slug}?${q}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
        expect([200, 400, 404], `${slug}?${q}`).toContain(res.statusCode);
      }
    for (const url of [
      '/dcim/cables/add/?a_terminations_type=dcim.interface&b_terminations_type=dcim.interface&a_terminations=99999999999999999999',
      '/dcim/cables/add/?a_terminations_type=%00&b_terminations_type=<b>',
      '/dcim/cables/add/?a_terminations_type=dcim.interface&b_terminations_type=dcim.interface&a_terminations=999999',
      '/dcim/interfaces/99999999999999999999/trace/',
      '/dcim/front-ports/0/trace/',
    ]) {
      const res = await admin.request('GET', url);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
    }
  });

  it('is not offered to a user who may see the device but not its interfaces', async () => {
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.device'], actions: ['view'], users: [u.id] });
    const session = await signIn(t, u.username, u.password);
    const page = await session.request('GET', `/dcim/devices/${device.id}/`);
    expect(page.statusCode).toBe(200);
    expect(tabsOf(page.body).some((x) => x!.startsWith('Interfaces'))).toBe(false);
    expect((await session.request('GET', `/dcim/devices/${device.id}/interfaces/`)).statusCode).toBe(403);
  });
});
