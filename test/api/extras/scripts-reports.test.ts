/**
 * NetBox 3.7's custom reports and scripts: this service runs no user Python modules, so the lists
 * are empty, every report or script is missing, and running one is refused with a reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, makeTestApp } from '../../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe.each(['reports', 'scripts'])('/api/extras/%s/', (kind) => {
  it('lists nothing, in the list envelope', async () => {
    const res = await t.get(`/api/extras/${kind}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ count: 0, next: null, previous: null, results: [] });
  });

  it('finds no <module>.<Class>', async () => {
    const res = await t.get(`/api/extras/${kind}/my_module.MyClass/`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.' });
  });

  it('refuses to run one with a 400 that says why; anonymously with a 403', async () => {
    const url =
      kind === 'reports' ? '/api/extras/reports/my_module.MyClass/run/' : '/api/extras/scripts/my_module.MyClass/';
    const res = await t.post(url, { data: {}, commit: true });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(
      new RegExp(`^Custom ${kind} are not supported: this service does not run user Python modules`),
    );
    expect((await t.post(url, {}, null)).statusCode).toBe(403);
  });

  it('is listed in the extras root', async () => {
    expect((await t.get('/api/extras/')).json()[kind]).toBe(`http://localhost:80/api/extras/${kind}/`);
  });
});
