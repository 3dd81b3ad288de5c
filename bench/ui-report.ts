/**
 * Output of the UI benchmark (ui.ts): a markdown table of the pages against the issue's targets
 * (server time p95 of a 50-row list < 50 ms and of an object page < 30 ms; a 50-row list under
 * 150 KB of HTML; the CSS and JS of a first visit under 60 KB gzipped, cached as immutable), the
 * assets, the SQL statements per page, and one JSON file in bench/results/. KB is 1,000 bytes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeSpeed, type HostSpeed } from './host-speed.js';
import type { ScenarioResult } from './scenarios.js';
import type { SeedStep } from './seed.js';
import { ROOT } from './server.js';
import type { AssetWeight } from './ui-pages.js';

export const TARGETS = {
  listP95Ms: 50,
  objectP95Ms: 30,
  listHtmlBytes: 150_000,
  assetsGzipBytes: 60_000,
};

export type PageKind = 'list' | 'object' | 'form' | 'dashboard';

export interface UiResult extends ScenarioResult {
  kind: PageKind;
  /** the exact 95th percentile of the 2xx answers' latencies (autocannon's own histogram stops at 90 and 97.5) */
  latencyP95Ms: number;
  latencyP90Ms: number;
  latencyP975Ms: number;
  /** one page of the scenario (the first of a walk over ids) */
  page: { path: string; bytes: number; gzipBytes: number; contentEncoding: string | null; cacheControl: string | null };
}

export interface SqlProbe {
  name: string;
  /** statements of one page, by per_page */
  perPage: Record<string, number>;
  /** the same at every page size */
  constant: boolean;
}

export interface UiReport {
  date: string;
  machine: { cpus: number; model: string; node: string; loadAvg1: number; speed?: HostSpeed };
  dataset: string;
  summary: string;
  durationSec: number;
  warmupSec: number;
  connections: number;
  workers: number;
  /** the service ran through tsx with the SQL trace (--trace-sql): slower than `npm start` */
  traceSql: boolean;
  seed: SeedStep[];
  scenarios: UiResult[];
  assets: AssetWeight[];
  sqlProbes?: SqlProbe[];
  memory?: Array<{ pid: number; what: string; peakMb: number }>;
  note: string;
}

export const UI_NOTE =
  'latency is measured by autocannon over loopback on the same machine: with one connection it is the server time of a page plus a loopback round trip (well under 1 ms); with more connections it includes the wait behind other requests.';

const kb = (b: number) => (b / 1000).toFixed(1);
const ms = (v: number | null | undefined) => (v === null || v === undefined ? '' : v.toFixed(2));

function verdict(r: UiResult): string {
  const out: string[] = [];
  const p95 = r.kind === 'list' ? TARGETS.listP95Ms : r.kind === 'object' ? TARGETS.objectP95Ms : null;
  if (p95 !== null) out.push(`p95 < ${p95} ms ${r.latencyP95Ms < p95 ? 'meets' : 'MISSES'}`);
  if (r.kind === 'list')
    out.push(`< ${kb(TARGETS.listHtmlBytes)} KB ${r.page.bytes < TARGETS.listHtmlBytes ? 'meets' : 'MISSES'}`);
  return out.join(', ');
}

function markdown(head: string[], rows: string[][]): string[] {
  return [
    `| ${head.join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}

export function uiTable(rep: UiReport): string {
  const pages = markdown(
    [
      'page',
      'req/s',
      'p50 ms',
      'p95 ms',
      'p99 ms',
      'CPU ms/req node + pg',
      'HTML KB',
      'gzip KB',
      'SQL/req',
      'errors',
      'non-2xx',
      'target',
    ],
    rep.scenarios.map((r) => [
      `\`${r.title}\``,
      r.reqPerSecMean.toFixed(1),
      r.latencyP50Ms.toFixed(1),
      r.latencyP95Ms.toFixed(1),
      r.latencyP99Ms.toFixed(1),
      `${ms(r.cpu?.serverMs)} + ${ms(r.cpu?.postgresMs)}`,
      kb(r.page.bytes),
      kb(r.page.gzipBytes),
      r.sql ? r.sql.statementsPerRequest.toFixed(1) : '',
      String(r.errors),
      String(r.non2xx),
      verdict(r),
    ]),
  );
  const assetsGzip = rep.assets.reduce((s, a) => s + a.gzipBytes, 0);
  const assetsRaw = rep.assets.reduce((s, a) => s + a.bytes, 0);
  const allImmutable = rep.assets.length > 0 && rep.assets.every((a) => a.immutable);
  const assets = markdown(
    ['asset of a first visit', 'bytes', 'gzip bytes', 'Cache-Control'],
    [
      ...rep.assets.map((a) => [
        `\`${a.url}\``,
        a.bytes.toLocaleString('en'),
        a.gzipBytes.toLocaleString('en'),
        a.cacheControl ?? '(none)',
      ]),
      [
        'total',
        assetsRaw.toLocaleString('en'),
        assetsGzip.toLocaleString('en'),
        `< ${kb(TARGETS.assetsGzipBytes)} KB gzip ${assetsGzip < TARGETS.assetsGzipBytes ? 'meets' : 'MISSES'}; immutable ${allImmutable ? 'meets' : 'MISSES'}`,
      ],
    ],
  );
  const encodings = [...new Set(rep.scenarios.map((r) => r.page.contentEncoding ?? 'none'))].join(', ');
  return [
    `== UI pages, PostgreSQL, ${rep.dataset} data set (${rep.summary}); ${rep.durationSec} s per page after ${rep.warmupSec} s of warm-up, ${rep.connections} connection${rep.connections > 1 ? 's' : ''}, ${rep.workers} server process${rep.workers > 1 ? 'es' : ''}${rep.traceSql ? ', SQL traced (service through tsx)' : ''}; ${rep.machine.cpus} cores (${rep.machine.model}), node ${rep.machine.node}, load average ${rep.machine.loadAvg1} at start`,
    '',
    ...pages,
    '',
    ...assets,
    '',
    `p95 is exact, from every 2xx latency autocannon reported; HTML KB is the page's body as sent (Content-Encoding: ${encodings}), gzip KB the same through node:zlib gzip at its default level.`,
    ...(rep.sqlProbes ?? []).map(
      (p) =>
        `SQL statements of one page, ${p.name}: ${Object.entries(p.perPage)
          .map(([k, v]) => `${k} ${v}`)
          .join(
            ', ',
          )}${p.constant ? ' (constant)' : ' (DIFFERS with the page size: the statements are in the bench/results/sql-ui-*.json dumps)'}`,
    ),
    ...(rep.machine.speed ? [describeSpeed(rep.machine.speed)] : []),
    ...(rep.memory?.length
      ? [`peak resident memory: ${rep.memory.map((m) => `${m.peakMb} MB (pid ${m.pid}, ${m.what})`).join('; ')}`]
      : []),
    `note: ${rep.note}`,
  ].join('\n');
}

export function writeUiJson(rep: UiReport): string {
  const dir = join(ROOT, 'bench/results');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `ui-${rep.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(rep, null, 2)}\n`);
  return file;
}
