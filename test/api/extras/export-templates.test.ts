/**
 * `?export=<name>` on a list (NetBox 3.7 ExportTemplatesMixin): the template renders over the
 * filtered list, every page of it, with each object's full representation; its MIME type and
 * attachment name; an unknown name is a 404; a template error a 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, type Json, make, makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const exportTemplate = (extra: Json) =>
  make(t, '/api/extras/export-templates/', {
    name: uniq('exp'),
    content_types: ['dcim.site'],
    template_code: '',
    ...extra,
  });

describe('GET <list>?export=<name>', () => {
  it('renders over the filtered list, all pages, in the list order, with nested objects readable', async () => {
    const region = await make(t, '/api/dcim/regions/', { name: uniq('region'), slug: uniq('region') });
    const tag = uniq('tag');
    await make(t, '/api/extras/tags/', { name: tag, slug: tag });
    const names = [];
    for (let i = 0; i < 7; i++) names.push((await makeSite(t, { region: region.id, tags: [{ slug: tag }] })).name);
    await makeSite(t, { region: region.id }); // filtered out: no tag
    const et = await exportTemplate({
      template_code: '{% for s in queryset %}{{ s.name }};{{ s.region.name }};{{ s.tags[0].slug }}\n{% endfor %}',
      file_extension: 'csv',
      mime_type: 'text/csv',
    });
    // limit=2 must not cut the export to a page
    const res = await t.get(`/api/dcim/sites/?export=${et.name}&tag=${tag}&limit=2&ordering=-name`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="netbox_sites.csv"');
    // the order of the list itself (names sort naturally: 10 after 9)
    const listed = (await t.get(`/api/dcim/sites/?tag=${tag}&ordering=-name&limit=0`))
      .json()
      .results.map((s: Json) => s.name);
    expect([...listed].sort()).toEqual([...names].sort());
    expect(res.body.trim().split('\n')).toEqual(listed.map((n: string) => `${n};${region.name};${tag}`));
  });

  it('defaults to text/plain; charset=utf-8, inline when as_attachment is false', async () => {
    const site = await makeSite(t);
    const et = await exportTemplate({
      template_code: '{{ queryset | length }} {% for s in queryset %}{{ s.id }}{% endfor %}',
      as_attachment: false,
    });
    const res = await t.get(`/api/dcim/sites/?export=${et.name}&id=${site.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.body).toBe(`1 ${site.id}`);
  });

  it('names the attachment from the verbose plural without an extension when none is set', async () => {
    const et = await make(t, '/api/extras/export-templates/', {
      name: uniq('exp'),
      content_types: ['dcim.devicerole'],
      template_code: 'x',
    });
    const res = await t.get(`/api/dcim/device-roles/?export=${et.name}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="netbox_device_roles"');
  });

  it('is a 404 for an unknown name, or a template of another model', async () => {
    const et = await exportTemplate({ template_code: 'x' });
    const unknown = await t.get('/api/dcim/sites/?export=no-such-template');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().detail).toContain('no-such-template');
    const other = await t.get(`/api/dcim/racks/?export=${et.name}`);
    expect(other.statusCode).toBe(404);
  });

  it('applies a saved filter named with ?filter=, as the list does', async () => {
    const tag = await make(t, '/api/extras/tags/', { name: uniq('tag'), slug: uniq('tag') });
    const sites = [await makeSite(t, { tags: [tag.id], status: 'planned' }), await makeSite(t, { tags: [tag.id] })];
    const saved = await make(t, '/api/extras/saved-filters/', {
      name: uniq('sf'),
      slug: uniq('sf'),
      content_types: ['dcim.site'],
      parameters: { status: 'planned' },
    });
    const et = await exportTemplate({ template_code: '{% for s in queryset %}{{ s.id }} {% endfor %}' });
    const res = await t.get(`/api/dcim/sites/?export=${et.name}&tag=${tag.slug}&filter=${saved.slug}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body.trim()).toBe(String(sites[0]!.id));
  });

  it('applies the filters strictly: a bad filter is still a 400 keyed by the parameter', async () => {
    const et = await exportTemplate({ template_code: 'x' });
    const res = await t.get(`/api/dcim/sites/?export=${et.name}&region_id=not-a-number`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json())).toEqual(['region_id']);
  });

  it('answers a template error with a 400 naming it', async () => {
    const et = await exportTemplate({ template_code: '{% for s in queryset %}{{ s.name ' });
    const res = await t.get(`/api/dcim/sites/?export=${et.name}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/^An error occurred while rendering the export template: /);
  });

  it('exports only what the user may view (object permission constraints)', async () => {
    const mine = await makeSite(t);
    await makeSite(t);
    const et = await exportTemplate({ template_code: '{% for s in queryset %}{{ s.id }},{% endfor %}' });
    const user = await make(t, '/api/users/users/', { username: uniq('u'), password: 'a-long-password-1' });
    await make(t, '/api/users/permissions/', {
      name: uniq('p'),
      object_types: ['dcim.site'],
      actions: ['view'],
      users: [user.id],
      constraints: { id: mine.id },
    });
    const token = await make(t, '/api/users/tokens/', { user: user.id });
    const res = await t.get(`/api/dcim/sites/?export=${et.name}`, token.key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe(`${mine.id},`);
  });
});

describe('export template fields', () => {
  it('refuses the reserved name "table" and unknown content types', async () => {
    const res = await t.post('/api/extras/export-templates/', {
      name: 'Table',
      content_types: ['dcim.nosuch'],
      template_code: 'x',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().name[0]).toContain('reserved name');
    expect(res.json().content_types).toEqual(['Invalid content type: dcim.nosuch']);
  });

  it('filters by content type and name', async () => {
    const et = await make(t, '/api/extras/export-templates/', {
      name: uniq('exp'),
      content_types: ['ipam.prefix'],
      template_code: 'x',
    });
    const res = await t.get(`/api/extras/export-templates/?content_types=ipam.prefix&name=${et.name}`);
    expect(res.json().results.map((r: Json) => r.id)).toEqual([et.id]);
  });
});
