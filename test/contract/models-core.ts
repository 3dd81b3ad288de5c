/**
 * Contract rows for the core app (NetBox 3.7: data sources, data files, jobs; brief fields from its
 * nested serializers). Data files and jobs are read-only: their seeds sync a data source over a
 * temporary directory, which makes both. Spread into CONTRACT by models.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { uniq } from '../factories/make.js';
import { makeTempDir } from '../helpers/temp-dirs.js';
import { type ContractCase, type ContractContext, created } from './contract-case.js';

/**
 * a fresh directory with a few files, removed when the test app closes (or, for a PATCH that has
 * no app at hand, when the test process exits)
 */
function sourceDir(ctx?: ContractContext): string {
  const dir = ctx ? ctx.t.tempDir('inv-contract-ds-') : makeTempDir('inv-contract-ds-');
  for (const name of ['a.yaml', 'b.json', 'c.txt']) writeFileSync(join(dir, name), `${name} ${uniq('content')}`);
  return dir;
}

/** a data source synced `times` times: three data files, `times` jobs */
async function syncedSource(ctx: ContractContext, times: number): Promise<void> {
  const ds = await created(ctx, '/api/core/data-sources/', {
    name: uniq('ds'),
    type: 'local',
    source_url: sourceDir(ctx),
  });
  for (let i = 0; i < times; i++) {
    const res = await ctx.t.post(`/api/core/data-sources/${ds.id}/sync/`, {});
    if (res.statusCode !== 200) throw new Error(`sync answered ${res.statusCode}: ${res.body}`);
  }
}

export const CORE_CONTRACT: ContractCase[] = [
  {
    model: 'core.datasource',
    path: '/api/core/data-sources/',
    required: ['name', 'type', 'source_url'],
    sameTwice: 'refused',
    create: async (ctx) => ({
      name: uniq('ds'),
      type: 'local',
      source_url: sourceDir(ctx),
      description: 'contract',
      ignore_rules: '*.bak',
    }),
    update: { description: 'updated by contract', enabled: false },
    altUpdate: () => ({ source_url: `file://${sourceDir()}`, comments: 'moved', parameters: { note: 'x' } }),
    invalid: { type: 'bogus' },
    briefFields: ['name'],
  },
  {
    model: 'core.datafile',
    path: '/api/core/data-files/',
    readOnly: true,
    seed: (ctx) => syncedSource(ctx, 1),
    briefFields: ['path'],
  },
  {
    model: 'core.job',
    path: '/api/core/jobs/',
    readOnly: true,
    seed: (ctx) => syncedSource(ctx, 3),
    briefFields: ['created', 'completed', 'user', 'status'],
  },
];
