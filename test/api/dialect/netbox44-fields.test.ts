/**
 * Fields NetBox 4.0-4.4 added to existing models (FieldDef.dialect '4.4'): written in both
 * dialects, shown only in 4.4's representations, with NetBox 4.4's defaults and rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Json, makeCircuit, makeCustomField, makeSite, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { createOne } from '../../contract/harness.js';
import { CONTRACT } from '../../contract/models.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };
const get44 = (url: string) => t.request('GET', url, { headers: V44 });
const patch44 = (url: string, body: unknown) => t.request('PATCH', url, { body, headers: V44 });

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

/** model, then the values written in 3.4 and those written in 4.4 (with what they need beside) */
const NEW_FIELDS: Array<[string, Json, Json]> = [
  ['dcim.rack', { airflow: 'front-to-rear', starting_unit: 5 }, { outer_height: 20, outer_unit: 'mm' }],
  ['dcim.rackreservation', { status: 'stale' }, { status: 'pending' }],
  ['dcim.location', { facility: 'Hall 3' }, { comments: 'by the door' }],
  ['dcim.region', { comments: 'north' }, { comments: 'south' }],
  ['dcim.sitegroup', { comments: 'a' }, { comments: 'b' }],
  ['tenancy.tenantgroup', { comments: 'a' }, { comments: 'b' }],
  ['tenancy.contactgroup', { comments: 'a' }, { comments: 'b' }],
  ['wireless.wirelesslangroup', { comments: 'a' }, { comments: 'b' }],
  ['dcim.devicerole', { comments: 'a' }, { comments: 'b' }],
  ['dcim.platform', { comments: 'a' }, { comments: 'b' }],
  ['dcim.poweroutlet', { color: 'ff0000' }, { status: 'faulty' }],
  ['dcim.inventoryitem', { status: 'planned' }, { status: 'failed' }],
  ['dcim.moduletype', { airflow: 'passive' }, { airflow: 'side-to-rear' }],
  ['extras.tag', { weight: 10 }, { weight: 20 }],
  ['extras.imageattachment', { description: 'front' }, { description: 'rear' }],
  ['ipam.iprange', { mark_populated: true }, { mark_populated: false }],
  ['vpn.l2vpn', { status: 'planned' }, { status: 'decommissioning' }],
  ['virtualization.virtualmachine', { serial: 'VM-1' }, { serial: 'VM-2' }],
  ['extras.customfield', { unique: true }, { comments: 'why' }],
  ['extras.exporttemplate', { file_name: 'sites' }, { environment_params: { trim_blocks: true } }],
  [
    'extras.configtemplate',
    { mime_type: 'text/x-config', file_name: 'router' },
    { file_extension: 'cfg', as_attachment: false },
  ],
  ['circuits.circuit', { distance: 1.5, distance_unit: 'km' }, { distance: 12, distance_unit: 'mi' }],
  ['users.group', { description: 'operators' }, { description: 'admins' }],
  ['core.datasource', { sync_interval: 60 }, { sync_interval: 1440 }],
];

/** a representation's value as it was written: choices by value, decimals as numbers */
const written = (v: unknown) =>
  v !== null && typeof v === 'object' && 'value' in v
    ? (v as Json).value
    : typeof v === 'string' && /^\d+\.\d+$/.test(v)
      ? Number(v)
      : v;

describe.each(NEW_FIELDS)('%s', (model, in34, in44) => {
  const row = CONTRACT.find((c) => c.model === model)!;

  it('is written in 3.4 and 4.4, and shown in 4.4 only', async () => {
    const obj = await createOne(t, row);
    const url = `${row.path}${obj.id}/`;
    const old = await t.patch(url, in34);
    expect(old.statusCode, old.body).toBe(200);
    const now = await patch44(url, in44);
    expect(now.statusCode, now.body).toBe(200);
    const shown = (await get44(url)).json();
    const hidden = (await t.get(url)).json();
    for (const [k, v] of Object.entries({ ...in34, ...in44 })) {
      if (k === 'outer_unit') continue;
      expect(written(shown[k]), k).toEqual(v);
      expect(hidden, `${k} in 3.4`).not.toHaveProperty(k);
    }
    expect(old.json()).not.toHaveProperty(Object.keys(in34)[0]!);
  });
});

describe('defaults and rules', () => {
  it('shows NetBox 4.4 defaults on objects written by 3.4 clients', async () => {
    const site = await makeSite(t);
    const rack = (await t.post('/api/dcim/racks/', { name: uniq('r'), site: site.id })).json();
    expect((await get44(`/api/dcim/racks/${rack.id}/`)).json()).toMatchObject({
      airflow: null,
      starting_unit: 1,
      outer_height: null,
    });
    const circuit = await makeCircuit(t);
    expect((await get44(`/api/circuits/circuits/${circuit.id}/`)).json()).toMatchObject({
      distance: null,
      distance_unit: null,
    });
  });

  it('refuses what NetBox 4.4 refuses', async () => {
    const site = await makeSite(t);
    const rack = await t.post('/api/dcim/racks/', { name: uniq('r'), site: site.id, outer_height: 10 });
    expect(Object.keys(rack.json())).toEqual(['outer_unit']);
    const circuit = await makeCircuit(t);
    const far = await t.patch(`/api/circuits/circuits/${circuit.id}/`, { distance: 3 });
    expect(Object.keys(far.json())).toEqual(['distance_unit']);
    const flag = await t.post('/api/extras/custom-fields/', {
      name: uniq('cf').replaceAll('-', '_'),
      type: 'boolean',
      content_types: ['dcim.site'],
      unique: true,
    });
    expect(Object.keys(flag.json())).toEqual(['unique']);
    const text = await makeCustomField(t);
    const filter = await t.patch(`/api/extras/custom-fields/${text.id}/`, { related_object_filter: { site: 'x' } });
    expect(Object.keys(filter.json())).toEqual(['related_object_filter']);
    const object = await makeCustomField(t, { type: 'object', object_type: 'dcim.site' });
    const list = await t.patch(`/api/extras/custom-fields/${object.id}/`, { related_object_filter: ['x'] });
    expect(Object.keys(list.json())).toEqual(['related_object_filter']);
    const ok = await patch44(`/api/extras/custom-fields/${object.id}/`, {
      related_object_filter: { status: 'active' },
    });
    expect(ok.json().related_object_filter).toEqual({ status: 'active' });
    const source = await createOne(t, CONTRACT.find((c) => c.model === 'core.datasource')!);
    const odd = await t.patch(`/api/core/data-sources/${source.id}/`, { sync_interval: 7 });
    expect(Object.keys(odd.json())).toEqual(['sync_interval']);
  });

  it('names an export after its template file name (NetBox 4.3)', async () => {
    const site = await makeSite(t);
    const name = uniq('et');
    const made = await t.post('/api/extras/export-templates/', {
      name,
      content_types: ['dcim.site'],
      template_code: '{% for s in queryset %}{{ s.name }}\n{% endfor %}',
      file_name: 'all-sites',
      file_extension: 'txt',
    });
    expect(made.statusCode, made.body).toBe(201);
    const res = await t.get(`/api/dcim/sites/?export=${name}&id=${site.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="all-sites.txt"');
  });
});
