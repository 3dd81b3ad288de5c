import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
}, 60_000);
afterAll(async () => t?.close());

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

describe('GET /graphql/ from a browser', () => {
  it('serves GraphiQL from the service itself, with no inline script, under a self-only policy', async () => {
    const res = await t.request('GET', '/graphql/', { headers: { accept: BROWSER }, token: null });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:/);
    expect(String(res.headers['set-cookie'])).toMatch(/csrftoken=/);
    expect(res.body).not.toMatch(/<script>|<script(?![^>]*\ssrc=)[^>]*>|https?:\/\//);
    const scripts = [...res.body.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBe(6);
    for (const src of scripts) {
      const asset = await t.request('GET', src.replace(/&amp;/g, '&'), { token: null });
      expect(asset.statusCode, src).toBe(200);
      expect(asset.body.length, src).toBeGreaterThan(50);
    }
    expect((await t.request('GET', '/static/../package.json', { token: null })).statusCode).toBe(404);
  });

  it('is linked from the home page', async () => {
    const res = await t.request('GET', '/', { headers: { accept: BROWSER } });
    expect(res.body).toContain('href="/graphql/"');
  });

  it('answers API clients with JSON at the same URL', async () => {
    const res = await t.request('GET', `/graphql/?query=${encodeURIComponent('{ __typename }')}`, {
      headers: { accept: '*/*' },
    });
    expect(res.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
