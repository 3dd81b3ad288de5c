/**
 * A schema is generated per API dialect for every model it serves: each has `<name>(id:)` and
 * `<name>_list`, and on the demo network every list answers, asking every leaf field of its type,
 * with the objects and values REST shows in that dialect.
 */
import { getNamedType, type GraphQLObjectType, isLeafType, isObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildGraphqlSchema } from '../../../src/core/graphql/schema.js';
import { DIALECTS, servedIn } from '../../../src/core/model/dialect.js';
import { snakeName } from '../../../src/core/graphql/names.js';
import { loadDemoData } from '../../../src/demo-data.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import type { Json } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
  await loadDemoData(t.app, t.db, () => undefined);
}, 120_000);
afterAll(async () => t?.close());

/** REST's value in the form GraphQL gives it: ids as strings, choices as their raw value */
function restAsGraphql(key: string, v: unknown): unknown {
  if (key === 'id') return String(v);
  if (v && typeof v === 'object' && !Array.isArray(v) && 'value' in v && 'label' in v) return (v as Json).value;
  return v;
}

describe.each(DIALECTS)('GraphQL schema of the %s dialect', (dialect) => {
  const headers = { accept: `application/json; version=${dialect}` };

  it('has a single-object and a list field for every model the dialect serves, under NetBox names', () => {
    const schema = buildGraphqlSchema(t.app.inventory.registry, dialect);
    const fields = schema.getQueryType()!.getFields();
    for (const model of t.app.inventory.registry.all()) {
      expect(!!fields[snakeName(model)], model.name).toBe(servedIn(model, dialect));
      expect(!!fields[`${snakeName(model)}_list`], model.name).toBe(servedIn(model, dialect));
    }
    for (const name of [
      'site',
      'site_list',
      'ip_address_list',
      'vlan_group_list',
      'vm_interface_list',
      'device_type_list',
    ])
      expect(fields[name], name).toBeDefined();
    expect(schema.getMutationType()).toBeUndefined();
  });

  it("answers every model's list with every leaf field, as REST shows the objects", async () => {
    const schema = buildGraphqlSchema(t.app.inventory.registry, dialect);
    const registry = t.app.inventory.registry;
    let compared = 0;
    const mismatches = new Set<string>();
    for (const model of registry.all().filter((m) => servedIn(m, dialect))) {
      const list = schema.getQueryType()!.getFields()[`${snakeName(model)}_list`]!;
      const type = getNamedType(list.type) as GraphQLObjectType;
      expect(isObjectType(type)).toBe(true);
      const leaves = Object.values(type.getFields())
        .filter((f) => isLeafType(getNamedType(f.type)))
        .map((f) => f.name);
      const res = await t.request('POST', '/graphql/', {
        body: { query: `{ items: ${list.name} { ${leaves.join(' ')} } }` },
        headers,
      });
      expect(res.json().errors, model.name).toBeUndefined();
      const data = res.json().data;
      const rest = (await t.request('GET', `/api/${model.app}/${model.path}/?limit=1000`, { headers })).json();
      expect(
        data.items.map((o: Json) => o.id),
        model.name,
      ).toEqual(rest.results.map((o: Json) => String(o.id)));
      for (const [i, o] of (data.items as Json[]).entries()) {
        const r = rest.results[i] as Json;
        for (const key of leaves) {
          // a cable's ends are given as stored ({object_type, object_id}); their objects are reached through relations
          if (model.name === 'dcim.cable' && key.endsWith('_terminations')) continue;
          if (
            !(key in r) ||
            (r[key] &&
              typeof r[key] === 'object' &&
              !('value' in r[key]) &&
              key !== 'custom_fields' &&
              !Array.isArray(r[key]))
          )
            continue;
          if (JSON.stringify(o[key]) !== JSON.stringify(restAsGraphql(key, r[key])))
            mismatches.add(`${model.name}.${key}`);
          compared++;
        }
      }
    }
    expect([...mismatches]).toEqual([]);
    expect(compared).toBeGreaterThan(1000);
  }, 120_000);
});
