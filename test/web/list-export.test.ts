/**
 * A list page's exports (web/export/): `?export=table` (the user's columns, the list's filters and
 * sort, every page, the cells' text), `?export` (all data in the import's columns), `?export=<name>`
 * (an export template), `pk` (only the chosen rows), within the user's view permission.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { parseCsv } from '../helpers/csv.js';
import { signIn, type WebSession } from '../helpers/web-session.js';
import {
  grant,
  type Json,
  make,
  makeDevice,
  makeInterface,
  makeRegion,
  makeSite,
  makeTag,
  makeTenant,
  makeVlan,
  makeVrf,
  makeUser,
  uniq,
} from '../factories/index.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

/** a region with three sites in it (and one outside it), named so that the sort is clear */
async function threeSites() {
  const region = await makeRegion(t);
  const tenant = await makeTenant(t);
  const tags = [await makeTag(t), await makeTag(t)];
  const base = uniq('s');
  const a = await makeSite(t, { name: `${base}-a`, region: region.id, status: 'planned', facility: 'x, "y"' });
  const b = await makeSite(t, {
    name: `${base}-b`,
    region: region.id,
    tenant: tenant.id,
    tags: tags.map((g) => ({ slug: g.slug })),
    description: '=HYPERLINK("http://evil")',
  });
  const c = await makeSite(t, { name: `${base}-c`, region: region.id, status: 'retired' });
  await makeSite(t, { name: `${base}-d` });
  return { region, tenant, tags, sites: [a, b, c] };
}

const get = (b: WebSession, url: string) => b.request('GET', url);

describe('?export=table: the current view', () => {
  it('has the default columns, the filter, the sort, every page and the cells as the table shows them', async () => {
    const { region, tenant, sites } = await threeSites();
    const [a, b, c] = sites as [Json, Json, Json];
    // per_page=1 and page=2 must not cut the export to a page
    const res = await get(admin, `/dcim/sites/?region_id=${region.id}&sort=-name&per_page=25&page=2&export=table`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="netbox_sites.csv"');
    expect(parseCsv(res.body)).toEqual([
      ['Name', 'Status', 'Facility', 'Region', 'Group', 'Tenant', 'Description'],
      [c.name, 'Retired', '', region.name, '', '', ''],
      // a cell a spreadsheet would run as a formula starts with an apostrophe
      [b.name, 'Active', '', region.name, '', tenant.name, `'=HYPERLINK("http://evil")`],
      [a.name, 'Planned', 'x, "y"', region.name, '', '', ''],
    ]);
  });

  it("uses the user's chosen columns, in their order, with tags comma-joined", async () => {
    const { region, tags, sites } = await threeSites();
    const user = await makeUser(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [user.id] });
    const browser = await signIn(t, user.username, user.password);
    const form = new URLSearchParams([
      ['csrfmiddlewaretoken', browser.csrf()],
      ['columns', 'tags'],
      ['columns', 'name'],
      ['columns', 'id'],
      ['return_url', '/dcim/sites/'],
    ]);
    const saved = await t.app.inject({
      method: 'POST',
      url: '/dcim/sites/table-config/',
      headers: { cookie: browser.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
    expect(saved.statusCode, saved.body).toBe(303);
    const res = await get(browser, `/dcim/sites/?region_id=${region.id}&sort=name&export=table`);
    expect(res.statusCode, res.body).toBe(200);
    const tagNames = tags.map((g) => g.name).sort();
    expect(parseCsv(res.body)).toEqual([
      ['Tags', 'Name', 'ID'],
      ['', sites[0]!.name, String(sites[0]!.id)],
      [tagNames.join(','), sites[1]!.name, String(sites[1]!.id)],
      ['', sites[2]!.name, String(sites[2]!.id)],
    ]);
  });

  it('exports only the chosen rows (pk), within the filters', async () => {
    const { region, sites } = await threeSites();
    const other = await makeSite(t);
    const [a, , c] = sites as [Json, Json, Json];
    const res = await get(
      admin,
      `/dcim/sites/?region_id=${region.id}&sort=name&export=table&pk=${c.id}&pk=${a.id}&pk=${other.id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    // the other site is chosen but outside the filter
    expect(parseCsv(res.body).map((r) => r[0])).toEqual(['Name', a.name, c.name]);
    const all = await get(admin, `/dcim/sites/?export&pk=${other.id}`);
    expect(parseCsv(all.body).map((r) => r[0])).toEqual(['id', String(other.id)]);
  });

  it("exports the rows the selection form posts (pk, export), within the URL's filters", async () => {
    const { region, sites } = await threeSites();
    const [a, b, c] = sites as [Json, Json, Json];
    const post = (pairs: Array<[string, string]>) =>
      t.app.inject({
        method: 'POST',
        url: `/dcim/sites/?region_id=${region.id}&sort=-name`,
        headers: { cookie: admin.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams([['csrfmiddlewaretoken', admin.csrf()], ...pairs]).toString(),
      });
    const res = await post([
      ['export', 'table'],
      ['pk', String(a.id)],
      ['pk', String(c.id)],
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(parseCsv(res.body).map((r) => r[0])).toEqual(['Name', c.name, a.name]);
    expect(parseCsv(res.body).map((r) => r[0])).not.toContain(b.name);
    const none = await post([['pk', String(a.id)]]);
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Choose what to export');
    const forged = await t.app.inject({
      method: 'POST',
      url: '/dcim/sites/',
      headers: { cookie: admin.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'export=table',
    });
    expect(forged.statusCode).toBe(403);
  });

  it('a bad filter or a bad pk is a 400 page, not a file; junk elsewhere is passed by', async () => {
    for (const query of ['region_id=nope&export=table', 'export&pk=abc', 'export=table&pk=1e99&pk=-1']) {
      const res = await get(admin, `/dcim/sites/?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type']).toContain('text/html');
    }
    for (const query of ['export=table&sort=%00junk', 'export&per_page=x&page=-3', 'export=table&export=table']) {
      const res = await get(admin, `/dcim/sites/?${query}`);
      expect(res.statusCode, query).toBe(200);
    }
  });
});

describe('?export: all data', () => {
  it('has every importable field under its API name, related objects by name, choices by value', async () => {
    const { region, tenant, tags, sites } = await threeSites();
    const res = await get(admin, `/dcim/sites/?region_id=${region.id}&sort=name&export`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="netbox_sites.csv"');
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(
      expect.arrayContaining(['id', 'name', 'slug', 'status', 'region', 'group', 'tenant', 'facility', 'tags']),
    );
    expect(header![0]).toBe('id');
    for (const computed of ['display', 'url', 'created', 'last_updated', 'device_count'])
      expect(header).not.toContain(computed);
    const b = Object.fromEntries(header!.map((h, i) => [h, rows[1]![i]]));
    expect(b).toMatchObject({
      id: String(sites[1]!.id),
      name: sites[1]!.name,
      slug: sites[1]!.slug,
      status: 'active',
      region: region.name,
      tenant: tenant.name,
      tags: tags
        .map((g) => g.slug)
        .sort()
        .join(','),
      // the value as it is: the import would keep an apostrophe
      description: '=HYPERLINK("http://evil")',
    });
    expect(rows).toHaveLength(3);
  });

  it('names a device type by its model and a role by its name, as the device import takes them', async () => {
    const device = await makeDevice(t, { name: uniq('dev') });
    const res = await get(admin, `/dcim/devices/?id=${device.id}&export`);
    expect(res.statusCode, res.body).toBe(200);
    const [header, row] = parseCsv(res.body);
    const d = Object.fromEntries(header!.map((h, i) => [h, row![i]]));
    expect(d).toMatchObject({
      id: String(device.id),
      name: device.name,
      device_type: device.device_type.model,
      site: device.site.name,
      status: 'active',
    });
    expect(d.device_role ?? d.role).toBe(device.device_role?.name ?? device.role?.name);
  });
});

describe('?export: related objects as the import finds them', () => {
  it("names an interface's VLANs by VID and its VRF by RD, its device by name", async () => {
    const device = await makeDevice(t, { name: uniq('dev') });
    const vlans = [await makeVlan(t, { vid: 101 }), await makeVlan(t, { vid: 102 }), await makeVlan(t, { vid: 103 })];
    const vrf = await makeVrf(t, { rd: `65000:${Date.now() % 100000}` });
    const iface = await makeInterface(t, device, {
      mode: 'tagged',
      untagged_vlan: vlans[0]!.id,
      tagged_vlans: [vlans[1]!.id, vlans[2]!.id],
      vrf: vrf.id,
    });
    const res = await get(admin, `/dcim/interfaces/?id=${iface.id}&export`);
    expect(res.statusCode, res.body).toBe(200);
    const [header, row] = parseCsv(res.body);
    const i = Object.fromEntries(header!.map((h, n) => [h, row![n]]));
    expect(i).toMatchObject({
      device: device.name,
      mode: 'tagged',
      untagged_vlan: '101',
      tagged_vlans: '102,103',
      vrf: vrf.rd,
    });
  });
});

describe('?export=<name>: an export template', () => {
  it('renders the model template over the filtered list; an unknown name is a 404 page', async () => {
    const { region, sites } = await threeSites();
    const et = await make(t, '/api/extras/export-templates/', {
      name: uniq('exp'),
      content_types: ['dcim.site'],
      template_code: '{% for s in queryset %}{{ s.name }}\n{% endfor %}',
      file_extension: 'txt',
    });
    const page = await get(admin, `/dcim/sites/?region_id=${region.id}`);
    expect(page.body).toContain(`export=${et.name}`);
    expect(page.body).toMatch(/<summary[^>]*>Export<\/summary>/);
    const res = await get(admin, `/dcim/sites/?region_id=${region.id}&sort=-name&export=${et.name}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="netbox_sites.txt"');
    expect(res.body.trim().split('\n')).toEqual([sites[2]!.name, sites[1]!.name, sites[0]!.name]);
    const none = await get(admin, `/dcim/sites/?export=${uniq('missing')}`);
    expect(none.statusCode).toBe(404);
    expect(none.headers['content-type']).toContain('text/html');
  });
});

describe('permissions', () => {
  it('a user who may view no site gets a 403; one limited to a site gets that site only', async () => {
    const { region, sites } = await threeSites();
    const nobody = await makeUser(t);
    const nb = await signIn(t, nobody.username, nobody.password);
    for (const kind of ['export=table', 'export']) {
      const res = await get(nb, `/dcim/sites/?region_id=${region.id}&${kind}`);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain(sites[0]!.name);
    }
    const some = await makeUser(t);
    await grant(t, {
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [some.id],
      constraints: { id: sites[1]!.id },
    });
    const sb = await signIn(t, some.username, some.password);
    const res = await get(sb, `/dcim/sites/?region_id=${region.id}&export`);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      parseCsv(res.body)
        .slice(1)
        .map((r) => r[0]),
    ).toEqual([String(sites[1]!.id)]);
  });
});
