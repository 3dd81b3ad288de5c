/**
 * The standard table in one place, when one invocation ran several data sets (`--standard-set`,
 * or `--dataset standard,scale --cache both`): per request, NetBox 3.7.8's req/s, the standard
 * data set's figures with the response cache off and on, and the scale data set's next to them
 * with the ratio of their median latencies, which should stay at 2x or less: a page of 50 costs
 * about the same whether the table holds a thousand rows or fifty times more.
 */
import type { EngineReport } from './report.js';
import type { ScenarioResult } from './scenarios.js';
import { NETBOX_REQ_PER_SEC } from './scenarios-standard.js';

/** the project's bound on scale p50 / standard p50: a page of 50 within 2x of the standard set's median */
export const SCALE_P50_RATIO_MAX = 2;

const byName = (rep: EngineReport | undefined, name: string): ScenarioResult | undefined =>
  rep?.scenarios.find((s) => s.name === name);

/** Lines to print after the per-run tables; none unless a scale run is among the reports. */
export function scaleComparison(reports: EngineReport[]): string[] {
  const lines: string[] = [];
  for (const scale of reports.filter((r) => r.dataset === 'scale' || r.dataset === 'internet')) {
    const standard = (cache: boolean) =>
      reports.find((r) => r.dataset === 'standard' && r.engine === scale.engine && r.responseCache === cache);
    const same = standard(scale.responseCache);
    const other = standard(!scale.responseCache);
    const cacheWord = (on: boolean) => `cache ${on ? 'on' : 'off'}`;
    const head = [
      'request',
      'NetBox 3.7.8 req/s',
      `standard ${cacheWord(scale.responseCache)} req/s`,
      'p50 ms',
      ...(other ? [`standard ${cacheWord(!scale.responseCache)} req/s`] : []),
      `scale ${cacheWord(scale.responseCache)} req/s`,
      'p50 ms',
      'p50 scale/standard',
      '',
    ];
    const rows = scale.scenarios.map((s) => {
      const base = byName(same, s.name);
      // no request finished within the run: its p50 of 0 would read as the best ratio of all
      const done = s.requests > 0;
      const ratio = done && base && base.latencyP50Ms > 0 ? s.latencyP50Ms / base.latencyP50Ms : null;
      const nb = NETBOX_REQ_PER_SEC[s.name];
      return [
        s.title,
        nb === undefined ? '' : nb.toFixed(1),
        base ? base.reqPerSecMean.toFixed(0) : '-',
        base ? base.latencyP50Ms.toFixed(1) : '-',
        ...(other ? [byName(other, s.name)?.reqPerSecMean.toFixed(0) ?? '-'] : []),
        s.reqPerSecMean.toFixed(0),
        s.latencyP50Ms.toFixed(1),
        ratio === null ? '-' : `${ratio.toFixed(2)}x`,
        !done ? 'NO REQUEST FINISHED' : ratio === null ? '' : ratio <= SCALE_P50_RATIO_MAX ? 'within 2x' : 'ABOVE 2x',
      ];
    });
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
    const line = (cells: string[]) =>
      cells
        .map((c, i) => (i === 0 || i === cells.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
        .join(' | ');
    const seed = scale.seed.find((x) => x.what === 'SQL load, all steps');
    lines.push(
      '',
      `== standard set, ${scale.engine}: the standard data set against the ${scale.dataset} data set (${scale.summary}), ${scale.durationSec} s per row`,
      line(head),
      widths.map((w) => '-'.repeat(w)).join('-|-'),
      ...rows.map(line),
      seed
        ? `${scale.dataset} seed (bulk SQL): ${seed.objects.toLocaleString('en')} rows in ${seed.seconds.toFixed(1)} s`
        : '',
      same
        ? ''
        : `no standard run with the ${cacheWord(scale.responseCache)} in this invocation: run with --standard-set for the ratios`,
    );
  }
  return lines.filter((l, i) => l !== '' || i === 0);
}
