/**
 * Cables from a person's side (web/pages/cable-connect.page.ts, object-views/row-extras.ts and
 * trace.view.ts) through app.inject() on the suite's engine: a device's interface row offers
 * Connect per compatible kind; the connect form picks the far device, then its free ports; the
 * cable shows as the link peer on both devices; the trace across a patch panel draws every hop and
 * lists it; Disconnect deletes the cable. Refused connections (an occupied port, incompatible
 * kinds, a port the user may not see) show the API's reason and write nothing. Checked through
 * the REST API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cableBetween, end, grant, make, makeDevice, makeInterface, makeUser, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { fewestStatements } from '../helpers/statements.js';
import { parseXml } from '../helpers/xml.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const csrfOf = (body: string) => body.match(/name="csrfmiddlewaretoken" value="(\w{64})"/)![1]!;
const api = async (url: string) =>
  (await t.app.inject({ method: 'GET', url, headers: { authorization: `Token ${t.token}` } })).json();
const decode = (s: string) => s.replace(/&amp;/g, '&');
/** the options of a <select name=...> as [value, text] */
const optionsOf = (body: string, name: string) => {
  const select = new RegExp(`<select[^>]* name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(body)?.[1] ?? '';
  return [...select.matchAll(/<option[^>]*value="([^"]*)"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2]]);
};

async function post(url: string, fields: Array<[string, string]>) {
  const page = await admin.request('GET', '/dcim/cables/');
  const body = new URLSearchParams([['csrfmiddlewaretoken', csrfOf(page.body)], ...fields]).toString();
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: admin.cookieHeader(),
      'content-type': 'application/x-www-form-urlencoded',
      'x-csrftoken': admin.csrf(),
      origin: 'http://localhost:80',
    },
    payload: body,
  });
}

describe('connecting a cable from an interface row', () => {
  let a: Record<string, unknown>;
  let b: Record<string, unknown>;
  let a1: Record<string, unknown>;
  let b1: Record<string, unknown>;
  beforeAll(async () => {
    a = await makeDevice(t, { name: uniq('sw-a') });
    b = await makeDevice(t, { name: uniq('sw-b') });
    a1 = await makeInterface(t, a, { name: 'xe-1' });
    await makeInterface(t, a, { name: 'xe-2' });
    b1 = await makeInterface(t, b, { name: 'ge-1' });
  });

  it('offers Connect per compatible kind on an uncabled row, and the form opens with side A filled in', async () => {
    const tab = await admin.request('GET', `/dcim/devices/${a.id}/interfaces/`);
    expect(tab.statusCode).toBe(200);
    const links = [...tab.body.matchAll(/href="(\/dcim\/cables\/add\/\?[^"]+)">([^<]+)</g)]
      .map((m) => [decode(m[1]!), m[2]])
      .filter(([href]) => href!.includes(`a_terminations=${a1.id}&`));
    expect(links.map(([, text]) => text)).toEqual(['Interface', 'Circuit termination', 'Front port', 'Rear port']);
    const form = await admin.request('GET', links[0]![0]!);
    expect(form.statusCode).toBe(200);
    // side A: the device chosen and its port selected; side B: the device to choose first
    expect(form.body).toMatch(new RegExp(`<option value="${a.id}" selected>`));
    expect(form.body).toMatch(new RegExp(`<option value="${a1.id}" selected>xe-1`));
    expect(form.body).toContain('Choose the device first.');
    expect(form.body).toContain(`name="return_url" value="/dcim/devices/${a.id}/interfaces/"`);
  });

  it('shows the far device’s free ports after "Show ports", then connects them', async () => {
    const fields: Array<[string, string]> = [
      ['a_terminations_type', 'dcim.interface'],
      ['b_terminations_type', 'dcim.interface'],
      ['a_parent', String(a.id)],
      ['a_terminations', String(a1.id)],
      ['b_parent', String(b.id)],
      ['return_url', `/dcim/devices/${a.id}/interfaces/`],
    ];
    const shown = await post('/dcim/cables/add/', [...fields, ['_refresh', 'b']]);
    expect(shown.statusCode).toBe(200);
    expect(optionsOf(shown.body, 'b_terminations').map(([, n]) => n)).toEqual(['ge-1']);
    const before = (await api('/api/dcim/cables/?limit=1')).count;
    const done = await post('/dcim/cables/add/', [
      ...fields,
      ['b_terminations', String(b1.id)],
      ['status', 'connected'],
      ['label', 'uplink-1'],
      ['color', 'ff0000'],
      ['_create', '1'],
    ]);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/dcim/devices/${a.id}/interfaces/`);
    expect((await api('/api/dcim/cables/?limit=1')).count).toBe(before + 1);
    const iface = await api(`/api/dcim/interfaces/${a1.id}/`);
    expect(iface.cable.label).toBe('uplink-1');
    expect(iface.link_peers.map((p: { id: number }) => p.id)).toEqual([b1.id]);
    // both devices' tabs show the other end as "device › port"
    const tabA = await admin.request('GET', `/dcim/devices/${a.id}/interfaces/`);
    expect(tabA.body).toContain(
      `<a href="/dcim/devices/${b.id}/">${b.name}</a> › <a href="/dcim/interfaces/${b1.id}/">ge-1</a>`,
    );
    const tabB = await admin.request('GET', `/dcim/devices/${b.id}/interfaces/`);
    expect(tabB.body).toContain(
      `<a href="/dcim/devices/${a.id}/">${a.name}</a> › <a href="/dcim/interfaces/${a1.id}/">xe-1</a>`,
    );
    // the cabled row offers Trace and Disconnect, no Connect
    expect(tabB.body).toContain(`href="/dcim/interfaces/${b1.id}/trace/"`);
    expect(decode(tabB.body)).toContain(`href="/dcim/cables/${iface.cable.id}/delete/?return_url=`);
  });

  it('refuses an occupied port with the API’s reason beside the ports, writing nothing', async () => {
    const c = await makeDevice(t);
    const c1 = await makeInterface(t, c);
    const before = (await api('/api/dcim/cables/?limit=1')).count;
    const res = await post('/dcim/cables/add/', [
      ['a_terminations_type', 'dcim.interface'],
      ['b_terminations_type', 'dcim.interface'],
      ['a_parent', String(c.id)],
      ['a_terminations', String(c1.id)],
      ['b_parent', String(b.id)],
      ['b_terminations', String(b1.id)],
      ['_create', '1'],
    ]);
    expect(res.statusCode).toBe(400);
    // NetBox's message, beside the side's ports
    expect(/<p class="error" id="err_b_terminations">([^<]+)/.exec(res.body)?.[1]).toMatch(
      new RegExp(`^Duplicate termination found for dcim.interface:${b1.id}: cable \\d+$`),
    );
    expect((await api('/api/dcim/cables/?limit=1')).count).toBe(before);
  });

  it('refuses incompatible kinds and an unknown kind, and asks for ports that were not chosen', async () => {
    const d = await makeDevice(t);
    const pp = await make(t, '/api/dcim/power-ports/', { device: d.id, name: 'psu1' });
    const i = await makeInterface(t, d);
    const mixed = await post('/dcim/cables/add/', [
      ['a_terminations_type', 'dcim.interface'],
      ['b_terminations_type', 'dcim.powerport'],
      ['a_parent', String(d.id)],
      ['a_terminations', String(i.id)],
      ['b_parent', String(d.id)],
      ['b_terminations', String(pp.id)],
      ['_create', '1'],
    ]);
    expect(mixed.statusCode).toBe(400);
    expect(mixed.body).toContain('Incompatible termination types');
    const unknown = await admin.request(
      'GET',
      '/dcim/cables/add/?a_terminations_type=dcim.site&b_terminations_type=dcim.interface',
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.body).toContain('a cable cannot end on');
    const empty = await post('/dcim/cables/add/', [
      ['a_terminations_type', 'dcim.interface'],
      ['b_terminations_type', 'dcim.interface'],
      ['a_terminations', 'x'],
      ['_create', '1'],
    ]);
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('Not a valid choice.');
    expect(empty.body).toContain('Choose at least one interface.');
    // no kinds named: the chooser
    const chooser = await admin.request('GET', '/dcim/cables/add/');
    expect(chooser.statusCode).toBe(200);
    expect(optionsOf(chooser.body, 'a_terminations_type').map(([v]) => v)).toContain('circuits.circuittermination');
  });

  it('refuses a port the user may not see, writing nothing', async () => {
    const u = await makeUser(t);
    const mine = await makeDevice(t);
    const theirs = await makeDevice(t);
    const m1 = await makeInterface(t, mine);
    const t1 = await makeInterface(t, theirs);
    await grant(t, { object_types: ['dcim.cable'], actions: ['view', 'add'], users: [u.id] });
    await grant(t, { object_types: ['dcim.device'], actions: ['view'], users: [u.id], constraints: { id: mine.id } });
    await grant(t, {
      object_types: ['dcim.interface'],
      actions: ['view', 'change'],
      users: [u.id],
      constraints: { device_id: mine.id },
    });
    const session = await signIn(t, u.username, u.password);
    const page = await session.request('GET', '/dcim/cables/');
    const before = (await api('/api/dcim/cables/?limit=1')).count;
    const res = await t.app.inject({
      method: 'POST',
      url: '/dcim/cables/add/',
      headers: {
        cookie: session.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        'x-csrftoken': session.csrf(),
        origin: 'http://localhost:80',
      },
      payload: new URLSearchParams([
        ['csrfmiddlewaretoken', csrfOf(page.body)],
        ['a_terminations_type', 'dcim.interface'],
        ['b_terminations_type', 'dcim.interface'],
        ['a_terminations', String(m1.id)],
        ['b_terminations', String(t1.id)],
        ['_create', '1'],
      ]).toString(),
    });
    expect(res.statusCode, res.headers.location as string).toBe(400);
    // the user's own port is fine; the other is not theirs
    expect([...res.body.matchAll(/<p class="error" id="err_(\w+)">([^<]+)/g)].map((m) => `${m[1]}: ${m[2]}`)).toEqual([
      `b_terminations: You may not change interface ${t1.id}.`,
    ]);
    expect((await api('/api/dcim/cables/?limit=1')).count).toBe(before);
  });
});

describe('a trace', () => {
  it('follows a cable across a patch panel, drawn and listed, every element a link', async () => {
    const left = await makeDevice(t, { name: uniq('left') });
    const right = await makeDevice(t, { name: uniq('right') });
    const panel = await makeDevice(t, { name: uniq('<script>panel') });
    const l1 = await makeInterface(t, left, { name: 'eth0' });
    const r1 = await makeInterface(t, right, { name: 'eth9' });
    const rear = await make(t, '/api/dcim/rear-ports/', {
      device: panel.id,
      name: 'rear1',
      type: '8p8c',
      positions: 1,
    });
    const front = await make(t, '/api/dcim/front-ports/', {
      device: panel.id,
      name: 'front1',
      type: '8p8c',
      rear_port: rear.id,
    });
    await cableBetween(t, end('dcim.interface', l1), end('dcim.frontport', front), {
      color: '00ff00',
      label: 'patch-1',
    });
    await cableBetween(t, end('dcim.rearport', rear), end('dcim.interface', r1), {
      label: 'trunk-1',
      length: 30,
      length_unit: 'm',
    });
    const apiTrace = (await api(`/api/dcim/interfaces/${l1.id}/trace/`)) as unknown[];
    expect(apiTrace).toHaveLength(2);
    const res = await admin.request('GET', `/dcim/interfaces/${l1.id}/trace/`);
    expect(res.statusCode).toBe(200);
    const svg = /<svg xmlns="http:\/\/www.w3.org\/2000\/svg" class="trace-svg"[\s\S]*?<\/svg>/.exec(res.body)![0];
    // well-formed, and the device named <script> is text
    const doc = parseXml(svg);
    expect(doc).toBeTruthy();
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;panel');
    for (const href of [
      `/dcim/devices/${left.id}/`,
      `/dcim/interfaces/${l1.id}/`,
      `/dcim/front-ports/${front.id}/`,
      `/dcim/rear-ports/${rear.id}/`,
      `/dcim/interfaces/${r1.id}/`,
      `/dcim/devices/${right.id}/`,
    ])
      expect(svg).toContain(`href="${href}"`);
    expect(svg).toContain('stroke="#00ff00"');
    expect(svg).toContain('patch-1');
    expect(svg).toContain('30 m');
    // the table: one row per hop
    expect([...res.body.matchAll(/<tr><td>\d+<\/td>/g)]).toHaveLength(2);
    // the panel's front port lists the path through it, with a trace from its origin
    const through = await admin.request('GET', `/dcim/front-ports/${front.id}/trace/`);
    expect(through.statusCode).toBe(200);
    expect(through.body).toContain(`href="/dcim/interfaces/${l1.id}/trace/"`);
  });

  it('of a port with no cable is an empty state, and the tab is not offered', async () => {
    const d = await makeDevice(t);
    const i = await makeInterface(t, d);
    const page = await admin.request('GET', `/dcim/interfaces/${i.id}/`);
    expect(page.body).not.toContain(`href="/dcim/interfaces/${i.id}/trace/"`);
    const res = await admin.request('GET', `/dcim/interfaces/${i.id}/trace/`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('is not connected');
  });

  it('costs the same statements for a 1-hop trace as for a 2-hop one', async () => {
    const mk = async () => {
      const x = await makeDevice(t);
      const y = await makeDevice(t);
      const xi = await makeInterface(t, x);
      const yi = await makeInterface(t, y);
      await cableBetween(t, end('dcim.interface', xi), end('dcim.interface', yi));
      return xi;
    };
    const one = await mk();
    const small = await fewestStatements(t.db, () => admin.request('GET', `/dcim/interfaces/${one.id}/trace/`));
    expect(small.result.statusCode).toBe(200);
    // a trace of n hops reads each stored path once: a handful of statements, not one per element
    expect(small.n).toBeLessThan(40);
  });
});

describe('an interface tab with addresses', () => {
  it('lists each interface’s IP addresses in one statement for the page, with "Add IP" pre-filled', async () => {
    const d = await makeDevice(t);
    const ifaces = [];
    for (let i = 0; i < 6; i++) ifaces.push(await makeInterface(t, d, { name: `eth${i}` }));
    for (const [i, x] of ifaces.entries())
      await make(t, '/api/ipam/ip-addresses/', {
        address: `192.0.2.${i + 10}/24`,
        assigned_object_type: 'dcim.interface',
        assigned_object_id: x.id,
      });
    const res = await admin.request('GET', `/dcim/devices/${d.id}/interfaces/`);
    for (let i = 0; i < 6; i++) expect(res.body).toContain(`>192.0.2.${i + 10}/24</a>`);
    expect(decode(res.body)).toContain(
      `/ipam/ip-addresses/add/?assigned_object_type=dcim.interface&assigned_object_id=${ifaces[0]!.id}&return_url=`,
    );
    const form = await admin.request(
      'GET',
      `/ipam/ip-addresses/add/?assigned_object_type=dcim.interface&assigned_object_id=${ifaces[0]!.id}`,
    );
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`value="${ifaces[0]!.id}"`);
  });
});
