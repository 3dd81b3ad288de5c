/**
 * GET /metrics (http/metrics/): the exposition parses, carries NetBox's django-prometheus names
 * and the service's own, and its request counters move after requests, by method, status and
 * view - list, detail, special routes named as NetBox names them, unrouted paths in one label.
 * It needs no token even with LOGIN_REQUIRED, and METRICS_ENABLED=false removes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { type Exposition, parseExposition } from '../../helpers/prometheus.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  // routes added before the app starts: an unhandled error, and a route naming its own view
  t.app.get('/test-boom/', { config: { view: 'test-boom' } }, async () => {
    throw new RangeError('boom');
  });
  t.app.get('/test-unnamed/', async () => ({ ok: true }));
});
afterAll(async () => t.close());

async function scrape(app = t): Promise<Exposition> {
  const res = await app.request('GET', '/metrics', { token: null });
  expect(res.statusCode, res.body).toBe(200);
  return parseExposition(res.body);
}

const VIEW_REQUESTS = 'django_http_requests_total_by_view_transport_method_total';
const STATUS_VIEW = 'django_http_responses_total_by_status_view_method_total';

describe('GET /metrics', () => {
  it('answers the text exposition without a token, with the headers every response carries', async () => {
    const res = await t.request('GET', '/metrics', { token: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(res.headers['api-version']).toBe('3.4');
    expect(res.headers.location).toBeUndefined();
    expect(() => parseExposition(res.body)).not.toThrow();
    // an Authorization header, even a bad one, is not looked at (NetBox: outside the API's auth)
    expect((await t.request('GET', '/metrics', { token: 'not-a-token' })).statusCode).toBe(200);
  });

  it('has no trailing slash and is not redirected to one', async () => {
    const res = await t.request('GET', '/metrics/', { token: null });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('exposes NetBox names, the service own and process metrics, with their types', async () => {
    const m = await scrape();
    const expected: Record<string, string> = {
      django_http_requests_total_by_method_total: 'counter',
      django_http_responses_total_by_status_total: 'counter',
      django_http_requests_latency_seconds_by_view_method: 'histogram',
      django_http_requests_total_by_view_transport_method_total: 'counter',
      django_http_responses_total_by_status_view_method_total: 'counter',
      django_http_exceptions_total_by_type_total: 'counter',
      django_model_inserts_total: 'counter',
      django_model_updates_total: 'counter',
      django_model_deletes_total: 'counter',
      django_db_execute_total: 'counter',
      django_db_query_duration_seconds: 'histogram',
      inventory_http_request_duration_seconds: 'histogram',
      inventory_db_connections: 'gauge',
      inventory_db_connections_waiting: 'gauge',
      inventory_model_objects: 'gauge',
      inventory_response_cache_requests_total: 'counter',
      process_cpu_seconds_total: 'counter',
      process_resident_memory_bytes: 'gauge',
      nodejs_eventloop_lag_seconds: 'gauge',
    };
    for (const [name, type] of Object.entries(expected)) expect(m.types.get(name), name).toBe(type);
  });

  it('counts requests by method, view and status, with their latency', async () => {
    const site = uniq('site');
    const id = (await t.post('/api/dcim/sites/', { name: site, slug: site })).json().id as number;
    const before = await scrape();
    for (let i = 0; i < 2; i++) expect((await t.get('/api/dcim/sites/')).statusCode).toBe(200);
    expect((await t.get(`/api/dcim/sites/${id}/`)).statusCode).toBe(200);
    expect((await t.get('/api/dcim/sites/999999999/')).statusCode).toBe(404);
    expect((await t.post('/api/dcim/sites/', { name: '' })).statusCode).toBe(400);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);

    const list = { view: 'dcim-api:site-list', method: 'GET' };
    const detail = { view: 'dcim-api:site-detail', method: 'GET' };
    expect(moved(VIEW_REQUESTS, { ...list, transport: 'http' })).toBe(2);
    expect(moved(VIEW_REQUESTS, { ...detail, transport: 'http' })).toBe(2);
    expect(moved(STATUS_VIEW, { ...detail, status: '200' })).toBe(1);
    expect(moved(STATUS_VIEW, { ...detail, status: '404' })).toBe(1);
    expect(moved(STATUS_VIEW, { view: 'dcim-api:site-list', method: 'POST', status: '400' })).toBe(1);
    // the first scrape's own answer is counted too: four GETs besides the five above
    expect(moved('django_http_requests_total_by_method_total', { method: 'GET' })).toBe(5);
    expect(moved('django_http_requests_total_by_method_total', { method: 'POST' })).toBe(1);
    expect(moved('django_http_responses_total_by_status_total', { status: '404' })).toBe(1);
    expect(moved('django_http_responses_total_by_status_total', { status: '400' })).toBe(1);
    expect(moved(STATUS_VIEW, { view: 'prometheus-django-metrics', method: 'GET', status: '200' })).toBe(1);

    const latency = 'django_http_requests_latency_seconds_by_view_method';
    expect(moved(`${latency}_count`, list)).toBe(2);
    expect(moved(`${latency}_bucket`, { ...list, le: '+Inf' })).toBe(2);
    expect(moved(`${latency}_sum`, list)).toBeGreaterThan(0);
    const own = 'inventory_http_request_duration_seconds';
    expect(moved(`${own}_count`, { method: 'GET', route: '/api/dcim/sites/:id/', status: '404' })).toBe(1);
    expect(moved(`${own}_count`, { method: 'GET', route: '/api/dcim/sites/', status: '200' })).toBe(2);
  });

  it('writes histogram buckets that are cumulative and end at the count', async () => {
    const m = await scrape();
    const name = 'inventory_http_request_duration_seconds';
    const series = m.samples.filter((s) => s.name === `${name}_count`);
    expect(series.length).toBeGreaterThan(0);
    for (const s of series) {
      const buckets = m.samples
        .filter(
          (b) => b.name === `${name}_bucket` && ['method', 'route', 'status'].every((k) => b.labels[k] === s.labels[k]),
        )
        .map((b) => ({ le: b.labels.le === '+Inf' ? Infinity : Number(b.labels.le), n: b.value }));
      expect(buckets.map((b) => b.le)).toEqual([...buckets.map((b) => b.le)].sort((a, b) => a - b));
      for (let i = 1; i < buckets.length; i++) expect(buckets[i]!.n).toBeGreaterThanOrEqual(buckets[i - 1]!.n);
      expect(buckets.at(-1)).toEqual({ le: Infinity, n: s.value });
    }
  });

  it('names the views of special routes as NetBox does', async () => {
    const prefix = (await t.post('/api/ipam/prefixes/', { prefix: '10.77.0.0/24' })).json();
    const range = (
      await t.post('/api/ipam/ip-ranges/', { start_address: '10.78.0.1/24', end_address: '10.78.0.9/24' })
    ).json();
    const before = await scrape();
    const calls: Array<[string, string, string, unknown?]> = [
      ['GET', '/api/', 'api-root'],
      ['GET', '/api/dcim/', 'dcim-api:api-root'],
      ['GET', '/api/status/', 'api-status'],
      ['GET', `/api/ipam/prefixes/${prefix.id}/available-ips/`, 'ipam-api:prefix-available-ips'],
      ['GET', `/api/ipam/prefixes/${prefix.id}/available-prefixes/`, 'ipam-api:prefix-available-prefixes'],
      ['GET', `/api/ipam/ip-ranges/${range.id}/available-ips/`, 'ipam-api:iprange-available-ips'],
      ['GET', '/api/ipam/ip-addresses/', 'ipam-api:ipaddress-list'],
      ['GET', '/api/virtualization/interfaces/', 'virtualization-api:vminterface-list'],
      ['POST', '/api/users/tokens/provision/', 'users-api:token_provision', { username: 'nobody', password: 'wrong' }],
      ['GET', '/test-unnamed/', '/test-unnamed/'],
    ];
    for (const [method, url, , body] of calls)
      await t.request(method, url, body === undefined ? {} : { body, token: null });
    const after = await scrape();
    for (const [method, , view] of calls) {
      const labels = { view, method, transport: 'http' };
      expect(after.value(VIEW_REQUESTS, labels) - before.value(VIEW_REQUESTS, labels), view).toBe(1);
    }
  });

  it('counts every unrouted request under one view and one route, whatever the path', async () => {
    await t.get(`/${uniq('warm')}`);
    const before = await scrape();
    const paths = Array.from({ length: 20 }, (_, i) => `/${uniq('nowhere')}/${i}`);
    for (const p of paths) expect((await t.get(p)).statusCode).toBe(404);
    expect((await t.get('/api/dcim/sites')).statusCode).toBe(302); // trailing-slash redirect: no route either
    const after = await scrape();
    const labels = { view: '<unnamed view>', method: 'GET', transport: 'http' };
    expect(after.value(VIEW_REQUESTS, labels) - before.value(VIEW_REQUESTS, labels)).toBe(21);
    expect(after.labelValues(VIEW_REQUESTS, 'view')).toEqual(before.labelValues(VIEW_REQUESTS, 'view'));
    const routes = after.labelValues('inventory_http_request_duration_seconds_count', 'route');
    expect(routes).toEqual(before.labelValues('inventory_http_request_duration_seconds_count', 'route'));
    expect(routes.has('<unrouted>')).toBe(true);
    for (const p of paths) expect(after.samples.some((s) => Object.values(s.labels).includes(p))).toBe(false);
  });

  it('counts an unhandled error by its type and view, and not the errors answered on purpose', async () => {
    const before = await scrape();
    expect((await t.get('/test-boom/')).statusCode).toBe(500);
    expect((await t.get('/api/dcim/sites/999999999/')).statusCode).toBe(404);
    const after = await scrape();
    const moved = (name: string, labels: Record<string, string>) =>
      after.value(name, labels) - before.value(name, labels);
    expect(moved('django_http_exceptions_total_by_type_total', { type: 'RangeError' })).toBe(1);
    expect(moved('django_http_exceptions_total_by_type_total', {})).toBe(1);
    expect(moved('django_http_exceptions_total_by_view_total', { view: 'test-boom' })).toBe(1);
    expect(moved(STATUS_VIEW, { view: 'test-boom', method: 'GET', status: '500' })).toBe(1);
  });

  it('keeps one registry per app: another app on the same database has its own request series', async () => {
    const other = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db: t.db });
    try {
      const view = { view: 'tenancy-api:tenant-list', method: 'GET', transport: 'http' };
      const read = async () =>
        parseExposition((await other.inject({ method: 'GET', url: '/metrics' })).body).value(VIEW_REQUESTS, view);
      const before = await read();
      expect((await t.get('/api/tenancy/tenants/')).statusCode).toBe(200);
      expect(await read()).toBe(before);
      const own = await other.inject({
        method: 'GET',
        url: '/api/tenancy/tenants/',
        headers: { authorization: `Token ${t.token}` },
      });
      expect(own.statusCode).toBe(200);
      expect(await read()).toBe(before + 1);
    } finally {
      await other.close();
    }
  });
});

describe('settings', () => {
  it('METRICS_ENABLED=false: /metrics is a JSON 404 and writes are not counted', async () => {
    const off = await makeTestApp({ METRICS_ENABLED: 'false' });
    try {
      const res = await off.request('GET', '/metrics', { token: null });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ detail: 'Not found.' });
      expect(res.headers['x-request-id']).toBeDefined();
      expect(off.app.inventory.modelWrites).toBeNull();
    } finally {
      await off.close();
    }
  });

  it('LOGIN_REQUIRED: the API wants a token, /metrics does not', async () => {
    const locked = await makeTestApp({ LOGIN_REQUIRED: 'true' });
    try {
      expect((await locked.request('GET', '/api/dcim/sites/', { token: null })).statusCode).toBe(403);
      const res = await locked.request('GET', '/metrics', { token: null });
      expect(res.statusCode).toBe(200);
      expect(parseExposition(res.body).types.get('django_db_execute_total')).toBe('counter');
    } finally {
      await locked.close();
    }
  });
});
