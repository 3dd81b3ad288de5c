/**
 * The manual's catalogue table (docs/api.md, "Catalogue") lists every model the API serves: a model
 * added without its row turns this red.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registerAllModels } from '../../src/apps/index.js';
import { Registry } from '../../src/core/model/registry.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();

const manual = readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8');
const start = manual.indexOf('## Catalogue');
const end = manual.indexOf('\n## ', start + 1);
const section = manual.slice(start, end < 0 ? undefined : end);
/** app -> the API paths its row names in backquotes */
const rows = new Map(
  section
    .split('\n')
    .filter((l) => /^\| [a-z]+ \|/.test(l))
    .map((l) => {
      const [, app, models] = l.split('|').map((c) => c.trim());
      return [app!, new Set([...models!.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!))];
    }),
);

describe('the catalogue in docs/api.md', () => {
  it('has a row per app naming every model path of that app', () => {
    const missing = registry
      .all()
      .filter((m) => !rows.get(m.app)?.has(m.path))
      .map((m) => `${m.app}/${m.path}`);
    expect(missing).toEqual([]);
  });
});
