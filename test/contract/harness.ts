/**
 * Helpers shared by the contract suite: an app whose every response is checked for the headers the
 * spec puts on all responses, object factories driven by the contract table, and checks that
 * compare a representation with the data written.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { registerAllModels } from '../../src/apps/index.js';
import { Registry } from '../../src/core/model/registry.js';
import type { ModelDef } from '../../src/core/model/types.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { createResponseValidator } from '../helpers/openapi-validator.js';
import { type Dialect, isDialect, writtenIn } from '../../src/core/model/dialect.js';
import { type ContractCase, type Json, resolve } from './models.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
export const ISO_Z_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
export const BASE = 'http://localhost:80';
/** an id no test creates */
export const MISSING_ID = 987654321;

export const LIST_ALLOW = 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS';
export const DETAIL_ALLOW = 'GET, PUT, PATCH, DELETE, HEAD, OPTIONS';
export const READ_ALLOW = 'GET, HEAD, OPTIONS';

export function buildRegistry(): Registry {
  const registry = new Registry();
  registerAllModels(registry);
  return registry.freeze();
}

const registry = buildRegistry();
export const defOf = (c: ContractCase): ModelDef => registry.get(c.model);

/** spec: Conventions 4, Versioning 1 - on every response, errors included */
export function expectCommonHeaders(res: LightMyRequestResponse, dialect: Dialect = '3.4'): void {
  expect(res.headers['x-request-id'], `X-Request-ID on ${res.statusCode}`).toMatch(UUID_RE);
  expect(res.headers['api-version'], `API-Version on ${res.statusCode}`).toBe(dialect);
  if (res.body !== '')
    expect(res.headers['content-type'], `Content-Type on ${res.statusCode}`).toMatch(/^application\/json/);
}

/** The models served at each list path, to ask for the dialect of a model served in one only. */
const modelAt = new Map<string, ModelDef>(
  registry.all().flatMap((m) => Registry.appsOf(m).map((app): [string, ModelDef] => [`/api/${app}/${m.path}/`, m])),
);

/** The dialect a request to `url` must be made in: 4.4 for a model only 4.4 serves, else `dialect`. */
function dialectFor(url: string, dialect: Dialect): Dialect {
  const path = /^\/api\/[^/?]+\/[^/?]+\//.exec(url)?.[0];
  return (path && modelAt.get(path)?.dialect) || dialect;
}

/**
 * One validator per dialect for the whole worker: the document is the same for every app built from
 * this code, and Ajv's compiled schemas are the costly part, so each file of the suite reuses what
 * the files before it in the worker compiled (vitest.config.ts: isolate false). Fetched on the first
 * request in that dialect, from whichever app makes it.
 */
const validators = new Map<Dialect, Promise<ReturnType<typeof createResponseValidator>>>();

function validatorOf(d: Dialect, raw: TestApp['request']): Promise<ReturnType<typeof createResponseValidator>> {
  let kept = validators.get(d);
  if (!kept) {
    kept = raw('GET', '/api/schema/?format=json', { headers: { accept: `application/json; version=${d}` } }).then(
      (schema) => {
        expect(schema.statusCode).toBe(200);
        return createResponseValidator(schema.json());
      },
    );
    kept.catch(() => validators.delete(d));
    validators.set(d, kept);
  }
  return kept;
}

/**
 * A test app whose responses all pass expectCommonHeaders and validate against the service's own
 * OpenAPI document of the request's API dialect (the schema of that operation and status). Its
 * requests speak `dialect`, and 4.4 on the paths of models only NetBox 4 has.
 */
export async function makeContractApp(dialect: Dialect = '3.4'): Promise<TestApp> {
  const t = await makeTestApp();
  const raw = t.request;
  const request: TestApp['request'] = async (method, url, opts) => {
    // a version the request asks for itself is kept (a 406 for one not spoken is announced as 3.4)
    const asked = /version=([^\s;,]+)/.exec(opts?.headers?.accept ?? '')?.[1];
    const d = asked !== undefined ? (isDialect(asked) ? asked : '3.4') : dialectFor(url, dialect);
    const headers =
      asked !== undefined || d === '3.4'
        ? opts?.headers
        : { ...opts?.headers, accept: `application/json; version=${d}` };
    const res = await raw(method, url, { ...opts, headers });
    expectCommonHeaders(res, d);
    const documented = await validatorOf(d, raw);
    expect(
      documented.check(method, url, res.statusCode, res.body).join('\n'),
      `${method} ${url} answers as documented`,
    ).toBe('');
    return res;
  };
  return {
    ...t,
    request,
    get: (url, tok) => request('GET', url, { token: tok }),
    post: (url, body, tok) => request('POST', url, { body, token: tok }),
    patch: (url, body, tok) => request('PATCH', url, { body, token: tok }),
    put: (url, body, tok) => request('PUT', url, { body, token: tok }),
    del: (url, body, tok) => request('DELETE', url, { body, token: tok }),
  };
}

export const detailPath = (c: ContractCase, id: unknown) => `${c.path}${id}/`;

/** Valid data for n new objects. */
export async function dataFor(t: TestApp, c: ContractCase, n = 1): Promise<Json[]> {
  const out: Json[] = [];
  for (let i = 0; i < n; i++) out.push(await c.create!({ t }));
  return out;
}

/** Creates n objects in one bulk POST; returns their representations in input order. */
export async function createMany(t: TestApp, c: ContractCase, n: number): Promise<Json[]> {
  const res = await t.post(c.path, await dataFor(t, c, n));
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function createOne(t: TestApp, c: ContractCase): Promise<Json> {
  const res = await t.post(c.path, (await dataFor(t, c))[0]);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

export async function getJson(t: TestApp, url: string): Promise<Json> {
  const res = await t.get(url);
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
}

/** The ids of a list response's results, in order. */
export const idsOf = (body: Json) => (body.results as Json[]).map((r) => r.id);

/** Total count of a model's objects (to prove a failed write created nothing). */
export async function countOf(t: TestApp, c: ContractCase): Promise<number> {
  return Number((await getJson(t, `${c.path}?limit=1`)).count);
}

/**
 * Checks that a representation shows the written attributes: choices by value, foreign keys by id
 * (or by the attributes they were written with), write-only fields not at all.
 */
export function expectApplied(def: ModelDef, body: Json, written: Json): void {
  for (const [k, v] of Object.entries(written)) {
    const f = def.fields[k];
    if (k === 'tags' || k === 'custom_fields') continue;
    expect(f, `${def.name}.${k} is a declared field`).toBeDefined();
    const got = body[k] as Json | null | undefined;
    if (f!.writeOnly) {
      expect(body, `${k} is write-only`).not.toHaveProperty(k);
    } else if (f!.kind === 'choice') {
      expect(got?.value ?? null, k).toEqual(v === '' ? null : v);
    } else if (f!.kind === 'fk' && v !== null && typeof v === 'object') {
      expect(got, k).toMatchObject(v as Json);
    } else if (f!.kind === 'fk') {
      // nested, or its id where the model declares it shown bare (NetBox 4.4's VLAN translation rule policy)
      const id = f!.shape?.type === 'integer' ? got : got?.id;
      expect(id ?? null, k).toEqual(v === null ? null : Number(v));
    } else if (f!.kind === 'json' && v !== null && typeof v === 'object') {
      // a representation may enrich written JSON (a cable end nests its object)
      expect(got, k).toMatchObject(v as Json);
    } else if (f!.kind === 'decimal') {
      expect(got === null ? null : Number(got), k).toEqual(v === null ? null : Number(v));
    } else if (f!.kind === 'm2m' && !f!.slugField) {
      // m2m members are written as ids and shown nested
      expect(
        ((got ?? []) as unknown as Json[]).map((m) => m.id),
        k,
      ).toEqual(v);
    } else {
      expect(got, k).toEqual(v);
    }
  }
}

/**
 * Like expectApplied, for change-log snapshots (NetBox serialization: fk ids, bare choice values),
 * which hold stored values: a size written in 3.4's GB is kept in MB (FieldDef.scaleIn).
 */
export function expectSnapshot(def: ModelDef, data: Json, written: Json): void {
  for (const [k, v] of Object.entries(written)) {
    const f = def.fields[k];
    if (!f || k === 'tags' || k === 'custom_fields' || f.writeOnly) continue;
    if (f.scaleIn) expect(data[k], k).toEqual(writtenIn(f, v, '3.4'));
    else if (f.kind === 'fk' && v !== null && typeof v === 'object') expect(data[k], k).toEqual(expect.any(Number));
    else if (f.kind === 'decimal')
      expect(data[k] === null ? null : Number(data[k]), k).toEqual(v === null ? null : Number(v));
    else expect(data[k], k).toEqual(v);
  }
}

/** Fields that must never leave the server in a representation or a change record. */
export function secretFields(def: ModelDef): string[] {
  return Object.entries(def.fields)
    .filter(([, f]) => f.writeOnly || f.noChangelog)
    .map(([k]) => k);
}

export { resolve };
