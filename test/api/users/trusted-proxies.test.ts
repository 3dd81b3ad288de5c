import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
let key: string;
beforeAll(async () => {
  t = await makeTestApp({ TRUSTED_PROXIES: '127.0.0.1,192.0.2.0/24' });
  const res = await t.post('/api/users/tokens/', { allowed_ips: ['10.0.0.0/8'] });
  key = res.json().key;
});
afterAll(async () => t.close());

const fromPeer = (remoteAddress: string, headers: Record<string, string>) =>
  t.app.inject({
    method: 'GET',
    url: '/api/dcim/sites/',
    remoteAddress,
    headers: { authorization: `Token ${key}`, ...headers },
  });

describe('client address headers', () => {
  it('believes X-Real-IP from a trusted proxy', async () => {
    expect((await fromPeer('192.0.2.7', { 'x-real-ip': '10.1.2.3' })).statusCode).toBe(200);
    expect((await fromPeer('127.0.0.1', { 'x-forwarded-for': '10.9.9.9, 192.0.2.7' })).statusCode).toBe(200);
  });

  it('ignores the headers from any other peer, so allowed_ips cannot be bypassed', async () => {
    const res = await fromPeer('198.51.100.9', { 'x-real-ip': '10.1.2.3', 'x-forwarded-for': '10.1.2.3' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ detail: 'Source IP 198.51.100.9 is not permitted to authenticate using this token.' });
  });
});
