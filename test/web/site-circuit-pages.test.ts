/**
 * A site's and a circuit's pages (web/object-views/site-devices.view.ts, circuit-terminations.view.ts,
 * the site's tabs) through app.inject() on the suite's engine: a site's devices by role with
 * links to the filtered list, its racks, devices, prefixes, VLANs and circuits as tabs; a circuit's
 * A and Z terminations with the cable and what is at its other end, and the Add button of a
 * missing side; a user who may not see devices sees no such panel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  cableBetween,
  end,
  grant,
  make,
  makeCircuit,
  makeDevice,
  makeInterface,
  makeRole,
  makeSite,
  makeTermination,
  makeUser,
  uniq,
} from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const tabsOf = (body: string) =>
  [
    ...(body.match(/<nav class="tabs"[\s\S]*?<\/nav>/)?.[0] ?? '').matchAll(
      /<li><a href="[^"]+"(?: aria-current="page")?>([^<]+?)(?: <span class="count">(\d+)<\/span>)?<\/a><\/li>/g,
    ),
  ].map((m) => (m[2] ? `${m[1]} ${m[2]}` : m[1]));

describe("a site's page", () => {
  it('counts its devices by role, each a link to the filtered list, and has tabs for what it holds', async () => {
    const site = await makeSite(t, { name: uniq('dc') });
    const leaf = await makeRole(t, { name: uniq('Leaf') });
    const spine = await makeRole(t, { name: uniq('Spine') });
    for (let i = 0; i < 3; i++) await makeDevice(t, { site: site.id, role: leaf.id });
    await makeDevice(t, { site: site.id, role: spine.id });
    await makeDevice(t, { role: spine.id });
    await make(t, '/api/ipam/prefixes/', { prefix: '10.9.0.0/16', site: site.id });
    const res = await admin.request('GET', `/dcim/sites/${site.id}/`);
    expect(res.statusCode).toBe(200);
    const panel = res.body.slice(res.body.indexOf('Devices by role'));
    expect(panel).toContain(
      `<th scope="row">${leaf.name}</th><td><a href="/dcim/devices/?site_id=${site.id}&amp;role_id=${leaf.id}">3</a>`,
    );
    expect(panel).toContain(
      `<th scope="row">${spine.name}</th><td><a href="/dcim/devices/?site_id=${site.id}&amp;role_id=${spine.id}">1</a>`,
    );
    expect(tabsOf(res.body)).toEqual(expect.arrayContaining(['Devices 4', 'Prefixes 1']));
    expect(tabsOf(res.body).some((x) => x!.startsWith('Racks'))).toBe(false);
    const devices = await admin.request('GET', `/dcim/sites/${site.id}/devices/`);
    expect(devices.statusCode).toBe(200);
    expect([...devices.body.matchAll(/<tr><td class="pk">/g)]).toHaveLength(4);
  });

  it('shows no devices panel to a user who may not see devices', async () => {
    const site = await makeSite(t);
    await makeDevice(t, { site: site.id });
    const u = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [u.id] });
    const s = await signIn(t, u.username, u.password);
    const res = await s.request('GET', `/dcim/sites/${site.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('Devices by role');
    expect(tabsOf(res.body).some((x) => x!.startsWith('Devices'))).toBe(false);
  });
});

describe("a circuit's page", () => {
  it('shows side A with its cable and link peer, and offers to add side Z', async () => {
    const site = await makeSite(t);
    const circuit = await makeCircuit(t);
    const a = await makeTermination(t, circuit, 'A', { site: site.id, port_speed: 10000 });
    const router = await makeDevice(t, { name: uniq('edge') });
    const wan = await makeInterface(t, router, { name: 'wan0' });
    await cableBetween(t, end('circuits.circuittermination', a), end('dcim.interface', wan));
    const res = await admin.request('GET', `/circuits/circuits/${circuit.id}/`);
    expect(res.statusCode).toBe(200);
    const panel = res.body.slice(res.body.indexOf('Terminations'));
    expect(panel).toContain(
      `<a href="/dcim/devices/${router.id}/">${router.name}</a> › <a href="/dcim/interfaces/${wan.id}/">wan0</a>`,
    );
    expect(panel).toContain(`href="/circuits/circuit-terminations/${a.id}/trace/"`);
    expect(panel).toContain('10000');
    expect(panel.replace(/&amp;/g, '&')).toContain(
      `/circuits/circuit-terminations/add/?circuit=${circuit.id}&term_side=Z&return_url=`,
    );
    expect(panel).not.toContain('term_side=A&');
  });
});
