/**
 * Contact assignments' tags and custom fields: NetBox 4 added both, NetBox 3.4 has neither. The
 * 4.4 dialect shows them (REST, OPTIONS, its OpenAPI document, GraphQL) and documents `tag=`; 3.4
 * shows neither. Writes and filters take them in both, as every field is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  inDialect44,
  type Json,
  makeContactAssignment,
  makeContactRole,
  makeCustomField,
  makeSite,
  makeTag,
  uniq,
} from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { createResponseValidator, type ResponseValidator } from '../../helpers/openapi-validator.js';

const PATH = '/api/tenancy/contact-assignments/';
let t: TestApp;
let t44: TestApp;
let tag: Json;
let cf: string;
let site: Json;
let docs: Record<'3.4' | '4.4', Json>;
let validators: Record<'3.4' | '4.4', ResponseValidator>;

beforeAll(async () => {
  t = await makeTestApp();
  t44 = inDialect44(t);
  tag = await makeTag(t);
  cf = uniq('cf').replace(/-/g, '_');
  await makeCustomField(t, { name: cf, type: 'text', content_types: ['tenancy.contactassignment'] });
  site = await makeSite(t);
  docs = {
    '3.4': (await t.get('/api/schema/?format=json')).json(),
    '4.4': (await t44.get('/api/schema/?format=json')).json(),
  };
  validators = {
    '3.4': createResponseValidator(docs['3.4'] as never),
    '4.4': createResponseValidator(docs['4.4'] as never),
  };
}, 60_000);
afterAll(async () => t?.close());

/** the body of an answer that must have the status and match its dialect's document */
function valid(
  dialect: '3.4' | '4.4',
  method: string,
  url: string,
  res: { statusCode: number; body: string },
  status = 200,
) {
  expect(res.statusCode, res.body).toBe(status);
  expect(validators[dialect].check(method, url, res.statusCode, res.body)).toEqual([]);
  return JSON.parse(res.body) as Json;
}

describe('contact assignment tags and custom fields', () => {
  it('are written and shown in 4.4, as NetBox 4.4 orders them', async () => {
    const body = { tags: [tag.id], custom_fields: { [cf]: 'on call' } };
    const made = await makeContactAssignment(t, 'dcim.site', site, { priority: 'primary' });
    const res = await t44.patch(`${PATH}${made.id}/`, body);
    const shown = valid('4.4', 'PATCH', `${PATH}${made.id}/`, res);
    expect(shown.tags.map((x: Json) => x.slug)).toEqual([tag.slug]);
    expect(shown.custom_fields).toEqual({ [cf]: 'on call' });
    expect(Object.keys(shown).slice(-4)).toEqual(['tags', 'custom_fields', 'created', 'last_updated']);
    const created = valid(
      '4.4',
      'POST',
      PATH,
      await t44.post(PATH, {
        ...body,
        object_type: 'dcim.site',
        object_id: site.id,
        contact: made.contact.id,
        role: (await makeContactRole(t)).id,
        priority: 'secondary',
      }),
      201,
    );
    expect(created.custom_fields).toEqual({ [cf]: 'on call' });
  });

  it('are not shown in 3.4, though 3.4 writes them too', async () => {
    const made = await makeContactAssignment(t, 'dcim.site', site, { tags: [tag.id], custom_fields: { [cf]: 'x' } });
    const shown = valid('3.4', 'GET', `${PATH}${made.id}/`, await t.get(`${PATH}${made.id}/`));
    expect(shown).not.toHaveProperty('tags');
    expect(shown).not.toHaveProperty('custom_fields');
    const in44 = valid('4.4', 'GET', `${PATH}${made.id}/`, await t44.get(`${PATH}${made.id}/`));
    expect(in44.tags.map((x: Json) => x.id)).toEqual([tag.id]);
    expect(in44.custom_fields).toEqual({ [cf]: 'x' });
  });

  it('filter by tag, documented in 4.4 only', async () => {
    const other = await makeContactAssignment(t, 'dcim.site', site);
    const tagged = await makeContactAssignment(t, 'dcim.site', site, { tags: [tag.id] });
    const ids = (res: { json(): Json }) => (res.json().results as Json[]).map((r) => r.id);
    const listed = await t44.get(`${PATH}?tag=${tag.slug}&id=${other.id}&id=${tagged.id}`);
    expect(ids(listed)).toEqual([tagged.id]);
    const params = (d: Json) => (d.paths[PATH].get.parameters as Json[]).map((p) => p.name);
    expect(params(docs['4.4'])).toContain('tag');
    expect(params(docs['3.4'])).not.toContain('tag');
  });

  it('are in the 4.4 document and OPTIONS, not in 3.4', async () => {
    const props = (d: Json, name: string) => Object.keys(d.components.schemas[name].properties);
    expect(props(docs['4.4'], 'ContactAssignment')).toEqual(expect.arrayContaining(['tags', 'custom_fields']));
    expect(props(docs['4.4'], 'WritableContactAssignmentRequest')).toEqual(
      expect.arrayContaining(['tags', 'custom_fields']),
    );
    expect(props(docs['3.4'], 'ContactAssignment')).not.toContain('tags');
    expect(props(docs['3.4'], 'ContactAssignment')).not.toContain('custom_fields');
    const post = async (app: TestApp) => Object.keys((await app.request('OPTIONS', PATH)).json().actions.POST);
    expect(await post(t44)).toEqual(expect.arrayContaining(['tags', 'custom_fields']));
    expect(await post(t)).not.toContain('tags');
  });

  it('are in the 4.4 GraphQL type only', async () => {
    const made = await makeContactAssignment(t, 'dcim.site', site, { tags: [tag.id], custom_fields: { [cf]: 'g' } });
    const query = `{ contact_assignment(id: ${made.id}) { tags { slug } custom_fields } }`;
    const res44 = await t44.request('POST', '/graphql/', { body: { query } });
    expect(res44.json()).toEqual({
      data: { contact_assignment: { tags: [{ slug: tag.slug }], custom_fields: { [cf]: 'g' } } },
    });
    const res34 = await t.request('POST', '/graphql/', { body: { query } });
    expect(res34.statusCode).toBe(400);
    expect(res34.json().errors[0].message).toContain('Cannot query field "tags"');
    const filtered = await t44.request('POST', '/graphql/', {
      body: { query: `{ contact_assignment_list(filters: {tag: "${tag.slug}", id: ${made.id}}) { id } }` },
    });
    expect(filtered.json().data.contact_assignment_list).toEqual([{ id: String(made.id) }]);
  });
});
