/**
 * The copy's order (src/import-netbox/plan.ts) for every model of both dialects: each model is
 * either planned or skipped with a reason, and no planned type comes before a type it requires
 * (a reference that cannot wait for the second pass), so a model added with a new cycle of
 * required references fails here rather than in a user's copy.
 */
import { describe, expect, it } from 'vitest';
import { allModels } from '../../src/apps/index.js';
import { DIALECTS, servedIn } from '../../src/core/model/dialect.js';
import { importPlan } from '../../src/import-netbox/plan.js';
import { levels } from '../../src/import-netbox/levels.js';

const { registry } = allModels();

describe.each(DIALECTS)('the import plan in the %s dialect', (dialect) => {
  const { steps, skipped } = importPlan(registry, dialect);
  const at = new Map(steps.map((s, i) => [s.model.name, i]));

  it('plans or skips, with a reason, every model the dialect serves', () => {
    const served = registry
      .all()
      .filter((m) => servedIn(m, dialect))
      .map((m) => m.name);
    expect([...steps.map((s) => s.model.name), ...skipped.map((s) => s.model)].sort()).toEqual(served.sort());
    for (const s of skipped) expect(s.reason.length).toBeGreaterThan(5);
  });

  it('puts each type after what it requires, and defers only nullable references', () => {
    for (const [i, step] of steps.entries()) {
      for (const [key, f] of Object.entries(step.model.fields)) {
        if (f.kind !== 'fk' || f.readOnly || !f.to || f.to === step.model.name || !at.has(f.to)) continue;
        if (step.deferred.has(key)) expect(f.nullable, `${step.model.name}.${key}`).toBe(true);
        else expect(at.get(f.to), `${step.model.name}.${key} -> ${f.to}`).toBeLessThan(i);
      }
    }
    // the cycles NetBox's models are known for are broken where they can wait
    expect(steps.find((s) => s.model.name === 'dcim.device')!.deferred).toContain('primary_ip4');
    expect(at.get('dcim.cable')).toBeGreaterThan(at.get('dcim.interface')!);
    expect(at.get('extras.customfield')).toBeLessThan(at.get('dcim.site')!);
  });
});

describe('levels of a type that refers to itself', () => {
  it('puts parents first and reports a loop', () => {
    const reps = [
      { id: 3, parent: { id: 2 } },
      { id: 2, parent: { id: 1 } },
      { id: 1, parent: null },
      { id: 4, parent: { id: 99 } },
    ];
    const out = levels(reps, ['parent']);
    expect(out.levels.map((l) => l.map((r) => r.id))).toEqual([[1, 4], [2], [3]]);
    expect(
      levels(
        [
          { id: 1, lag: 2 },
          { id: 2, lag: 1 },
        ],
        ['lag'],
      ).looped.map((r) => r.id),
    ).toEqual([1, 2]);
  });
});
