/**
 * No input, however malformed, gives a 500: every field of every writable model gets hostile
 * values, every list gets hostile filter values, and each answer must be a 4xx in NetBox's shape
 * (or a success where the value is acceptable).
 *
 * About 45,000 requests, one after another: the models are dealt into SHARDS files (shard-N.test.ts)
 * so the workers share them, where one file was the longest of every CI step (1,186 s of a loaded
 * PGlite run whose next longest file took 250 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllModels } from '../../../../src/apps/index.js';
import { Registry } from '../../../../src/core/model/registry.js';
import type { ModelDef } from '../../../../src/core/model/types.js';
import { makeTestApp, type TestApp } from '../../../helpers/app.js';
import { uniq } from '../../../factories/index.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();

const HOSTILE: unknown[] = [
  null,
  true,
  -1,
  1.5,
  1e308,
  2 ** 63,
  '',
  '\u0000',
  'a\u0000b',
  [],
  [null],
  {},
  { id: { id: 1 } },
  'x'.repeat(5000),
  '2024-13-45',
  '../../etc/passwd',
  "'; drop table dcim_site; --",
  '💥',
  { slug: '\u0000' },
];
const HOSTILE_QUERY = ['%00', 'null', '99999999999999999999', '%27%3B--', '2024-02-30', '%E2%82%AC'];

const SHARDS = 4;

/** the requests a model costs, roughly: 19 per writable field, 24 per filter name */
const cost = (m: ModelDef) =>
  (m.readOnly ? 0 : Object.values(m.fields).filter((f) => !f.readOnly).length * 19) +
  (Object.keys(m.fields).length + Object.keys(m.filters).length) * 24;

/** The models of shard `n` (1..SHARDS): dealt round-robin from the costliest down, so shards weigh alike. */
function modelsOf(n: number): ModelDef[] {
  const dealt = [...registry.all()].sort((a, b) => cost(b) - cost(a) || a.name.localeCompare(b.name));
  return dealt.filter((_, i) => i % SHARDS === n - 1);
}

function expectClientAnswer(res: { statusCode: number; body: string }, what: string) {
  expect(res.statusCode, `${what} -> ${res.statusCode} ${res.body.slice(0, 300)}`).toBeLessThan(500);
  if (res.statusCode >= 400) expect(() => JSON.parse(res.body), what).not.toThrow();
}

/** The hostile bodies and filters of shard `n`'s models, on an app of its own. */
export function hostileInputShard(n: number): void {
  const models = modelsOf(n);
  let t: TestApp;
  beforeAll(async () => {
    t = await makeTestApp();
  });
  afterAll(async () => t.close());

  describe('hostile request bodies', () => {
    for (const model of models.filter((m) => !m.readOnly)) {
      it(`never answers 500 for ${model.name}`, { timeout: 180_000 }, async () => {
        const url = `/api/${model.app}/${model.path}/`;
        for (const [key, f] of Object.entries(model.fields)) {
          if (f.readOnly) continue;
          for (const v of HOSTILE) {
            const n = uniq('h');
            const body = { name: n, slug: n, username: n, password: 'pw', [key]: v };
            expectClientAnswer(await t.post(url, body), `POST ${url} ${key}=${JSON.stringify(v)?.slice(0, 40)}`);
          }
        }
        for (const raw of ['[', '{"a":', 'nul', '[1,2', '"\\ud800"', '{"a": 1}{', '1'.repeat(400)]) {
          expectClientAnswer(await t.request('POST', url, { body: raw }), `POST ${url} raw ${raw.slice(0, 20)}`);
        }
        for (const body of [[1], ['x'], [[]], [{ id: 'x' }], [{ id: 1.5 }], [{ id: -1 }], [{ id: 2 ** 60 }]]) {
          expectClientAnswer(await t.patch(url, body), `PATCH ${url} ${JSON.stringify(body)}`);
          expectClientAnswer(await t.del(url, body), `DELETE ${url} ${JSON.stringify(body)}`);
        }
        expectClientAnswer(await t.patch(`${url}99999999999999999999/`, {}), 'PATCH huge id');
      });
    }
  });

  describe('hostile filters', () => {
    for (const model of models) {
      it(`never answers 500 for ${model.name}`, { timeout: 180_000 }, async () => {
        const url = `/api/${model.app}/${model.path}/`;
        const names = new Set([
          'id',
          'q',
          'tag',
          'created',
          'last_updated',
          'ordering',
          'limit',
          'offset',
          'brief',
          'created_by_request',
          'cf_x',
        ]);
        for (const [key, f] of Object.entries(model.fields)) {
          names.add(key);
          if (f.kind === 'fk') names.add(`${key}_id`);
        }
        for (const k of Object.keys(model.filters)) names.add(k);
        for (const name of names) {
          for (const suffix of ['', '__n', '__ic', '__empty']) {
            for (const v of HOSTILE_QUERY) {
              expectClientAnswer(await t.get(`${url}?${name}${suffix}=${v}`), `GET ${url}?${name}${suffix}=${v}`);
            }
          }
        }
      });
    }
  });
}
