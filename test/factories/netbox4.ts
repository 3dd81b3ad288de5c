/**
 * Requests in NetBox 4.4's dialect and builders of the models only that dialect serves (NetBox
 * 4.0-4.4 additions): each sends `Accept: application/json; version=4.4`, as a 4.4 client would.
 */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from '../helpers/app.js';
import { makeManufacturer } from './dcim.js';
import { makeProviderNetwork } from './circuits.js';
import { type Json, named, uniq } from './make.js';

/** the header that asks for the 4.4 dialect (http/dialect.ts) */
export const V44 = { accept: 'application/json; version=4.4' };

export interface Api44 {
  get(url: string): Promise<LightMyRequestResponse>;
  post(url: string, body: unknown): Promise<LightMyRequestResponse>;
  patch(url: string, body: unknown): Promise<LightMyRequestResponse>;
  put(url: string, body: unknown): Promise<LightMyRequestResponse>;
  del(url: string, body?: unknown): Promise<LightMyRequestResponse>;
}

/** the test app's requests as the superuser, in the 4.4 dialect */
export function api44(t: TestApp): Api44 {
  const send = (method: string) => (url: string, body?: unknown) => t.request(method, url, { body, headers: V44 });
  return { get: send('GET'), post: send('POST'), patch: send('PATCH'), put: send('PUT'), del: send('DELETE') };
}

/** POSTs `data` to `path` in the 4.4 dialect; fails the test unless 201 */
export async function make44(t: TestApp, path: string, data: Json): Promise<Json> {
  const res = await api44(t).post(path, data);
  expect(res.statusCode, `${path}: ${res.body}`).toBe(201);
  return res.json();
}

export async function makeRackType(t: TestApp, extra: Json = {}): Promise<Json> {
  const manufacturer = extra.manufacturer ?? (await makeManufacturer(t)).id;
  const model = uniq('rtype');
  return make44(t, '/api/dcim/rack-types/', {
    model,
    slug: model,
    form_factor: '4-post-cabinet',
    ...extra,
    manufacturer,
  });
}

export const makeCircuitGroup = (t: TestApp, extra: Json = {}) =>
  make44(t, '/api/circuits/circuit-groups/', { ...named('cgroup'), ...extra });

export const makeVirtualCircuitType = (t: TestApp, extra: Json = {}) =>
  make44(t, '/api/circuits/virtual-circuit-types/', { ...named('vctype'), ...extra });

/** a virtual circuit of a new provider network and type unless given */
export async function makeVirtualCircuit(t: TestApp, extra: Json = {}): Promise<Json> {
  const network = extra.provider_network ?? (await makeProviderNetwork(t)).id;
  const type = extra.type ?? (await makeVirtualCircuitType(t)).id;
  return make44(t, '/api/circuits/virtual-circuits/', {
    cid: uniq('vc'),
    ...extra,
    provider_network: network,
    type,
  });
}

export const makeVlanTranslationPolicy = (t: TestApp, extra: Json = {}) =>
  make44(t, '/api/ipam/vlan-translation-policies/', { name: uniq('vtp'), ...extra });

/**
 * The test app with every request in the 4.4 dialect: for suites written against TestApp (the
 * contract helpers) that reach a model only 4.4 serves
 */
export function inDialect44(t: TestApp): TestApp {
  const request: TestApp['request'] = (method, url, opts) =>
    t.request(method, url, { ...opts, headers: { ...V44, ...opts?.headers } });
  return {
    ...t,
    request,
    get: (url, token) => request('GET', url, { token }),
    post: (url, body, token) => request('POST', url, { body, token }),
    patch: (url, body, token) => request('PATCH', url, { body, token }),
    put: (url, body, token) => request('PUT', url, { body, token }),
    del: (url, body, token) => request('DELETE', url, { body, token }),
  };
}
