/**
 * The README's catalogue table lists every model the API serves (issue 14: "the README's catalogue
 * table lists every app and model"): a model added without its row turns this red.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { registerAllModels } from '../../src/apps/index.js';
import { Registry } from '../../src/core/model/registry.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const section = readme.slice(
  readme.indexOf('## Catalogue'),
  readme.indexOf('\n## ', readme.indexOf('## Catalogue') + 1),
);
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

describe('README catalogue', () => {
  it('has a row per app naming every model path of that app', () => {
    const missing = registry
      .all()
      .filter((m) => !rows.get(m.app)?.has(m.path))
      .map((m) => `${m.app}/${m.path}`);
    expect(missing).toEqual([]);
  });
});
