/**
 * The template sandbox process (core/events/sandbox.ts) and the request-time pool
 * (core/templates/template-pool.ts): a job stopped for its time limit fails alone (the job queued
 * behind it runs on the replacement process), and block whitespace follows the job's options.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { TemplateSandbox } from '../../src/core/events/sandbox.js';
import { createTemplatePool } from '../../src/core/templates/template-pool.js';

const FOREVER = '{% for i in range(100000) %}{% for j in range(1000) %}{% endfor %}{% endfor %}';
// long enough for a process to start on a loaded machine (the limit counts from the job's send)
const LIMITS = { timeoutMs: 2_000, maxOutputBytes: 1024, heapMb: 64 };
const sandbox = new TemplateSandbox(LIMITS);
const pool = createTemplatePool(LIMITS);
afterAll(async () => {
  await sandbox.close();
  await pool.close();
});

describe('TemplateSandbox', () => {
  it('fails only the job that ran too long; the next one runs on a new process', async () => {
    const loop = sandbox.render({ t: FOREVER }, {});
    const next = sandbox.render({ t: 'ok {{ x }}' }, { x: 1 });
    await expect(loop).rejects.toThrow(/ran longer than 2000 ms/);
    await expect(next).resolves.toEqual({ t: 'ok 1' });
  });

  it('refuses an output over its size limit', async () => {
    await expect(sandbox.render({ t: '{% for i in range(100) %}0123456789abcdef{% endfor %}' }, {})).rejects.toThrow(
      /larger than 1024 bytes/,
    );
  });

  it('trims blocks by default (webhooks), and as told otherwise', async () => {
    const code = 'a\n  {% if true %}\nb\n  {% endif %}\nc';
    expect((await sandbox.render({ t: code }, {})).t).toBe('a\nb\nc');
    expect(
      (await sandbox.render({ t: code }, {}, { whitespace: { trim_blocks: false, lstrip_blocks: false } })).t,
    ).toBe('a\n  \nb\n  \nc');
  });
});

describe('template pool', () => {
  it("renders with Jinja2's whitespace defaults, and beside a template that loops", async () => {
    // both sandboxes started
    await Promise.all([pool.render('1', {}), pool.render('2', {})]);
    const loop = pool.render(FOREVER, {});
    const started = Date.now();
    expect(await pool.render('a\n{% if true %}\nb{% endif %}', {})).toBe('a\n\nb');
    expect(Date.now() - started).toBeLessThan(1_500);
    await expect(loop).rejects.toThrow(/ran longer/);
  });
});
