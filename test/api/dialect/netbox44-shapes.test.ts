/**
 * Fields NetBox 4 renamed or removed (ModelDef.netbox44.renamed and hidden): a 4.4 read shows 4.4's
 * name and a 3.4 read stays as it was; writes take either name in either dialect; the filters 4.4
 * clients send (`object_type`, `object_type_id`) work beside 3.4's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Json,
  makeContact,
  makeContactAssignment,
  makeCustomField,
  makeDevice,
  makeSite,
  uniq,
} from '../../factories/index.js';
import { dataUri, gif } from '../../helpers/images.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { CONTRACT } from '../../contract/models.js';
import { dataFor } from '../../contract/harness.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };
const get44 = (url: string) => t.request('GET', url, { headers: V44 });
const post44 = (url: string, body: unknown) => t.request('POST', url, { body, headers: V44 });
const patch44 = (url: string, body: unknown) => t.request('PATCH', url, { body, headers: V44 });

/** the ids a list answers in a dialect */
async function idsIn(url: string, v44: boolean): Promise<number[]> {
  const res = v44 ? await get44(url) : await t.get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return (res.json().results as Json[]).map((r) => r.id);
}

/** the id of a model's row in extras_contenttype (4.4's object type id) */
async function typeId(name: string): Promise<number> {
  const [app, model] = name.split('.');
  const res = await t.get(`/api/extras/content-types/?app_label=${app}&model=${model}`);
  return res.json().results[0].id;
}

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('device: device_role', () => {
  it('is not shown in 4.4, role is; 3.4 shows both', async () => {
    const device = await makeDevice(t);
    const old = (await t.get(`/api/dcim/devices/${device.id}/`)).json();
    expect(old.device_role.id).toBe(old.role.id);
    const now = (await get44(`/api/dcim/devices/${device.id}/`)).json();
    expect(now).not.toHaveProperty('device_role');
    expect(now.role.id).toBe(old.role.id);
  });

  it('is still written in 4.4 (a 3.x script announcing nothing)', async () => {
    const device = await makeDevice(t);
    const role = (await t.post('/api/dcim/device-roles/', { name: uniq('r'), slug: uniq('r') })).json();
    const res = await patch44(`/api/dcim/devices/${device.id}/`, { device_role: role.id });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().role.id).toBe(role.id);
    expect(res.json()).not.toHaveProperty('device_role');
  });
});

describe('custom field: object_types and related_object_type', () => {
  it('reads under 4.4 names in 4.4, 3.4 names in 3.4', async () => {
    const cf = await makeCustomField(t, { type: 'object', object_type: 'dcim.device' });
    const now = (await get44(`/api/extras/custom-fields/${cf.id}/`)).json();
    expect(now).toMatchObject({ object_types: ['dcim.site'], related_object_type: 'dcim.device' });
    expect(now).not.toHaveProperty('content_types');
    expect(now).not.toHaveProperty('object_type');
    const old = (await t.get(`/api/extras/custom-fields/${cf.id}/`)).json();
    expect(old).toMatchObject({ content_types: ['dcim.site'], object_type: 'dcim.device' });
    expect(old).not.toHaveProperty('object_types');
    expect(old).not.toHaveProperty('related_object_type');
  });

  it('is written with either name in either dialect', async () => {
    const name = uniq('cf').replaceAll('-', '_');
    const body = { name, type: 'object', object_types: ['dcim.rack'], related_object_type: 'dcim.site' };
    const made = await t.post('/api/extras/custom-fields/', body);
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ content_types: ['dcim.rack'], object_type: 'dcim.site' });
    const old = await post44('/api/extras/custom-fields/', {
      name: `${name}_2`,
      type: 'text',
      content_types: ['dcim.rack'],
    });
    expect(old.statusCode, old.body).toBe(201);
    expect(old.json().object_types).toEqual(['dcim.rack']);
  });

  it('filters by 4.4 names in 4.4; object_type keeps its 3.4 meaning in 3.4', async () => {
    const onFeeds = await makeCustomField(t, { content_types: ['dcim.powerfeed'] });
    const toFeed = await makeCustomField(t, { type: 'object', object_type: 'dcim.powerfeed' });
    const path = '/api/extras/custom-fields/?limit=0';
    expect(await idsIn(`${path}&object_type=dcim.powerfeed`, true)).toEqual([onFeeds.id]);
    const feedType = await typeId('dcim.powerfeed');
    expect(await idsIn(`${path}&object_type_id=${feedType}`, true)).toEqual([onFeeds.id]);
    expect(await idsIn(`${path}&related_object_type=dcim.powerfeed`, true)).toEqual([toFeed.id]);
    expect(await idsIn(`${path}&related_object_type_id=${feedType}`, true)).toEqual([toFeed.id]);
    expect(await idsIn(`${path}&object_type=dcim.powerfeed`, false)).toEqual([toFeed.id]);
    expect(await idsIn(`${path}&content_types=dcim.powerfeed`, true)).toEqual([onFeeds.id]);
    expect(await idsIn(`${path}&object_type_id=${feedType}`, false)).toEqual([onFeeds.id]);
  });
});

/** models whose list of content types NetBox 4.0 calls object_types */
const OBJECT_TYPES = [
  ['extras.customlink', '/api/extras/custom-links/'],
  ['extras.exporttemplate', '/api/extras/export-templates/'],
  ['extras.savedfilter', '/api/extras/saved-filters/'],
  ['extras.eventrule', '/api/extras/event-rules/'],
] as const;

describe.each(OBJECT_TYPES)('%s: object_types', (model, path) => {
  const row = CONTRACT.find((c) => c.model === model)!;
  const data = async (types: string[], as: 'content_types' | 'object_types') => {
    const { content_types: _, ...rest } = (await dataFor(t, row))[0]!;
    return { ...rest, [as]: types };
  };

  it('is read as object_types in 4.4 and content_types in 3.4, written as either', async () => {
    const made = await post44(path, await data(['dcim.powerfeed'], 'object_types'));
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().object_types).toEqual(['dcim.powerfeed']);
    expect(made.json()).not.toHaveProperty('content_types');
    const old = (await t.get(`${path}${made.json().id}/`)).json();
    expect(old.content_types).toEqual(['dcim.powerfeed']);
    // NetBox 3.4 has no object_types; event rules showed both names in 3.4 already
    if (model === 'extras.eventrule') expect(old.object_types).toEqual(['dcim.powerfeed']);
    else expect(old).not.toHaveProperty('object_types');
    const other = await t.post(path, await data(['dcim.powerpanel'], 'object_types'));
    expect(other.statusCode, other.body).toBe(201);
    expect(other.json().content_types).toEqual(['dcim.powerpanel']);
  });

  it('filters by object_type and object_type_id in both dialects', async () => {
    const made = await post44(path, await data(['dcim.virtualchassis'], 'content_types'));
    expect(made.statusCode, made.body).toBe(201);
    const id = await typeId('dcim.virtualchassis');
    for (const v44 of [true, false]) {
      expect(await idsIn(`${path}?object_type=dcim.virtualchassis`, v44)).toEqual([made.json().id]);
      expect(await idsIn(`${path}?object_type_id=${id}`, v44)).toEqual([made.json().id]);
      expect(await idsIn(`${path}?content_types=dcim.virtualchassis`, v44)).toEqual([made.json().id]);
    }
  });
});

describe('image attachment and contact assignment: object_type', () => {
  it('shows an attachment object_type in 4.4, takes and filters by either name', async () => {
    const site = await makeSite(t);
    const path = '/api/extras/image-attachments/';
    const image = { object_id: site.id, name: 'front', image_data: dataUri(gif(2, 2), 'image/gif') };
    const made = await post44(path, { ...image, object_type: 'dcim.site' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json()).toMatchObject({ object_type: 'dcim.site', parent: { id: site.id } });
    expect(made.json()).not.toHaveProperty('content_type');
    const old = await t.post(path, { ...image, name: 'back', content_type: 'dcim.site' });
    expect((await t.get(`${path}${made.json().id}/`)).json().content_type).toBe('dcim.site');
    const siteType = await typeId('dcim.site');
    for (const v44 of [true, false]) {
      const ids = [made.json().id, old.json().id].sort((a, b) => a - b);
      const got = await idsIn(`${path}?object_type=dcim.site&object_id=${site.id}`, v44);
      expect(got.sort((a, b) => a - b)).toEqual(ids);
      const byId = await idsIn(`${path}?object_type_id=${siteType}&object_id=${site.id}`, v44);
      expect(byId.sort((a, b) => a - b)).toEqual(ids);
    }
  });

  it('shows an assignment object_type in 4.4, takes and filters by either name', async () => {
    const site = await makeSite(t);
    const path = '/api/tenancy/contact-assignments/';
    const made = await makeContactAssignment(t, 'dcim.site', site);
    const now = (await get44(`${path}${made.id}/`)).json();
    expect(now).toMatchObject({ object_type: 'dcim.site', object_id: site.id });
    expect(now).not.toHaveProperty('content_type');
    expect(made.content_type).toBe('dcim.site');
    const contact = await makeContact(t);
    const body = { object_type: 'dcim.site', object_id: site.id, contact: contact.id, role: made.role.id };
    const again = await post44(path, { ...body, priority: 'primary' });
    expect(again.statusCode, again.body).toBe(201);
    const siteType = await typeId('dcim.site');
    for (const v44 of [true, false]) {
      const got = await idsIn(`${path}?object_type_id=${siteType}&object_id=${site.id}`, v44);
      expect(got.sort((a, b) => a - b)).toEqual([made.id, again.json().id]);
      expect(await idsIn(`${path}?object_type=dcim.site&object_id=${site.id}&priority=primary`, v44)).toEqual([
        again.json().id,
      ]);
    }
  });
});

describe('OPTIONS', () => {
  it("describes the fields of the request's dialect, by its names", async () => {
    const old = (await t.request('OPTIONS', '/api/extras/custom-fields/')).json().actions.POST;
    expect(old).toHaveProperty('content_types');
    expect(old).not.toHaveProperty('object_types');
    expect(old).not.toHaveProperty('unique');
    const now = (await t.request('OPTIONS', '/api/extras/custom-fields/', { headers: V44 })).json().actions.POST;
    expect(now).toHaveProperty('object_types');
    expect(now).toHaveProperty('related_object_type');
    expect(now).toHaveProperty('unique');
    expect(now).not.toHaveProperty('content_types');
  });
});
