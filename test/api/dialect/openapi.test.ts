/**
 * The OpenAPI document of each dialect (core/openapi/): /api/schema/ describes the dialect of the
 * request, a standard validator accepts the 4.4 one, and each names its own fields (the contract
 * suite validates every answer against the document of its dialect: test/contract/dialect44.test.ts).
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

// biome-ignore lint/suspicious/noExplicitAny: documents are walked by name
type Json = Record<string, any>;

let t: TestApp;
let v34: Json;
let v44: Json;
beforeAll(async () => {
  t = await makeTestApp();
  v34 = (await t.get('/api/schema/', null)).json();
  const res = await t.request('GET', '/api/schema/', {
    token: null,
    headers: { accept: 'application/json; version=4.4' },
  });
  expect(res.headers['api-version']).toBe('4.4');
  expect(res.headers.vary).toContain('Accept');
  v44 = res.json();
});
afterAll(async () => t.close());

describe('the OpenAPI document per dialect', () => {
  it('is a valid OpenAPI 3.0 document in 4.4 too, announcing NetBox 4.4', async () => {
    expect(v44.info.version).toBe('4.4.10');
    expect(v34.info.version).toBe('3.4.0');
    await expect(SwaggerParser.validate(structuredClone(v44) as never)).resolves.toBeTruthy();
  });

  it('names each dialect its own fields, and 4.4 display_url and field selection', () => {
    const rack34 = v34.components.schemas.Rack.properties;
    const rack44 = v44.components.schemas.Rack.properties;
    expect(rack34).toHaveProperty('type');
    expect(rack34).not.toHaveProperty('form_factor');
    expect(rack34).not.toHaveProperty('display_url');
    expect(rack44).toHaveProperty('form_factor');
    expect(rack44).not.toHaveProperty('type');
    expect(rack44.display_url).toEqual({ type: 'string', format: 'uri' });
    expect(v44.components.schemas.WritableRackRequest.properties).toHaveProperty('form_factor');
    expect(Object.keys(v44.components.schemas.BriefSite.properties)).toEqual([
      'id',
      'url',
      'display',
      'name',
      'slug',
      'description',
    ]);
    const params = (doc: Json) => (doc.paths['/api/dcim/racks/'].get.parameters as Json[]).map((p) => p.name);
    expect(params(v44)).toEqual(expect.arrayContaining(['fields', 'omit', 'form_factor', 'form_factor__n']));
    expect(params(v34)).not.toContain('fields');
    expect(params(v34)).not.toContain('form_factor');
  });

  it("documents NetBox 4.4-4.6's request mechanics in 4.4 only (crud/routes.ts)", () => {
    const site = v44.paths['/api/dcim/sites/{id}/'];
    const writable = v44.components.schemas.WritableSiteRequest.properties;
    expect(writable.changelog_message).toMatchObject({ type: 'string', maxLength: 200, writeOnly: true });
    expect(writable.add_tags).toMatchObject({ type: 'array', writeOnly: true });
    expect(writable.remove_tags).toMatchObject({ type: 'array', writeOnly: true });
    expect(v44.components.schemas.PatchedWritableSiteRequest.properties).toHaveProperty('add_tags');
    // a model without tags takes a message and no tag edits
    const token = v44.components.schemas.WritableTokenRequest?.properties ?? {};
    expect(token).not.toHaveProperty('add_tags');
    for (const method of ['put', 'patch', 'delete']) {
      expect(site[method].responses).toHaveProperty('412');
      expect(site[method].parameters.map((p: Json) => p.name)).toContain('If-Match');
    }
    expect(site.delete.requestBody.content['application/json'].schema.properties).toHaveProperty('changelog_message');
    expect(site.get.responses['200'].headers).toHaveProperty('ETag');
    const bulkDelete = v44.paths['/api/dcim/sites/'].delete.requestBody.content['application/json'].schema.items;
    expect(bulkDelete.properties).toHaveProperty('changelog_message');
    const list = v44.paths['/api/dcim/sites/'].get.parameters as Json[];
    expect(list.find((p) => p.name === 'start')).toMatchObject({ in: 'query', schema: { type: 'integer' } });
    expect(v44.components.schemas.PaginatedSiteList.properties.count).toMatchObject({ nullable: true });
    // 3.4's document is the spec's: none of them
    expect(v34.components.schemas.WritableSiteRequest.properties).not.toHaveProperty('changelog_message');
    expect(v34.paths['/api/dcim/sites/{id}/'].put.responses).not.toHaveProperty('412');
    expect((v34.paths['/api/dcim/sites/'].get.parameters as Json[]).map((p) => p.name)).not.toContain('start');
    expect(v34.components.schemas.PaginatedSiteList.properties.count).toEqual({ type: 'integer' });
  });

  // made by a process of its own (core/openapi/documents.ts): ~1 s quiet, past 30 s on a loaded host
  it('gives the YAML form per dialect too', { timeout: 120_000 }, async () => {
    const res = await t.request('GET', '/api/schema/?format=yaml', {
      token: null,
      headers: { accept: 'application/json; version=4.4' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('version: 4.4.10');
  });
});
