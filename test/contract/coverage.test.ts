/**
 * Keeps the contract table complete: every model in the registry has exactly one row, at its
 * registered path, with the right read-only flag and the data the generic suite needs.
 */
import { describe, expect, it } from 'vitest';
import { buildRegistry } from './harness.js';
import { CONTRACT } from './models.js';

const registry = buildRegistry();

describe('contract table', () => {
  it('has a row for every registered model', () => {
    const rows = new Set(CONTRACT.map((c) => c.model));
    const missing = registry
      .all()
      .map((m) => m.name)
      .filter((name) => !rows.has(name));
    expect(missing, 'models without a row in test/contract/models.ts').toEqual([]);
  });

  it('has no row for an unregistered model, and no model twice', () => {
    const names = CONTRACT.map((c) => c.model);
    expect(names.filter((n) => !registry.find(n))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(CONTRACT)('$model row matches its registration', (c) => {
    const def = registry.get(c.model);
    expect(c.path).toBe(`/api/${def.app}/${def.path}/`);
    expect(!!c.readOnly).toBe(def.readOnly);
    if (!c.readOnly) {
      expect(c.create, 'create').toBeTypeOf('function');
      expect(c.update, 'update').toBeDefined();
      expect(c.altUpdate, 'altUpdate').toBeDefined();
      expect(Object.keys(c.invalid ?? {}), 'invalid names one field').toHaveLength(1);
    }
  });
});
