/**
 * Foreign keys' `<fk>=` names NetBox does not declare (core/query/undeclared-fk-filters.ts): the
 * document serves no `<fk>=` name that NetBox 3.7.8's lists lack (netbox-filters.md), the list
 * names only real foreign keys, and the names are ignored on every engine, GraphQL included.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allModels } from '../../../src/apps/index.js';
import { undeclaredFkFilters } from '../../../src/core/query/undeclared-fk-filters.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { type Json, ids, make, makeDevice, makeDeviceType } from '../../factories/index.js';

let t: TestApp;
let doc: Json;
let doc44: Json;
beforeAll(async () => {
  t = await makeTestApp();
  doc = (await t.get('/api/schema/', null)).json();
  doc44 = (
    await t.request('GET', '/api/schema/', { token: null, headers: { accept: 'application/json; version=4.4' } })
  ).json();
});
afterAll(async () => t.close());

const { registry } = allModels();

function netboxFilterNames(): Map<string, Set<string>> {
  const md = readFileSync(new URL('../../fixtures/netbox-filters.md', import.meta.url), 'utf8');
  const out = new Map<string, Set<string>>();
  for (const line of md.split('\n')) {
    const m = /^- `([^`]+)`: (.*)$/.exec(line);
    if (m) out.set(m[1]!, new Set(m[2]!.split(', ').map((token) => token.trim().replace(/\[.*$/, ''))));
  }
  return out;
}

describe('the OpenAPI document', () => {
  it("lists a foreign key's `<fk>=` filter only where NetBox declares it", () => {
    const netbox = netboxFilterNames();
    const extra: string[] = [];
    let checked = 0;
    for (const model of registry.all()) {
      const path = `/api/${model.app}/${model.path}/`;
      const declared = netbox.get(path);
      if (!declared || !doc.paths[path]) continue;
      for (const p of doc.paths[path].get.parameters as Json[]) {
        const base = String(p.name).replace(/__n$/, '');
        if (model.fields[base]?.kind !== 'fk' || model.filters[base]) continue;
        checked++;
        if (!declared.has(base)) extra.push(`${path} ${p.name}`);
      }
    }
    expect(extra).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });

  it('keeps the `<fk>_id=` form of every name it leaves out, and says there that `<fk>=` is ignored', () => {
    for (const [name, key] of undeclaredFkFilters()) {
      const model = registry.get(name);
      expect(model.fields[key]?.kind, `${name}.${key}`).toBe('fk');
      // a field NetBox 4 added is filtered on in the document of the dialect showing it
      const params = (model.fields[key]!.dialect === '4.4' ? doc44 : doc).paths[`/api/${model.app}/${model.path}/`].get
        .parameters as Json[];
      const names = params.map((p) => p.name);
      expect(params.find((p) => p.name === `${key}_id`)?.description, `${name}.${key}`).toContain(
        `By ID only: \`${key}\` is not a filter and is ignored`,
      );
      expect(names, `${name}.${key}`).not.toContain(key);
      expect(names, `${name}.${key}`).not.toContain(`${key}__n`);
    }
    expect(undeclaredFkFilters().length).toBe(72);
  });
});

describe('an undeclared `<fk>=` name on a list', () => {
  it('is ignored whatever its value (an id, a name, nothing), and its `_id` form filters', async () => {
    const dt = await makeDeviceType(t);
    const console1 = await make(t, '/api/dcim/console-port-templates/', { device_type: dt.id, name: 'con0' });
    const all = ids((await t.get('/api/dcim/console-port-templates/?limit=0')).json());
    expect(all.length).toBeGreaterThan(0);
    for (const value of [String(dt.id), dt.slug, 'no-such-type', '']) {
      const res = await t.get(`/api/dcim/console-port-templates/?limit=0&device_type=${value}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(ids(res.json())).toEqual(all);
    }
    const byId = (await t.get(`/api/dcim/console-port-templates/?devicetype_id=${dt.id}`)).json();
    expect(ids(byId)).toEqual([console1.id]);
  });

  it('is no GraphQL argument either (NetBox 3.4 derives them from the same filter set)', async () => {
    const device = await makeDevice(t);
    const ok = (
      await t.post('/graphql/', { query: `{ device_list(id: "${device.id}", rack_id: "null") { id } }` })
    ).json();
    expect(ok.errors, JSON.stringify(ok.errors)).toBeUndefined();
    expect(ok.data.device_list).toEqual([{ id: String(device.id) }]);
    const res = (await t.post('/graphql/', { query: `{ device_list(rack: "${device.id}") { id } }` })).json();
    expect(res.errors?.[0]?.message).toMatch(/rack/);
  });
});
