/**
 * The physical topology drawing (web/object-views/site-topology.view.ts, topology-svg.ts,
 * apps/dcim/device-links.ts) through app.inject() on the suite's engine: a site's Topology tab
 * draws every device of the site grouped by rack, each a link, a device named `<script>` as text;
 * the cables between two devices are one edge with their count, a wireless link a dashed one;
 * `/dcim/topology/` draws what the device list's filters select; a user who may not see cables
 * sees the devices without edges; the statements do not grow with the devices drawn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cableBetween,
  end,
  grant,
  make,
  makeDevice,
  makeInterface,
  makeRack,
  makeRole,
  makeSite,
  makeUser,
  uniq,
} from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fewestStatements } from '../helpers/statements.js';
import { findAll, parseXml, type XmlElement } from '../helpers/xml.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const svgOf = (body: string) => parseXml(/<svg[^>]*class="topology-svg"[\s\S]*?<\/svg>/.exec(body)![0]);
const textOf = (el: XmlElement): string => el.children.map((c) => (typeof c === 'string' ? c : textOf(c))).join('');
/** the nodes: href -> the name shown */
const nodesOf = (svg: XmlElement) =>
  new Map(findAll(svg, 'a').map((a) => [a.attrs.href, textOf(findAll(a, 'text')[0]!)]));

describe('a site topology', () => {
  let site: Record<string, unknown>;
  const devices: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    site = await makeSite(t, { name: uniq('topo') });
    const r1 = await makeRack(t, site, { name: 'R01' });
    const r2 = await makeRack(t, site, { name: 'R02' });
    const role = await makeRole(t, { color: 'ffeb3b' });
    devices.push(await makeDevice(t, { site: site.id, rack: r1.id, role: role.id, name: 'leaf1' }));
    devices.push(await makeDevice(t, { site: site.id, rack: r2.id, role: role.id, name: 'leaf2' }));
    devices.push(await makeDevice(t, { site: site.id, name: '<script>alert(1)</script>' }));
    const [a, b, c] = devices;
    const ai = [await makeInterface(t, a!), await makeInterface(t, a!), await makeInterface(t, a!)];
    const bi = [await makeInterface(t, b!), await makeInterface(t, b!)];
    const ci = [await makeInterface(t, c!, { type: 'ieee802.11ac' })];
    const bw = await makeInterface(t, b!, { type: 'ieee802.11ac' });
    await cableBetween(t, end('dcim.interface', ai[0]!), end('dcim.interface', bi[0]!), { color: 'ff0000' });
    await cableBetween(t, end('dcim.interface', bi[1]!), end('dcim.interface', ai[1]!));
    await make(t, '/api/wireless/wireless-links/', { interface_a: ci[0]!.id, interface_b: bw.id, ssid: 'mesh' });
    // a cable to a device of another site: not drawn
    const away = await makeDevice(t);
    await cableBetween(t, end('dcim.interface', ai[2]!), end('dcim.interface', await makeInterface(t, away)));
  });

  it('draws every device of the site as a link, by rack, and escapes names', async () => {
    const page = await admin.request('GET', `/dcim/sites/${site.id}/`);
    expect(page.body).toContain(`href="/dcim/sites/${site.id}/topology/"`);
    const res = await admin.request('GET', `/dcim/sites/${site.id}/topology/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('<script>alert(1)');
    const svg = svgOf(res.body);
    const nodes = nodesOf(svg);
    expect(nodes).toEqual(
      new Map([
        [`/dcim/devices/${devices[0]!.id}/`, 'leaf1'],
        [`/dcim/devices/${devices[1]!.id}/`, 'leaf2'],
        [`/dcim/devices/${devices[2]!.id}/`, '<script>alert(1)</scr…'],
      ]),
    );
    const racks = findAll(svg, 'text')
      .filter((x) => x.attrs.class === 'topo-rack')
      .map(textOf);
    expect(racks).toEqual(['R01', 'R02', 'Not racked']);
    // the role's yellow with black text
    expect(res.body).toMatch(/fill="#ffeb3b" class="topo-node"\/><text [^>]*fill="#000000"/);
  });

  it('draws the two cables between leaf1 and leaf2 as one edge of 2, the wireless link dashed, nothing to another site', async () => {
    const svg = svgOf((await admin.request('GET', `/dcim/sites/${site.id}/topology/`)).body);
    const edges = findAll(svg, 'path');
    expect(edges.map((e) => textOf(findAll(e, 'title')[0]!)).sort()).toEqual(
      ['leaf2 – <script>alert(1)</script>: 1 link', 'leaf1 – leaf2: 2 links'].sort(),
    );
    const cable = edges.find((e) => textOf(e).includes('leaf1'))!;
    expect(cable.attrs.stroke).toBe('#ff0000');
    expect(cable.attrs['stroke-dasharray']).toBeUndefined();
    const radio = edges.find((e) => textOf(e).includes('script'))!;
    expect(radio.attrs['stroke-dasharray']).toBe('6 4');
  });

  it('draws what the device list filters select at /dcim/topology/, and refuses a bad filter with a 400', async () => {
    const res = await admin.request('GET', `/dcim/topology/?site_id=${site.id}&name=leaf1&name=leaf2`);
    expect(res.statusCode).toBe(200);
    expect([...nodesOf(svgOf(res.body)).values()].sort()).toEqual(['leaf1', 'leaf2']);
    expect((await admin.request('GET', '/dcim/topology/')).body).toContain('Choose devices');
    expect((await admin.request('GET', '/dcim/topology/?site_id=abc')).statusCode).toBe(400);
    const none = await admin.request('GET', `/dcim/topology/?site_id=${site.id}&name=nope`);
    expect(none.body).toContain('No devices to draw.');
  });

  it('shows a user who may not see cables the devices without edges', async () => {
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.site', 'dcim.device', 'dcim.rack'], actions: ['view'], users: [u.id] });
    const s = await signIn(t, u.username, u.password);
    const res = await s.request('GET', `/dcim/sites/${site.id}/topology/`);
    expect(res.statusCode).toBe(200);
    const svg = svgOf(res.body);
    expect(nodesOf(svg).size).toBe(3);
    expect(findAll(svg, 'path')).toHaveLength(0);
    // nor roles: the site's devices by role name them by number
    const sitePage = await s.request('GET', `/dcim/sites/${site.id}/`);
    expect(sitePage.statusCode).toBe(200);
    expect(sitePage.body).toMatch(/<th scope="row">Role \d+<\/th>/);
  });

  it('costs the same statements for 3 devices as for 30', async () => {
    const big = await makeSite(t);
    for (let i = 0; i < 30; i++) await makeDevice(t, { site: big.id });
    const small = await fewestStatements(t.db, () => admin.request('GET', `/dcim/sites/${site.id}/topology/`));
    const large = await fewestStatements(t.db, () => admin.request('GET', `/dcim/sites/${big.id}/topology/`));
    expect(nodesOf(svgOf(large.result.body)).size).toBe(30);
    expect(large.n).toBeLessThanOrEqual(small.n);
  });
});
