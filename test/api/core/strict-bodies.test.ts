/**
 * Request bodies (docs/api-differences.md, Strict input): what JSON.parse accepts but would change or could not be
 * stored - lone surrogates, invalid UTF-8, numbers out of range or not representable, nesting
 * past the bound - and bodies that are no object where one is needed: a 400 naming the field
 * where one can be named, and nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/http/json-checks.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const SITES = '/api/dcim/sites/';
const siteCount = async () => (await t.get(`${SITES}?limit=1`)).json().count as number;

/** a body sent as raw bytes */
function sendRaw(method: 'POST' | 'PATCH' | 'PUT', url: string, payload: Buffer | string) {
  return t.app.inject({
    method,
    url,
    payload,
    headers: { authorization: `Token ${t.token}`, 'content-type': 'application/json' },
  });
}

describe('single-object writes without an object', () => {
  const NO_DATA = { non_field_errors: ['No data provided'] };

  it('answers PATCH and PUT with an empty, whitespace or null body with 400 "No data provided", changing nothing', async () => {
    const site = await makeSite(t, { description: 'before' });
    for (const method of ['PATCH', 'PUT'] as const) {
      for (const payload of ['', '   \n\t ', 'null']) {
        const res = await sendRaw(method, `${SITES}${site.id}/`, payload);
        expect(res.statusCode, `${method} ${JSON.stringify(payload)}`).toBe(400);
        expect(res.json()).toEqual(NO_DATA);
      }
    }
    expect((await t.get(`${SITES}${site.id}/`)).json()).toEqual(site);
  });

  it('answers PATCH and PUT with a non-object top level with 400 naming the type', async () => {
    const site = await makeSite(t);
    const cases: Array<[string, string]> = [
      ['[]', 'list'],
      ['[{"description": "x"}]', 'list'],
      ['"x"', 'str'],
      ['5', 'int'],
      ['1.5', 'float'],
      ['true', 'bool'],
    ];
    for (const method of ['PATCH', 'PUT'] as const) {
      for (const [payload, type] of cases) {
        const res = await sendRaw(method, `${SITES}${site.id}/`, payload);
        expect(res.statusCode, `${method} ${payload}`).toBe(400);
        expect(res.json()).toEqual({ non_field_errors: [`Invalid data. Expected a dictionary, but got ${type}.`] });
      }
    }
    expect((await t.get(`${SITES}${site.id}/`)).json()).toEqual(site);
  });

  it('answers a create with an empty or null body with 400, creating nothing', async () => {
    const before = await siteCount();
    for (const payload of ['', 'null', '  ']) {
      const res = await sendRaw('POST', SITES, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toEqual(NO_DATA);
    }
    const scalar = await sendRaw('POST', SITES, '"a site"');
    expect(scalar.statusCode).toBe(400);
    expect(scalar.json()).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got str.'] });
    expect(await siteCount()).toBe(before);
  });
});

describe('strings', () => {
  const LONE = 'Enter valid Unicode text: a lone UTF-16 surrogate is not a character.';

  it('refuses a lone surrogate escape in a field with 400 naming it (not stored as U+FFFD)', async () => {
    const before = await siteCount();
    const n = uniq('sur');
    for (const lone of ['\\ud800', '\\udfff', '\\ud83d x', 'x\\udc00']) {
      const res = await sendRaw('POST', SITES, `{"name": "${n}", "slug": "${n}", "description": "${lone}"}`);
      expect(res.statusCode, lone).toBe(400);
      expect(res.json()).toEqual({ description: [LONE] });
    }
    expect(await siteCount()).toBe(before);
    // a surrogate pair is a character, and is stored as it was sent
    const ok = await sendRaw('POST', SITES, `{"name": "${n}", "slug": "${n}", "description": "\\ud83d\\udca5"}`);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().description).toBe('\u{1F4A5}');
  });

  it('answers a bulk create with a lone surrogate in one item with an array aligned with the input', async () => {
    const before = await siteCount();
    const [a, b] = [uniq('sur'), uniq('sur')];
    const res = await sendRaw(
      'POST',
      SITES,
      `[{"name": "${a}", "slug": "${a}"}, {"name": "${b}\\udbff", "slug": "${b}"}]`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{}, { name: [LONE] }]);
    expect(await siteCount()).toBe(before);
  });

  it('names the field of a lone surrogate nested inside a value, with its path', async () => {
    const res = await sendRaw(
      'POST',
      '/api/extras/config-contexts/',
      `{"name": "${uniq('cc')}", "data": {"a": ["ok", "\\ud800"]}}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ data: [`${LONE} (at data.a[1])`] });
  });

  it('refuses a NUL character inside free-form JSON naming the field', async () => {
    const res = await sendRaw(
      'POST',
      '/api/extras/config-contexts/',
      `{"name": "${uniq('cc')}", "data": {"k": "a\\u0000b"}}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ data: ['Null characters are not allowed. (at data.k)'] });
  });

  it('refuses bytes that are not UTF-8 with 400 naming the field (not stored as U+FFFD)', async () => {
    const before = await siteCount();
    const n = uniq('utf');
    const invalid = [
      Buffer.from([0xff]),
      Buffer.from([0xc3, 0x28]),
      Buffer.from([0xed, 0xa0, 0x80]),
      Buffer.from([0xe2, 0x82]),
    ];
    for (const bad of invalid) {
      const payload = Buffer.concat([
        Buffer.from(`{"name": "${n}", "slug": "${n}", "description": "ab`),
        bad,
        Buffer.from('cd"}'),
      ]);
      const res = await sendRaw('POST', SITES, payload);
      expect(res.statusCode, bad.toString('hex')).toBe(400);
      expect(res.json()).toEqual({ description: ['Invalid UTF-8: the body must be JSON encoded as UTF-8.'] });
    }
    const bulk = Buffer.concat([
      Buffer.from(`[{"name": "${n}", "slug": "${n}"}, {"name": "x`),
      Buffer.from([0xfe]),
      Buffer.from(`", "slug": "${n}-2"}]`),
    ]);
    const res = await sendRaw('POST', SITES, bulk);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{}, { name: ['Invalid UTF-8: the body must be JSON encoded as UTF-8.'] }]);
    expect(await siteCount()).toBe(before);
    // multi-byte UTF-8 is of course fine
    const ok = await sendRaw('POST', SITES, Buffer.from(`{"name": "${n}", "slug": "${n}", "description": "Zürich €"}`));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().description).toBe('Zürich €');
  });
});

describe('numbers', () => {
  it('refuses numbers out of range or not representable with 400 naming the field, writing nothing', async () => {
    const site = await makeSite(t);
    const cases: Array<[string, RegExp]> = [
      ['1e400', /^A valid number is required: 1e400 is out of range\.$/],
      ['-1e400', /^A valid number is required: -1e400 is out of range\.$/],
      ['1e-400', /^A valid number is required: 1e-400 is out of range\.$/],
      ['1'.repeat(5000), /^A valid number is required: 1{20}\.\.\. is out of range\.$/],
      ['12345678901234567890', /^A valid integer is required: 12345678901234567890 cannot be represented exactly\.$/],
    ];
    for (const [literal, message] of cases) {
      const res = await sendRaw('PATCH', `${SITES}${site.id}/`, `{"latitude": ${literal}}`);
      expect(res.statusCode, literal.slice(0, 30)).toBe(400);
      const body = res.json();
      expect(Object.keys(body)).toEqual(['latitude']);
      expect(body.latitude[0]).toMatch(message);
    }
    expect((await t.get(`${SITES}${site.id}/`)).json()).toEqual(site);
  });

  it('accepts the largest exactly representable integers and ordinary decimals', async () => {
    const res = await sendRaw(
      'POST',
      '/api/ipam/asns/',
      `{"asn": 4294967295, "rir": ${(await t.post('/api/ipam/rirs/', { name: uniq('rir'), slug: uniq('rir') })).json().id}}`,
    );
    expect(res.statusCode, res.body).toBe(201);
    const site = await makeSite(t);
    const ok = await sendRaw('PATCH', `${SITES}${site.id}/`, '{"latitude": 4.5e1, "longitude": -0.000001}');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({ latitude: 45, longitude: -0.000001 });
  });
});

describe('nesting', () => {
  const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

  it(`accepts JSON nested ${MAX_JSON_DEPTH} levels deep and refuses one more, naming the field`, async () => {
    // the body's own object is the first level, `data` the second
    const ok = await sendRaw(
      'POST',
      '/api/extras/config-contexts/',
      `{"name": "${uniq('cc')}", "data": ${nested(MAX_JSON_DEPTH - 1)}}`,
    );
    expect(ok.statusCode, ok.body).toBe(201);
    const name = uniq('cc');
    const deep = await sendRaw(
      'POST',
      '/api/extras/config-contexts/',
      `{"name": "${name}", "data": ${nested(MAX_JSON_DEPTH)}}`,
    );
    expect(deep.statusCode).toBe(400);
    const body = deep.json();
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data[0]).toMatch(/^JSON nested deeper than 64 levels\. \(at data(\.a){63}\)$/);
    expect((await t.get(`/api/extras/config-contexts/?name=${name}`)).json().count).toBe(0);
  });

  it('answers a very deep body (100,000 levels) with a 400, not a crash', async () => {
    const res = await sendRaw('POST', SITES, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual([{ non_field_errors: ['JSON nested deeper than 64 levels.'] }]);
  });
});
