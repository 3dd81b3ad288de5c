/**
 * Every model's web hints (ModelDef.ui, core/model/ui-hints.ts) name only what exists: columns are
 * representation keys, group, clone and formExclude names are field keys, picker filters are REST
 * filters of the picked model taken from fields of the same form, related links are REST filters of
 * registered models. resolveFilter is what the list query and the OpenAPI document use, so a filter
 * accepted here is one the REST list really has.
 */
import { describe, expect, it } from 'vitest';
import { registerAllModels } from '../../src/apps/index.js';
import { Registry } from '../../src/core/model/registry.js';
import type { ModelDef } from '../../src/core/model/types.js';
import { resolveFilter } from '../../src/core/query/filters.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();

/** what is wrong with a model's hints, one line each; empty when nothing is */
function hintProblems(m: ModelDef, reg: Registry): string[] {
  const ui = m.ui;
  if (!ui) return [];
  const out: string[] = [];
  const isField = (k: string) => Object.hasOwn(m.fields, k);
  const isColumn = (k: string) =>
    (isField(k) && !m.fields[k]!.writeOnly) ||
    Object.hasOwn(m.counts, k) ||
    k === 'display' ||
    k === 'id' ||
    (m.timestamps && (k === 'created' || k === 'last_updated'));
  const dupes = (what: string, keys: string[]) => {
    for (const k of new Set(keys.filter((k, i) => keys.indexOf(k) !== i))) out.push(`${what} ${k} named twice`);
  };

  for (const c of ui.columns ?? []) if (!isColumn(c)) out.push(`column ${c} is not a representation key`);
  dupes('column', ui.columns ?? []);
  for (const g of ui.groups ?? []) {
    for (const f of g.fields) if (!isField(f)) out.push(`group '${g.title}' field ${f} is not a field`);
  }
  dupes(
    'group field',
    (ui.groups ?? []).flatMap((g) => g.fields),
  );
  for (const f of ui.clone ?? []) if (!isField(f)) out.push(`clone field ${f} is not a field`);
  for (const f of ui.formExclude ?? []) if (!isField(f)) out.push(`formExclude ${f} is not a field`);
  for (const [key, attr] of Object.entries(ui.importRefs ?? {})) {
    const f = m.fields[key];
    if (!f || (f.kind !== 'fk' && f.kind !== 'm2m')) out.push(`importRefs ${key} is not an fk or m2m field`);
    else if (attr !== 'id' && !Object.hasOwn(reg.get(f.to!).fields, attr))
      out.push(`importRefs ${key}: ${f.to} has no field ${attr}`);
  }

  for (const [key, filters] of Object.entries(ui.pickerFilters ?? {})) {
    const f = m.fields[key];
    if (!f || (f.kind !== 'fk' && f.kind !== 'm2m')) {
      out.push(`pickerFilters ${key} is not an fk or m2m field`);
      continue;
    }
    const target = reg.get(f.to!);
    for (const [param, from] of Object.entries(filters)) {
      if (!isField(from)) out.push(`pickerFilters ${key}: ${param} takes ${from}, not a field`);
      if (!resolveFilter(target, param)) out.push(`pickerFilters ${key}: ${target.name} has no filter ${param}`);
    }
  }

  for (const f of ui.filters ?? []) if (!resolveFilter(m, f.name)) out.push(`filter ${f.name} is not a filter`);
  for (const [col, via] of Object.entries(ui.linkColumns ?? {}))
    if (!isColumn(col) || !isField(via)) out.push(`linkColumns ${col} -> ${via}: not a column and a field`);
  for (const r of ui.related ?? []) {
    const target = reg.find(r.model);
    if (!target) out.push(`related ${r.model} is not registered`);
    else if (!resolveFilter(target, r.param)) out.push(`related ${r.model} has no filter ${r.param}`);
  }
  dupes(
    'tab',
    (ui.tabs ?? []).map((t) => t.slug),
  );
  for (const t of ui.tabs ?? []) {
    const target = reg.find(t.model);
    if (!target) {
      out.push(`tab ${t.slug}: ${t.model} is not registered`);
      continue;
    }
    if (!resolveFilter(target, t.param)) out.push(`tab ${t.slug}: ${t.model} has no filter ${t.param}`);
    if (t.countKey && !Object.hasOwn(m.counts, t.countKey)) out.push(`tab ${t.slug}: ${t.countKey} is not a count`);
    for (const f of Object.keys(t.filters ?? {}))
      if (!resolveFilter(target, f)) out.push(`tab ${t.slug}: ${t.model} has no filter ${f}`);
    const targetColumn = (k: string) =>
      (Object.hasOwn(target.fields, k) && !target.fields[k]!.writeOnly) ||
      Object.hasOwn(target.counts, k) ||
      k === 'display' ||
      k === 'id';
    for (const c of t.columns ?? [])
      if (!targetColumn(c)) out.push(`tab ${t.slug}: column ${c} is not a column of ${t.model}`);
  }
  return out;
}

describe('model web hints', () => {
  it('name only fields, counts and filters that exist, for every registered model', () => {
    const problems = registry.all().flatMap((m) => hintProblems(m, registry).map((p) => `${m.name}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('the check finds bad hints', () => {
    const site = registry.get('dcim.site');
    const bad: ModelDef = {
      ...site,
      ui: {
        columns: ['name', 'no_such_column', 'name'],
        groups: [{ title: 'Site', fields: ['name', 'no_such_field'] }],
        clone: ['status', 'rack'],
        formExclude: ['nope'],
        pickerFilters: {
          status: { site_id: 'site' },
          region: { no_such_filter: 'group', parent_id: 'no_such_field' },
        },
        related: [
          { model: 'dcim.nosuchmodel', param: 'site_id' },
          { model: 'dcim.rack', param: 'no_such_filter' },
        ],
        tabs: [
          { slug: 'racks', model: 'dcim.rack', param: 'site_id', countKey: 'rack_count', columns: ['name', 'nope'] },
          { slug: 'racks', model: 'dcim.rack', param: 'no_such_filter', countKey: 'no_count', filters: { nope: '1' } },
          { slug: 'x', model: 'dcim.nosuchmodel', param: 'site_id' },
        ],
      },
    };
    expect(hintProblems(bad, registry)).toEqual([
      'column no_such_column is not a representation key',
      'column name named twice',
      "group 'Site' field no_such_field is not a field",
      'clone field rack is not a field',
      'formExclude nope is not a field',
      'pickerFilters status is not an fk or m2m field',
      'pickerFilters region: dcim.region has no filter no_such_filter',
      'pickerFilters region: parent_id takes no_such_field, not a field',
      'related dcim.nosuchmodel is not registered',
      'related dcim.rack has no filter no_such_filter',
      'tab racks named twice',
      'tab racks: column nope is not a column of dcim.rack',
      'tab racks: dcim.rack has no filter no_such_filter',
      'tab racks: no_count is not a count',
      'tab racks: dcim.rack has no filter nope',
      'tab x: dcim.nosuchmodel is not registered',
    ]);
    // a write-only field is no column (the representation leaves it out)
    const module = registry.get('dcim.module');
    expect(hintProblems({ ...module, ui: { columns: ['replicate_components'] } }, registry)).toEqual([
      'column replicate_components is not a representation key',
    ]);
  });

  it('most models with a NetBox page have hints', () => {
    const hinted = registry.all().filter((m) => m.ui);
    expect(hinted.length).toBeGreaterThanOrEqual(90);
    for (const m of hinted) expect(m.ui!.columns?.length, m.name).toBeGreaterThan(0);
    expect(registry.get('dcim.site').ui!.columns!.slice(0, 6)).toEqual([
      'name',
      'status',
      'facility',
      'region',
      'group',
      'tenant',
    ]);
    expect(registry.get('dcim.device').ui!.pickerFilters!.rack).toEqual({ site_id: 'site', location_id: 'location' });
    expect(registry.get('dcim.consoleserverport').ui).toEqual(registry.get('dcim.consoleport').ui);
    expect(registry.get('dcim.region').ui!.related).toContainEqual({ model: 'dcim.site', param: 'region_id' });
    expect(registry.get('dcim.sitegroup').ui!.related).toContainEqual({ model: 'dcim.site', param: 'group_id' });
  });
});
