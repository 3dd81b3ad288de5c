/**
 * Contract in NetBox 4.4's dialect: every writable model, created, read (list, detail, brief),
 * updated and deleted by a client speaking 4.4, each answer valid against the 4.4 OpenAPI document
 * (the harness checks it), with 4.4's own keys: display_url on full objects, the brief form the
 * model declares for 4.4 (core/model/dialect.ts) and nested objects in 4.4's brief form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRender } from '../../src/core/represent/plan.js';
import type { TestApp } from '../helpers/app.js';
import { createOne, defOf, detailPath, getJson, makeContractApp, resolve } from './harness.js';
import { type Json, WRITABLE } from './models.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeContractApp('4.4');
});
afterAll(async () => t.close());

describe.each(WRITABLE)('$model in the 4.4 dialect', (c) => {
  const def = defOf(c);

  it('is written, read in every form and deleted as NetBox 4.4 shows it', async () => {
    const made = await createOne(t, c);
    expect(made.display_url).toBe(String(made.url).replace('/api/', '/'));
    const detail = await getJson(t, detailPath(c, made.id));
    expect(Object.keys(detail).slice(0, 3)).toEqual(['id', 'url', 'display_url']);
    const brief = await getJson(t, `${c.path}?id=${made.id}&brief=1`);
    const plan = planRender(def, 'brief', { dialect: '4.4' });
    const shown = (brief.results as Json[])[0]!;
    expect(Object.keys(shown)).toEqual([
      'id',
      'url',
      // 4.4's prefix brief has display too (the spec's exception is 3.4's)
      'display',
      ...plan.names.filter((k) => k in shown),
      ...Object.keys(shown).filter((k) => !['id', 'url', 'display', ...plan.names].includes(k)),
    ]);
    // every brief key the model declares for 4.4 is there (a key the row lacks would vanish silently)
    for (const k of plan.names) expect(shown, `${c.model} brief ${k}`).toHaveProperty(k);
    if (c.update) {
      const res = await t.patch(detailPath(c, made.id), resolve(c.update));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toHaveProperty('display_url');
    }
    const gone = await t.del(detailPath(c, made.id));
    expect([204, 409]).toContain(gone.statusCode);
  });
});
