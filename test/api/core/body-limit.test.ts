import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp({ MAX_BODY_SIZE: '2048' });
});
afterAll(async () => t.close());

it('answers an oversized body with 413 in the NetBox body shape', async () => {
  const res = await t.post('/api/tenancy/tenants/', { name: 'x', slug: 'x', description: 'y'.repeat(4096) });
  expect(res.statusCode).toBe(413);
  expect(res.json()).toEqual({ detail: 'Request body is too large.' });
  expect(res.headers['x-request-id']).toBeDefined();
});
