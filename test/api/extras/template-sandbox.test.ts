/**
 * Request-time templates run in the sandbox pool (core/templates/template-pool.ts): a template
 * that loops forever or grows without bound ends in a clear 400 of its own request, while other
 * requests, rendering ones included, are answered meanwhile; the pool serves renders afterwards.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, type Json, make, makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const configTemplate = (code: string) =>
  make(t, '/api/extras/config-templates/', { name: uniq('ct'), template_code: code });
const renderOf = (ct: Json, body: Json = {}) => t.post(`/api/extras/config-templates/${ct.id}/render/`, body);

describe('sandbox limits on request-time rendering', () => {
  it('stops a template that loops forever with a 400, and answers other requests meanwhile', {
    timeout: 30_000,
  }, async () => {
    const forever = await configTemplate(
      '{% for i in range(100000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}',
    );
    const quick = await configTemplate('hello {{ who }}');
    const site = await makeSite(t);
    await renderOf(quick, { who: 'warm' }); // the pool's first sandbox is up
    const started = Date.now();
    const looping = renderOf(forever);
    // while it loops: a plain read and another render are answered, well before the loop's limit
    const [read, other] = await Promise.all([t.get(`/api/dcim/sites/${site.id}/`), renderOf(quick, { who: 'world' })]);
    const meanwhile = Date.now() - started;
    expect(read.statusCode).toBe(200);
    expect(other.statusCode).toBe(200);
    expect(other.json().content).toBe('hello world');
    expect(meanwhile).toBeLessThan(3_000);
    const res = await looping;
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/ran longer than \d+ ms and was stopped/);
    // the stopped sandbox is replaced
    expect((await renderOf(quick, { who: 'again' })).json().content).toBe('hello again');
  });

  it('refuses an output of 100 MB with a 400, and renders afterwards', { timeout: 30_000 }, async () => {
    const big = await configTemplate('{% for i in range(10000) %}{{ chunk }}{% endfor %}');
    const res = await renderOf(big, { chunk: 'x'.repeat(10_000) });
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/larger than \d+ bytes|more memory than allowed/);
    const quick = await configTemplate('still {{ ok }}');
    expect((await renderOf(quick, { ok: 'fine' })).json().content).toBe('still fine');
  });

  it('cannot reach JavaScript internals from a template', async () => {
    const probe = await configTemplate("{{ ''.constructor.constructor('return process')() }}");
    const res = await renderOf(probe);
    expect(res.statusCode).toBe(400);
  });
});
