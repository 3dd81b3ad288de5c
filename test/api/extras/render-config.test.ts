/**
 * Rendering config templates (NetBox 3.7): render-config of devices and virtual machines with the
 * config context, the body and the object; the template found on the object, else its role, else
 * its platform; text/plain on request; the 400s; and config-templates/<id>/render/.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, type Json, make, makeDevice, makeRole, makeSite, makeVm, makePlatform } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const configTemplate = (code: string) =>
  make(t, '/api/extras/config-templates/', { name: uniq('ct'), template_code: code });
const renderConfig = (device: Json, body: unknown = {}, headers: Record<string, string> = {}) =>
  t.request('POST', `/api/dcim/devices/${device.id}/render-config/`, { body, headers });

describe('POST /api/dcim/devices/<id>/render-config/', () => {
  it('renders with the config context, the body over it, and the device itself', async () => {
    const site = await makeSite(t);
    await make(t, '/api/extras/config-contexts/', {
      name: uniq('cc'),
      sites: [site.id],
      data: { ntp: ['192.0.2.1'], banner: 'from context' },
    });
    const ct = await configTemplate(
      'hostname {{ device.name }}\nsite {{ device.site.name }}\nntp {{ ntp[0] }}\nbanner {{ banner }}',
    );
    const d = await makeDevice(t, { site: site.id, config_template: ct.id });
    const res = await renderConfig(d, { banner: 'from body' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().content).toBe(`hostname ${d.name}\nsite ${site.name}\nntp 192.0.2.1\nbanner from body`);
    expect(res.json().configtemplate).toEqual({
      id: ct.id,
      url: expect.stringContaining(`/api/extras/config-templates/${ct.id}/`),
      display: ct.name,
      name: ct.name,
    });
  });

  it("falls back to the role's template, then the platform's", async () => {
    const byRole = await configTemplate('role {{ device.name }}');
    const byPlatform = await configTemplate('platform {{ device.name }}');
    const own = await configTemplate('own {{ device.name }}');
    const role = await make(t, '/api/dcim/device-roles/', {
      name: uniq('r'),
      slug: uniq('r'),
      config_template: byRole.id,
    });
    const pf = await makePlatform(t, { config_template: byPlatform.id });
    const d = await makeDevice(t, { role: role.id, platform: pf.id });
    expect((await renderConfig(d)).json().content).toBe(`role ${d.name}`);
    await t.patch(`/api/dcim/device-roles/${role.id}/`, { config_template: null });
    expect((await renderConfig(d)).json().content).toBe(`platform ${d.name}`);
    await t.patch(`/api/dcim/devices/${d.id}/`, { config_template: own.id });
    expect((await renderConfig(d)).json().content).toBe(`own ${d.name}`);
  });

  it('answers text/plain with the content alone when asked', async () => {
    const ct = await configTemplate('interface {{ ifname }}\r\n');
    const d = await makeDevice(t, { config_template: ct.id });
    const res = await renderConfig(d, { ifname: 'eth0' }, { accept: 'text/plain' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.body).toBe('interface eth0');
    // a client that takes anything gets JSON
    expect((await renderConfig(d, {}, { accept: '*/*' })).json().content).toBe('interface ');
  });

  it('is a 400 when no template applies, or the body is not an object', async () => {
    const d = await makeDevice(t);
    const none = await renderConfig(d);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toEqual({ error: 'No config template found for this device.' });
    const ct = await configTemplate('x');
    const d2 = await makeDevice(t, { config_template: ct.id });
    expect((await renderConfig(d2, [1, 2])).statusCode).toBe(400);
  });

  it('is a 400 naming the error when the template fails, and a 404 for an unknown device', async () => {
    const ct = await configTemplate('{% if %}');
    const d = await makeDevice(t, { config_template: ct.id });
    const res = await renderConfig(d);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^An error occurred while rendering the template: /);
    expect((await renderConfig({ id: 99999999 })).statusCode).toBe(404);
  });

  it('needs the add permission and a write-enabled token (NetBox maps POST to add)', async () => {
    const ct = await configTemplate('ok');
    const d = await makeDevice(t, { config_template: ct.id });
    const user = await make(t, '/api/users/users/', { username: uniq('u'), password: 'a-long-password-1' });
    const perm = await make(t, '/api/users/permissions/', {
      name: uniq('p'),
      object_types: ['dcim.device'],
      actions: ['view'],
      users: [user.id],
    });
    const token = await make(t, '/api/users/tokens/', { user: user.id });
    const path = `/api/dcim/devices/${d.id}/render-config/`;
    expect((await t.request('POST', path, { body: {}, token: token.key })).statusCode).toBe(403);
    await t.patch(`/api/users/permissions/${perm.id}/`, { actions: ['view', 'add'] });
    expect((await t.request('POST', path, { body: {}, token: token.key })).statusCode).toBe(200);
    const readOnly = await make(t, '/api/users/tokens/', { user: user.id, write_enabled: false });
    expect((await t.request('POST', path, { body: {}, token: readOnly.key })).statusCode).toBe(403);
  });

  it('a template in use by a device, role or platform cannot be deleted', async () => {
    const ct = await configTemplate('x');
    await makeDevice(t, { config_template: ct.id });
    expect((await t.del(`/api/extras/config-templates/${ct.id}/`)).statusCode).toBe(409);
  });
});

describe('POST /api/virtualization/virtual-machines/<id>/render-config/', () => {
  it('renders with the VM as `virtualmachine`, falling back to its role and platform', async () => {
    const site = await makeSite(t);
    await make(t, '/api/extras/config-contexts/', { name: uniq('cc'), sites: [site.id], data: { dns: '192.0.2.53' } });
    const ct = await configTemplate('vm {{ virtualmachine.name }} dns {{ dns }}');
    const pf = await makePlatform(t, { config_template: ct.id });
    const role = await makeRole(t);
    const vm = await makeVm(t, { site: site.id, platform: pf.id, role: role.id });
    const res = await t.post(`/api/virtualization/virtual-machines/${vm.id}/render-config/`, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().content).toBe(`vm ${vm.name} dns 192.0.2.53`);
    const bare = await makeVm(t);
    const none = await t.post(`/api/virtualization/virtual-machines/${bare.id}/render-config/`, {});
    expect(none.json()).toEqual({ error: 'No config template found for this virtualmachine.' });
  });
});

describe('POST /api/extras/config-templates/<id>/render/', () => {
  it('renders with the body as the context', async () => {
    const ct = await configTemplate('{% for v in vlans %}vlan {{ v }}\n{% endfor %}');
    const res = await t.post(`/api/extras/config-templates/${ct.id}/render/`, { vlans: [10, 20] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().content).toBe('vlan 10\nvlan 20\n');
    const text = await t.request('POST', `/api/extras/config-templates/${ct.id}/render/`, {
      body: { vlans: [1] },
      headers: { accept: 'text/plain' },
    });
    expect(text.body).toBe('vlan 1\n');
  });
});

describe('block whitespace', () => {
  const code = '<ul>\n  {% for v in vlans %}\n  <li>{{ v }}</li>\n  {% endfor %}\n</ul>\n';
  it("renders with Jinja2's defaults (no block trimmed), as NetBox does", async () => {
    const ct = await configTemplate(code);
    const res = await t.post(`/api/extras/config-templates/${ct.id}/render/`, { vlans: [1, 2] });
    expect(res.json().content).toBe('<ul>\n  \n  <li>1</li>\n  \n  <li>2</li>\n  \n</ul>');
  });

  it('takes trim_blocks and lstrip_blocks from environment_params', async () => {
    const ct = await make(t, '/api/extras/config-templates/', {
      name: uniq('ct'),
      template_code: code,
      environment_params: { trim_blocks: true, lstrip_blocks: true },
    });
    const res = await t.post(`/api/extras/config-templates/${ct.id}/render/`, { vlans: [1, 2] });
    expect(res.json().content).toBe('<ul>\n  <li>1</li>\n  <li>2</li>\n</ul>');
  });
});

describe('the render routes as routes', () => {
  it('answer POST and OPTIONS only, and are in the OpenAPI document', async () => {
    const d = await makeDevice(t);
    const get = await t.get(`/api/dcim/devices/${d.id}/render-config/`);
    expect(get.statusCode).toBe(405);
    const options = await t.request('OPTIONS', `/api/dcim/devices/${d.id}/render-config/`);
    expect(options.json().renders).toEqual(['application/json', 'text/plain']);
    const doc = (
      await t.request('GET', '/api/schema/', { token: null, headers: { accept: 'application/json' } })
    ).json();
    for (const path of [
      '/api/dcim/devices/{id}/render-config/',
      '/api/virtualization/virtual-machines/{id}/render-config/',
      '/api/extras/config-templates/{id}/render/',
    ]) {
      expect(doc.paths[path]?.post?.responses?.['200'], path).toBeTruthy();
    }
  });
});
