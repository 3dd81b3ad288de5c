import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp, uniq } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('POST /api/dcim/sites/', () => {
  it('creates a site and answers 201 with Location', async () => {
    const name = uniq('site');
    const res = await t.post('/api/dcim/sites/', { name, slug: name, status: 'planned' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.name).toBe(name);
    expect(body.status).toEqual({ value: 'planned', label: 'Planned' });
    expect(res.headers.location).toBe(`http://localhost:80/api/dcim/sites/${body.id}/`);
    expect(body.created).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(body.last_updated).toMatch(/Z$/);
  });
});
