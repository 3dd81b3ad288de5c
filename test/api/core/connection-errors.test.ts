/**
 * Errors raised before routing: unknown methods, malformed request lines, headers too
 * large, CONNECT, unmet expectations, bad URLs and bodies too large answer a JSON body in
 * NetBox's shape with X-Request-ID and API-Version; an answer after which the connection closes
 * says `Connection: close` and closes it without a reset, and one that keeps it lets the next
 * request of a keep-alive client through. These need a real socket: the app listens on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { connect, listenOnLoopback, type RawResponse } from '../../helpers/raw-http.js';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const BODY_LIMIT = 4096;

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await makeTestApp({ MAX_BODY_SIZE: String(BODY_LIMIT) });
  port = await listenOnLoopback(t.app);
});
afterAll(async () => t.close());

const auth = () => `Authorization: Token ${t.token}\r\n`;
const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${auth()}\r\n`;

/** NetBox's error body and the headers every response carries */
function expectApiError(res: RawResponse, status: number, detail: string | RegExp): void {
  expect(res.status, res.body).toBe(status);
  expect(res.headers['x-request-id']).toMatch(UUID_RE);
  expect(res.headers['api-version']).toBe('3.4');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as { detail: string };
  expect(Object.keys(body)).toEqual(['detail']);
  if (typeof detail === 'string') expect(body.detail).toBe(detail);
  else expect(body.detail).toMatch(detail);
}

/** Sends bytes on a new connection; expects one answer, `Connection: close`, and a clean close even if the client goes on sending. */
async function closingAnswer(bytes: string | Buffer, trailing = ''): Promise<RawResponse> {
  const c = connect(port);
  await c.send(bytes);
  const res = await c.response();
  expect(res.headers.connection).toBe('close');
  // a client still sending is read and dropped, not reset
  if (trailing) await c.send(trailing);
  c.end();
  expect(await c.closed).toEqual({ reset: false });
  return res;
}

/** Sends bytes then a good request on the same connection; expects both answered, the connection kept. */
async function keptAnswer(bytes: string): Promise<RawResponse> {
  const c = connect(port);
  await c.send(bytes);
  const res = await c.response();
  expect(res.headers.connection).not.toBe('close');
  await c.send(get('/api/'));
  const next = await c.response();
  expect(next.status).toBe(200);
  expect(JSON.parse(next.body)).toHaveProperty('dcim');
  c.end();
  expect(await c.closed).toEqual({ reset: false });
  return res;
}

describe('methods', () => {
  it('answers a method Node does not know with 405 and the Allow of the path, then closes', async () => {
    const res = await closingAnswer(`FOO /api/dcim/sites/ HTTP/1.1\r\nHost: localhost\r\n\r\n`, get('/api/'));
    expectApiError(res, 405, 'Method "FOO" not allowed.');
    expect(res.headers.allow).toBe('GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS');
    const nowhere = await closingAnswer(`BREW /no/such/path/ HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expectApiError(nowhere, 404, 'Not found.');
  });

  it('answers a method known to HTTP but routed nowhere with 405 and keeps the connection', async () => {
    const res = await keptAnswer(`PROPFIND /api/dcim/sites/1/ HTTP/1.1\r\nHost: localhost\r\n${auth()}\r\n`);
    expectApiError(res, 405, 'Method "PROPFIND" not allowed.');
    expect(res.headers.allow).toBe('GET, PUT, PATCH, DELETE, HEAD, OPTIONS');
    const write = await keptAnswer(`DELETE /api/extras/object-changes/ HTTP/1.1\r\nHost: localhost\r\n${auth()}\r\n`);
    expectApiError(write, 405, 'Method "DELETE" not allowed.');
    expect(write.headers.allow).toBe('GET, HEAD, OPTIONS');
    // a fixed path takes its own Allow, not that of the parametric route beside it (tokens/:id/)
    const provision = await keptAnswer(`TRACE /api/users/tokens/provision/ HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    expectApiError(provision, 405, 'Method "TRACE" not allowed.');
    expect(provision.headers.allow).toBe('POST, OPTIONS');
  });

  it('answers CONNECT with 405 and closes', async () => {
    expectApiError(
      await closingAnswer('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 'more bytes'),
      405,
      'Method "CONNECT" not allowed.',
    );
  });
});

describe('requests the parser refuses', () => {
  it('answers a malformed request line with 400 and closes', async () => {
    expectApiError(await closingAnswer('GARBAGE\r\n\r\n', get('/api/')), 400, /^Malformed HTTP request/);
    expectApiError(await closingAnswer('GET /api/ HTTP/9.9\r\n\r\n'), 400, /^Malformed HTTP request/);
  });

  it('answers headers too large with 431 and closes without a reset while the client goes on', async () => {
    const res = await closingAnswer(
      `GET /api/ HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'b'.repeat(50_000),
    );
    expectApiError(res, 431, 'Request header fields too large.');
  });

  it('answers a broken chunked body with 400 and closes', async () => {
    const bytes = `POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: localhost\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`;
    expectApiError(await closingAnswer(bytes), 400, /^Malformed HTTP request/);
  });

  it('answers a good request pipelined before a bad one first, then the error', async () => {
    const c = connect(port);
    await c.send(`${get('/api/dcim/sites/?limit=1')}FOO /api/ HTTP/1.1\r\nHost: localhost\r\n\r\n`);
    const first = await c.response();
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toHaveProperty('count');
    const second = await c.response();
    expectApiError(second, 405, 'Method "FOO" not allowed.');
    expect(second.headers.connection).toBe('close');
    expect(await c.closed).toEqual({ reset: false });
  });

  it('answers an expectation it cannot meet with 417 and closes', async () => {
    const bytes = `POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: localhost\r\n${auth()}Expect: tea\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n`;
    expectApiError(await closingAnswer(bytes, '{}'), 417, 'Expectation "tea" cannot be met.');
  });
});

describe('URLs the router refuses', () => {
  it('answers bad percent-encoding with 400 and keeps the connection', async () => {
    expectApiError(await keptAnswer(get('/api/dcim/sites/%zz/')), 400, /^Malformed URL/);
  });

  it('answers an id segment too long to be an id with 404 and keeps the connection', async () => {
    expectApiError(await keptAnswer(get(`/api/dcim/sites/${'9'.repeat(500)}/`)), 404, 'Not found.');
  });

  it('keeps the connection after an ordinary 4xx (unknown path, bad filter)', async () => {
    expectApiError(await keptAnswer(get('/api/no/such/thing/')), 404, 'Not found.');
    expect((await keptAnswer(get('/api/dcim/sites/?limit=x'))).status).toBe(400);
  });
});

describe('bodies too large (MAX_BODY_SIZE)', () => {
  it('answers 413 with Connection: close, announced by Content-Length or chunked', async () => {
    const json = `{"name": "${'x'.repeat(BODY_LIMIT)}"}`;
    const sized = `POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: localhost\r\n${auth()}Content-Type: application/json\r\nContent-Length: ${json.length}\r\n\r\n${json}`;
    expectApiError(await closingAnswer(sized), 413, 'Request body is too large.');
    const chunk = `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`;
    const chunked = `POST /api/tenancy/tenants/ HTTP/1.1\r\nHost: localhost\r\n${auth()}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunk}`;
    expectApiError(await closingAnswer(chunked), 413, 'Request body is too large.');
    expect((await t.get(`/api/tenancy/tenants/?name=${'x'.repeat(10)}`)).json().count).toBe(0);
  });
});
