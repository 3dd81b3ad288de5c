/**
 * The OpenAPI document (/api/schema/, /api/docs/?format=openapi) and Swagger UI: a standard
 * validator passes the document, it is generated for every registered model, the special routes
 * answer as documented, and the UI loads from the service alone.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import SwaggerParser from '@apidevtools/swagger-parser';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllModels } from '../../../src/apps/index.js';
import { Registry } from '../../../src/core/model/registry.js';
import { KeptDocuments } from '../../../src/core/openapi/documents.js';
import { documentOptions } from '../../../src/http/api-docs.js';
import { acceptsGzip } from '../../../src/http/negotiate.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { createResponseValidator, type ResponseValidator } from '../../helpers/openapi-validator.js';
import { KNOWN_FILTER_GAPS } from './openapi-filter-gaps.js';
import { inDialect44, uniq } from '../../factories/index.js';
import { CONTRACT } from '../../contract/models.js';

// biome-ignore lint/suspicious/noExplicitAny: answers are walked by field name
type Json = Record<string, any>;

let t: TestApp;
let doc: Json;
/** the 4.4 dialect's document, which alone describes the models only NetBox 4 has */
let doc44: Json;
let documented: ResponseValidator;
const registry = new Registry();
registerAllModels(registry);
registry.freeze();

beforeAll(async () => {
  t = await makeTestApp();
  const res = await t.get('/api/schema/', null);
  expect(res.statusCode).toBe(200);
  doc = res.json();
  documented = createResponseValidator(doc as never);
  doc44 = (await inDialect44(t).get('/api/schema/', null)).json();
  expect(doc44.info.version).toBe('4.4.10');
});
afterAll(async () => t.close());

/** a request whose response must validate against the document */
async function call(method: string, url: string, body?: unknown, token?: string | null) {
  const res = await t.request(method, url, { body, token });
  expect(documented.check(method, url, res.statusCode, res.body).join('\n'), `${method} ${url}`).toBe('');
  return res;
}

/**
 * Documented filters that change no answer, by list path and name, with why: the sweep below
 * requires each still to fail, so this list only shrinks.
 */
const KNOWN_UNFILTERED: Record<string, string> = {};

describe('GET /api/schema/', () => {
  it('is an OpenAPI 3.0 document a standard validator accepts', async () => {
    expect(doc.openapi).toBe('3.0.3');
    expect(doc.info.version).toBe('3.4.0');
    await expect(SwaggerParser.validate(structuredClone(doc) as never)).resolves.toBeTruthy();
  });

  // the YAML is made by a process of its own (core/openapi/documents.ts): ~1 s quiet, past 30 s on a loaded host
  it('gives the same document as YAML with ?format=yaml or the OpenAPI Accept type, and as JSON for NetBox 3.4 clients', {
    timeout: 120_000,
  }, async () => {
    const yaml = await t.get('/api/schema/?format=yaml', null);
    expect(yaml.headers['content-type']).toMatch(/^application\/vnd\.oai\.openapi/);
    expect(parseYaml(yaml.body)).toEqual(doc);
    const accepted = await t.request('GET', '/api/schema/', {
      token: null,
      headers: { accept: 'application/vnd.oai.openapi' },
    });
    expect(accepted.body).toBe(yaml.body);
    const json = await t.get('/api/schema/?format=json', null);
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.json()).toEqual(doc);
    // NetBox 3.4's layout: the same operations under an /api base
    const legacy = (await t.get('/api/docs/?format=openapi', null)).json();
    expect(legacy.servers).toEqual([{ url: '/api' }]);
    expect(legacy.paths['/dcim/sites/{id}/']).toEqual(doc.paths['/api/dcim/sites/{id}/']);
    expect(Object.keys(legacy.paths)).toHaveLength(Object.keys(doc.paths).length);
    await expect(SwaggerParser.validate(legacy)).resolves.toBeTruthy();
    expect((await t.get('/api/schema/?format=xml', null)).statusCode).toBe(404);
  });

  it('is sent gzipped to a client that takes gzip, and as it is to one that does not', async () => {
    for (const [url, same] of [
      ['/api/schema/', doc],
      ['/api/docs/?format=openapi', null],
    ] as const) {
      const plain = await t.get(url, null);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers.vary).toMatch(/Accept-Encoding/);
      const zipped = await t.request('GET', url, { token: null, headers: { 'accept-encoding': 'gzip, deflate' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers.vary).toMatch(/Accept-Encoding/);
      expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 5);
      expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
      if (same) expect(plain.json()).toEqual(same);
      // q=0 refuses it (RFC 9110 12.5.3)
      const refused = await t.request('GET', url, {
        token: null,
        headers: { 'accept-encoding': 'gzip;q=0, identity' },
      });
      expect(refused.headers['content-encoding']).toBeUndefined();
      expect(refused.body).toBe(plain.body);
    }
  });

  it('is what `inventory openapi` prints, and is made in the server when that process cannot run', async () => {
    // the server makes it apart with the same command (core/openapi/documents.ts)
    const printed = execFileSync(process.execPath, ['bin/inventory.js', 'openapi', 'legacy'], {
      maxBuffer: 64 * 1024 * 1024,
    }).toString('utf8');
    expect(printed).toBe((await t.get('/api/docs/?format=openapi', null)).body);
    const warnings: string[] = [];
    const own = new Registry();
    const opts = documentOptions(own, registerAllModels(own).docs);
    own.freeze();
    const inProcess = new KeptDocuments(opts, (m) => warnings.push(m), [join(tmpdir(), 'no-such-node')]);
    expect(JSON.parse(gunzipSync(await inProcess.gzipped('json')).toString('utf8'))).toEqual(doc);
    expect(warnings).toEqual([expect.stringMatching(/made in the server process instead/)]);
    // one that does not finish in time is stopped, and the server makes it
    const stuck = new KeptDocuments(
      opts,
      (m) => warnings.push(m),
      [process.execPath, '-e', 'setTimeout(() => {}, 60000)'],
      300,
    );
    expect(JSON.parse(gunzipSync(await stuck.gzipped('json')).toString('utf8'))).toEqual(doc);
    expect(warnings[1]).toMatch(/was stopped \(SIGKILL\)/);
  });

  it('needs no token even with LOGIN_REQUIRED', async () => {
    const locked = await makeTestApp({ LOGIN_REQUIRED: 'true' });
    try {
      expect((await locked.get('/api/dcim/sites/', null)).statusCode).toBe(403);
      for (const url of ['/api/schema/', '/api/docs/?format=openapi', '/api/schema/swagger-ui/', '/api/docs/']) {
        expect((await locked.get(url, null)).statusCode, url).toBe(200);
      }
    } finally {
      await locked.close();
    }
  });

  it('has every method of every registered model under NetBox-style operationIds', () => {
    const ids = new Set<string>();
    for (const item of Object.values(doc.paths) as Json[])
      for (const op of Object.values(item) as Json[]) {
        expect(ids.has(op.operationId), op.operationId).toBe(false);
        ids.add(op.operationId);
      }
    for (const m of registry.all()) {
      // a model only 4.4 serves is in 4.4's document alone
      if (m.dialect) expect(doc.paths[`/api/${m.app}/${m.path}/`], m.name).toBeUndefined();
      const paths = (m.dialect ? doc44 : doc).paths;
      const list = paths[`/api/${m.app}/${m.path}/`];
      const detail = paths[`/api/${m.app}/${m.path}/{id}/`];
      const op = `${m.app}_${m.path.replace(/-/g, '_')}`;
      expect(list.get.operationId, m.name).toBe(`${op}_list`);
      expect(detail.get.operationId, m.name).toBe(`${op}_retrieve`);
      const writes = {
        post: `${op}_create`,
        put: `${op}_bulk_update`,
        patch: `${op}_bulk_partial_update`,
        delete: `${op}_bulk_destroy`,
      };
      const detailWrites = { put: `${op}_update`, patch: `${op}_partial_update`, delete: `${op}_destroy` };
      for (const [method, id] of Object.entries(writes))
        expect(list[method]?.operationId, `${m.name} ${method}`).toBe(m.readOnly ? undefined : id);
      for (const [method, id] of Object.entries(detailWrites))
        expect(detail[method]?.operationId, `${m.name} ${method}`).toBe(m.readOnly ? undefined : id);
      expect(list.get.tags).toEqual([m.app]);
    }
  });

  it('types list parameters and marks repeatable filters as arrays', () => {
    const params = new Map<string, Json>(doc.paths['/api/ipam/vlans/'].get.parameters.map((p: Json) => [p.name, p]));
    expect(params.get('limit')!.schema).toEqual({ type: 'integer', minimum: 0 });
    expect(params.get('vid')!.schema).toEqual({ type: 'array', items: { type: 'integer' } });
    expect(params.get('vid')!.explode).toBe(true);
    expect(params.get('vid__gte')!.schema).toEqual({ type: 'integer' });
    expect(params.get('name__ic')!.schema).toEqual({ type: 'array', items: { type: 'string' } });
    expect(params.get('name__empty')!.schema).toEqual({ type: 'boolean' });
    expect(params.get('status')!.schema.items.enum).toEqual(['active', 'reserved', 'deprecated']);
    expect(params.get('created__gte')!.schema).toEqual({ type: 'string', format: 'date-time' });
    expect(params.get('group_id')!.schema.items).toEqual({ type: 'integer' });
    const devices = new Map<string, Json>(doc.paths['/api/dcim/devices/'].get.parameters.map((p: Json) => [p.name, p]));
    expect(devices.get('exclude')!.schema.enum).toEqual(['config_context']);
    expect(doc.paths['/api/dcim/sites/'].get.parameters.some((p: Json) => p.name === 'exclude')).toBe(false);
  });

  // A filter nothing implements is ignored (200, every object): so each documented filter must
  // change the answer on a list that holds objects (one per model, made first
  // from the contract rows), or refuse a value it cannot take with a 400 naming it.
  it('implements every documented filter of every list: it narrows the list, or refuses a bad value with 400', async () => {
    // one object of every model (read-only ones seeded by the objects they come from)
    for (const c of CONTRACT) {
      // a model only NetBox 4.4 serves is made (and filtered below) in that dialect
      const api = c.dialect ? inDialect44(t) : t;
      if (c.readOnly) await c.seed?.({ t: api });
      else {
        const res = await api.post(c.path, await c.create!({ t: api }));
        expect(res.statusCode, `${c.model}: ${res.body}`).toBe(201);
      }
    }
    const NEGATED = /__(n|nic|nie|niew|nisw)$/;
    const absent = `zz-${uniq('absent')}`;
    const failures: string[] = [];
    const known = new Set<string>();
    let path = '';
    let param = '';
    const problem = (url: string, why: string, res?: { statusCode: number; body: string }) => {
      if (`${path} ${param}` in KNOWN_UNFILTERED) known.add(`${path} ${param}`);
      else failures.push(`${path}?${url}: ${why}${res ? ` (${res.statusCode} ${res.body.slice(0, 100)})` : ''}`);
    };
    const named400 = (res: { statusCode: number; json(): Json }, name: string) =>
      res.statusCode === 400 && name in res.json();
    for (const m of registry.all()) {
      path = `/api/${m.app}/${m.path}/`;
      param = '';
      const api = m.dialect ? inDialect44(t) : t;
      const listed = (await api.get(`${path}?limit=1000`)).json();
      const total = listed.count as number;
      if (total === 0) {
        problem(path, 'no object to filter');
        continue;
      }
      const rows = listed.results as Json[];
      const count = async (query: string) => {
        const res = await api.get(`${path}?limit=1&${query}`);
        return { res, count: res.statusCode === 200 ? (res.json().count as number) : null };
      };
      for (const p of (m.dialect ? doc44 : doc).paths[path].get.parameters as Json[]) {
        if (['limit', 'offset', 'ordering', 'brief', 'exclude', 'fields', 'omit'].includes(p.name)) continue;
        param = p.name;
        const v = p.schema.type === 'array' ? p.schema.items : p.schema;
        const q = (value: string) => `${p.name}=${encodeURIComponent(value)}`;
        if (v.type === 'boolean') {
          // true and false split the list (nulls in neither); an ignored filter gives it whole twice
          const [yes, no] = [await count(q('true')), await count(q('false'))];
          if (named400(yes.res, p.name)) continue;
          if (yes.count === null || no.count === null) problem(q('true'), 'neither 200 nor a 400 naming it', yes.res);
          else if (yes.count + no.count > total) problem(q('true'), `true ${yes.count} + false ${no.count} > ${total}`);
        } else if (v.enum || v.type === 'integer' || v.type === 'number' || v.format) {
          // a typed value is parsed: text of no type is refused
          const bad = await count(q('not-a-value'));
          if (!named400(bad.res, p.name)) problem(q('not-a-value'), 'no 400 naming the parameter', bad.res);
        } else if (!NEGATED.test(p.name)) {
          // text no object holds matches nothing
          const none = await count(q(absent));
          if (named400(none.res, p.name)) continue;
          if (none.count !== 0) problem(q(absent), `${none.count} of ${total} objects match`, none.res);
        } else {
          // a negated text lookup with a value an object holds leaves that object out
          const base = p.name.replace(NEGATED, '');
          const held = rows
            .flatMap((r) => (Array.isArray(r[base]) ? r[base] : [r[base]]))
            .map((x) => (x !== null && typeof x === 'object' ? (x.slug ?? x.value ?? x.name) : x))
            .find((x) => typeof x === 'string' && x !== '');
          const res = await count(q(held ?? absent));
          if (named400(res.res, p.name)) continue;
          if (res.count === null) problem(q(held ?? absent), 'neither 200 nor a 400 naming it', res.res);
          // with no value an object shows under that name, the answer alone is checked
          else if (held !== undefined && res.count >= total) problem(q(held), `leaves all ${total} objects in`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect([...known].sort(), 'a known unfiltered name that now filters: drop it from KNOWN_UNFILTERED').toEqual(
      Object.keys(KNOWN_UNFILTERED).sort(),
    );
  }, 900_000);
});

describe('special routes answer as documented', () => {
  it('the API root, app roots and status', async () => {
    const root = await call('GET', '/api/', undefined, null);
    expect(root.statusCode).toBe(200);
    expect(root.json()).toMatchObject({
      dcim: 'http://localhost:80/api/dcim/',
      status: 'http://localhost:80/api/status/',
    });
    for (const a of ['circuits', 'dcim', 'extras', 'ipam', 'plugins', 'tenancy', 'users', 'virtualization']) {
      const app = await call('GET', `/api/${a}/`);
      expect(app.statusCode, a).toBe(200);
      expect(typeof app.json(), a).toBe('object');
    }
    expect((await call('GET', '/api/dcim/')).json()).toMatchObject({ sites: 'http://localhost:80/api/dcim/sites/' });
    const status = await call('GET', '/api/status/');
    expect(status.statusCode).toBe(200);
    expect(status.json()['netbox-version']).toMatch(/^3\.4\./);
  });

  it('token provisioning and the user config', async () => {
    const username = uniq('prov');
    await call('POST', '/api/users/users/', { username, password: 'secret-password-1' });
    const made = await call('POST', '/api/users/tokens/provision/', { username, password: 'secret-password-1' }, null);
    expect(made.statusCode).toBe(201);
    expect((await call('POST', '/api/users/tokens/provision/', { username, password: 'wrong' }, null)).statusCode).toBe(
      403,
    );
    await call('PATCH', '/api/users/config/', { ui: { colormode: 'dark' } });
    expect((await call('GET', '/api/users/config/')).json()).toEqual({ ui: { colormode: 'dark' } });
  });

  it('available IPs, prefixes and VLANs, listed and allocated', async () => {
    const prefix = (await call('POST', '/api/ipam/prefixes/', { prefix: '10.77.0.0/24' })).json();
    const listed = await call('GET', `/api/ipam/prefixes/${prefix.id}/available-ips/?limit=3`);
    expect(listed.json()).toHaveLength(3);
    expect((await call('POST', `/api/ipam/prefixes/${prefix.id}/available-ips/`, {})).statusCode).toBe(201);
    expect(
      (await call('POST', `/api/ipam/prefixes/${prefix.id}/available-ips/`, [{}, { description: 'b' }])).statusCode,
    ).toBe(201);
    await call('GET', `/api/ipam/prefixes/${prefix.id}/available-prefixes/`);
    expect(
      (await call('POST', `/api/ipam/prefixes/${prefix.id}/available-prefixes/`, { prefix_length: 28 })).statusCode,
    ).toBe(201);
    const range = (
      await call('POST', '/api/ipam/ip-ranges/', { start_address: '10.78.0.10/24', end_address: '10.78.0.12/24' })
    ).json();
    await call('GET', `/api/ipam/ip-ranges/${range.id}/available-ips/`);
    const full = await call('POST', `/api/ipam/ip-ranges/${range.id}/available-ips/`, [{}, {}, {}, {}]);
    expect(full.statusCode).toBe(409);
    const group = (await call('POST', '/api/ipam/vlan-groups/', { name: uniq('g'), slug: uniq('g') })).json();
    await call('GET', `/api/ipam/vlan-groups/${group.id}/available-vlans/?limit=2`);
    expect((await call('POST', `/api/ipam/vlan-groups/${group.id}/available-vlans/`, { name: 'v' })).statusCode).toBe(
      201,
    );
    await call('GET', '/api/ipam/prefixes/987654321/available-ips/');
  });
});

describe('Swagger UI', () => {
  const urlsIn = (html: string) => [...html.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]!);

  it.each(['/api/schema/swagger-ui/', '/api/docs/'])('%s loads only assets the service serves itself', async (page) => {
    const res = await t.get(page, null);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    // no inline script may run, and nothing may load from elsewhere
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).not.toMatch(/<script>|<script [^>]*>[^<]/);
    const urls = urlsIn(res.body);
    expect(urls.length).toBeGreaterThanOrEqual(6);
    const spec = /data-spec-url="([^"]*)"/.exec(res.body)![1]!;
    for (const u of [...urls, spec]) {
      expect(u, 'a relative URL').not.toMatch(/^(?:[a-z]+:)?\/\//i);
      const target = new URL(u, `http://localhost${page}`);
      const asset = await t.get(target.pathname + target.search, null);
      expect(asset.statusCode, target.pathname).toBe(200);
      expect(asset.body.length, target.pathname).toBeGreaterThan(0);
    }
    expect(new URL(spec, `http://localhost${page}`).pathname).toBe('/api/schema/');
  });

  it('starts Swagger UI without the online validator, and serves nothing outside its asset list', async () => {
    const init = await t.get('/api/schema/swagger-ui/swagger-initializer.js', null);
    expect(init.headers['content-type']).toMatch(/javascript/);
    expect(init.body).toContain('validatorUrl: null');
    expect(init.body).not.toMatch(/https?:/);
    expect((await t.get('/api/schema/swagger-ui/package.json', null)).statusCode).toBe(404);
    expect((await t.get('/api/schema/swagger-ui/..%2Fpackage.json', null)).statusCode).toBe(404);
  });
});

describe('acceptsGzip (RFC 9110 12.5.3)', () => {
  it('takes gzip listed or under *, with a q-value above 0', () => {
    for (const yes of [
      'gzip',
      'gzip, deflate, br',
      'deflate;q=1, GZIP;q=0.5',
      '*',
      'br, *;q=0.1',
      'x-gzip',
      ['br', 'gzip'],
    ])
      expect(acceptsGzip(yes), String(yes)).toBe(true);
    for (const no of [undefined, '', 'identity', 'br, deflate', 'gzip;q=0', 'gzip; q=0.0, *', '*;q=0', 'gzipx'])
      expect(acceptsGzip(no), String(no)).toBe(false);
  });
});

describe('what the Ansible inventory plugin reads', () => {
  it('finds the version through /api/status and the device and VM filters in /api/docs/?format=openapi', async () => {
    const redirect = await t.get('/api/status', null);
    expect(redirect.statusCode).toBe(302);
    const status = (await t.get(redirect.headers.location as string)).json();
    expect(status['netbox-version'].split('.').slice(0, 2).join('.')).toBe('3.4');
    // below 3.5 the plugin reads NetBox 3.4's layout: paths under the /api base
    const openapi = (await t.get('/api/docs/?format=openapi', null)).json();
    const names = (path: string) => openapi.paths[path].get.parameters.map((p: Json) => p.name);
    expect(names('/dcim/devices/')).toEqual(
      expect.arrayContaining(['site', 'site_id', 'role', 'status', 'tag', 'tenant', 'platform', 'name__ic', 'serial']),
    );
    expect(names('/virtualization/virtual-machines/')).toEqual(
      expect.arrayContaining(['cluster', 'cluster_id', 'site', 'status', 'tag', 'role']),
    );
  });
});

describe('filters of NetBox 3.7.8 (netbox-filters.md)', () => {
  it('are all in the document, with each lookup variant, except the known gaps', () => {
    const md = readFileSync(new URL('../../fixtures/netbox-filters.md', import.meta.url), 'utf8');
    const variants: Record<string, string[]> = {
      s: ['n', 'ic', 'nic', 'ie', 'nie', 'isw', 'nisw', 'iew', 'niew', 'empty'],
      '#': ['n', 'lt', 'lte', 'gt', 'gte', 'empty'],
      n: ['n'],
    };
    let checked = 0;
    const missing: string[] = [];
    const servedPaths = new Set(Object.keys(doc.paths));
    for (const line of md.split('\n')) {
      const m = /^- `([^`]+)`: (.*)$/.exec(line);
      if (!m || !servedPaths.has(m[1]!)) continue;
      const path = m[1]!;
      const documentedNames = new Set(doc.paths[path].get.parameters.map((p: Json) => p.name));
      const gaps = new Set((KNOWN_FILTER_GAPS[path] ?? '').split(' ').filter(Boolean));
      for (const token of m[2]!.split(', ')) {
        const [, base, mark] = /^([a-z0-9_]+)(?:\[(.*)\])?$/.exec(token.trim())!;
        const lookups = mark?.startsWith('+') ? mark.slice(1).split(',') : (variants[mark ?? ''] ?? []);
        for (const name of [base!, ...lookups.map((l) => `${base}__${l}`)]) {
          checked++;
          if (gaps.has(name))
            expect(documentedNames.has(name), `${path} ${name} is implemented: drop it from KNOWN_FILTER_GAPS`).toBe(
              false,
            );
          else if (!documentedNames.has(name)) missing.push(`${path} ${name}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(3000);
  });
});
