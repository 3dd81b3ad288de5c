/**
 * The benchmark's run list (bench/args.ts) and the comparison of the scale data set with the
 * standard one (bench/report-scale.ts): what `npm run bench -- --standard-set` promises to run and
 * print, without running anything.
 */
import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../bench/args.js';
import type { EngineReport } from '../../bench/report.js';
import { scaleComparison } from '../../bench/report-scale.js';
import type { ScenarioResult } from '../../bench/scenarios.js';

describe('bench args: runs', () => {
  it('--standard-set runs standard with the cache off and on, then scale with it off, on PostgreSQL', () => {
    const a = parseArgs(['--standard-set']);
    expect(a.runs).toEqual([
      { dataset: 'standard', responseCache: false },
      { dataset: 'standard', responseCache: true },
      { dataset: 'scale', responseCache: false },
    ]);
    expect(a.engines).toEqual(['postgres']);
  });

  it('runs each data set of a comma list with each cache setting', () => {
    expect(parseArgs(['--dataset', 'standard,scale', '--cache', 'both']).runs).toEqual([
      { dataset: 'standard', responseCache: false },
      { dataset: 'standard', responseCache: true },
      { dataset: 'scale', responseCache: false },
      { dataset: 'scale', responseCache: true },
    ]);
  });

  it('keeps the old flags: one data set, --no-response-cache, both engines', () => {
    const a = parseArgs(['--dataset', 'ipam', '--no-response-cache']);
    expect(a.runs).toEqual([{ dataset: 'ipam', responseCache: false }]);
    expect(a.dataset).toBe('ipam');
    expect(a.responseCache).toBe(false);
    expect(a.engines).toEqual(['postgres', 'pglite']);
    expect(parseArgs([]).runs).toEqual([{ dataset: 'sites', responseCache: true }]);
  });

  it('refuses the scale data set on PGlite and unknown data sets', () => {
    expect(() => parseArgs(['--dataset', 'scale', '--engine', 'pglite'])).toThrow(/PostgreSQL/);
    expect(() => parseArgs(['--dataset', 'standard,huge'])).toThrow(/huge/);
    expect(() => parseArgs(['--cache', 'sometimes'])).toThrow(/--cache/);
  });

  it('refuses a flag it does not know, rather than running the default', () => {
    expect(() => parseArgs(['--issue15'])).toThrow(/unknown flag --issue15/);
    expect(() => parseArgs(['--durations=5'])).toThrow(/unknown flag --durations/);
    expect(parseArgs(['--duration=5', '--only', 'sites']).duration).toBe(5);
  });
});

function report(dataset: string, responseCache: boolean, p50: Record<string, number>): EngineReport {
  // a p50 of 0: no request finished
  const scenarios = Object.entries(p50).map(
    ([name, ms]) =>
      ({
        name,
        title: `${name} title`,
        latencyP50Ms: ms,
        reqPerSecMean: ms ? 1000 / ms : 0,
        requests: ms ? 100 : 0,
      }) as ScenarioResult,
  );
  return {
    engine: 'postgres',
    date: '',
    machine: { cpus: 2, model: '', node: '', loadAvg1: 0 },
    dataset,
    summary: `${dataset} summary`,
    durationSec: 5,
    responseCache,
    metrics: true,
    seed: [],
    scenarios,
    note: '',
  };
}

describe('bench report: scale against standard', () => {
  it('gives each request the ratio of scale p50 to the standard p50 of the same cache setting', () => {
    const lines = scaleComparison([
      report('standard', false, { sites: 10, 'ip-search': 20 }),
      report('standard', true, { sites: 1, 'ip-search': 1 }),
      report('scale', false, { sites: 15, 'ip-search': 50 }),
    ]).join('\n');
    expect(lines).toMatch(/sites title .*\| +1\.50x \| within 2x/);
    expect(lines).toMatch(/ip-search title .*\| +2\.50x \| ABOVE 2x/);
    expect(lines).toContain('standard cache on req/s');
  });

  it('flags a request that never finished at scale instead of giving it a ratio of 0', () => {
    const lines = scaleComparison([
      report('standard', false, { 'ip-search': 20 }),
      report('scale', false, { 'ip-search': 0 }),
    ]).join('\n');
    expect(lines).toMatch(/ip-search title .*\| +- \| NO REQUEST FINISHED/);
  });

  it('says so when no standard run sits beside the scale run, and prints nothing without a scale run', () => {
    expect(scaleComparison([report('scale', false, { sites: 15 })]).join('\n')).toMatch(
      /no standard run with the cache off/,
    );
    expect(scaleComparison([report('standard', false, { sites: 10 })])).toEqual([]);
  });
});
