/**
 * Every model's NetBox 4.4 brief form (Netbox44.brief, else 3.4's and the description) as
 * `?brief=1` renders it in 4.4: each key it names is there, under its 4.4 name, and nothing else
 * but id, url and display. A key that is neither a field, a count nor a value the represent hook
 * adds would otherwise be left out without a word.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllModels } from '../../../src/apps/index.js';
import { wireName } from '../../../src/core/model/dialect.js';
import { Registry } from '../../../src/core/model/registry.js';
import type { ModelDef } from '../../../src/core/model/types.js';
import { createOne } from '../../contract/harness.js';
import { CONTRACT } from '../../contract/models.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { inDialect44 } from '../../factories/index.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

/** the brief form's keys besides id, url and display, as 4.4 names them */
function brief44(model: ModelDef): string[] {
  const declared = model.netbox44?.brief;
  const keys =
    declared ??
    ('description' in model.fields && !model.brief.includes('description')
      ? [...model.brief, 'description']
      : model.brief);
  return keys.map((k) => wireName(model, k, '4.4'));
}

describe('4.4 brief forms', () => {
  it('cover every registered model', () => {
    const covered = new Set(CONTRACT.map((c) => c.model));
    expect(
      registry
        .all()
        .filter((m) => !covered.has(m.name))
        .map((m) => m.name),
    ).toEqual([]);
  });

  for (const c of CONTRACT) {
    it(`${c.model}`, async () => {
      const model = registry.get(c.model);
      // a model only NetBox 4 has is made in 4.4
      const api = c.dialect ? inDialect44(t) : t;
      let id: number | undefined;
      if (c.readOnly || !c.create) {
        await c.seed?.({ t: api });
        id = (await api.get(`${c.path}?limit=1`)).json().results[0]?.id;
      } else {
        id = (await createOne(api, c)).id as number;
      }
      // a read-only model with nothing to show has nothing to check
      if (id === undefined) return;
      const res = await t.request('GET', `${c.path}?brief=1&id=${id}`, { headers: V44 });
      expect(res.statusCode, res.body).toBe(200);
      const [obj] = res.json().results;
      expect(Object.keys(obj)).toEqual(['id', 'url', 'display', ...brief44(model)]);
    });
  }
});
