/**
 * List export benchmark, on PostgreSQL (`node --import tsx bench/list-export.ts [--devices 200] [--runs 3]`):
 * `--devices` devices of a type with 50 interface templates (10,000 interfaces by default), then
 * the interface list exported from its page as the current view (`?export=table`) and as all data
 * (`?export`), `--runs` times each. Reports seconds per export, rows, bytes, and the server's
 * resident memory: before, and its peak (VmHWM) after, which the export streams in chunks to keep flat.
 * For comparison, the time to read the same rows from the REST list in pages of 1,000.
 */
import { readFileSync } from 'node:fs';
import { call as httpCall } from './http.js';
import { startServer, TOKEN } from './server.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? dflt) || dflt;
const DEVICES = opt('devices', 200);
const RUNS = opt('runs', 3);
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const server = await startServer({ engine: 'postgres', pgUrl: PG });
const call = (method: string, path: string, body?: unknown) =>
  // biome-ignore lint/suspicious/noExplicitAny: the bench walks API answers by field name
  httpCall<any>({ base: server.url, token: TOKEN }, method, path, body);
const memoryMb = () => {
  const status = readFileSync(`/proc/${server.pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
};

try {
  const tag = `bench-${process.pid}`;
  const mfr = await call('POST', '/api/dcim/manufacturers/', { name: tag, slug: tag });
  const type = await call('POST', '/api/dcim/device-types/', { manufacturer: mfr.id, model: tag, slug: tag });
  await call(
    'POST',
    '/api/dcim/interface-templates/',
    Array.from({ length: 50 }, (_, i) => ({ device_type: type.id, name: `et-0/0/${i}`, type: '10gbase-x-sfpp' })),
  );
  const site = await call('POST', '/api/dcim/sites/', { name: tag, slug: tag });
  const role = await call('POST', '/api/dcim/device-roles/', { name: tag, slug: tag });
  for (let from = 0; from < DEVICES; from += 100)
    await call(
      'POST',
      '/api/dcim/devices/',
      Array.from({ length: Math.min(100, DEVICES - from) }, (_, i) => ({
        name: `${tag}-${from + i}`,
        device_type: type.id,
        device_role: role.id,
        site: site.id,
      })),
    );
  const before = memoryMb();
  console.log(`server memory before: ${before.rss.toFixed(0)} MB resident, peak ${before.peak.toFixed(0)} MB`);
  console.log('| export | rows | MB | s (best of runs) | peak MB after |');
  console.log('|---|---|---|---|---|');
  // for comparison: the same rows read as a client pages the REST list, 1,000 at a time
  {
    const t0 = performance.now();
    let rows = 0;
    for (let offset = 0; ; offset += 1000) {
      const page = await call('GET', `/api/dcim/interfaces/?limit=1000&offset=${offset}`);
      rows += page.results.length;
      if (!page.next) break;
    }
    console.log(
      `| REST pages of 1,000 | ${rows} | | ${((performance.now() - t0) / 1000).toFixed(2)} | ${memoryMb().peak.toFixed(0)} |`,
    );
  }
  for (const kind of ['export=table', 'export']) {
    let best = Infinity;
    let rows = 0;
    let bytes = 0;
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/dcim/interfaces/?${kind}`, {
        headers: { Authorization: `Token ${TOKEN}` },
      });
      const body = await res.text();
      if (res.status !== 200) throw new Error(`${kind} -> ${res.status} ${body.slice(0, 300)}`);
      best = Math.min(best, (performance.now() - t0) / 1000);
      rows = body.split('\r\n').length - 2;
      bytes = body.length;
    }
    console.log(
      `| \`?${kind}\` | ${rows} | ${(bytes / 1e6).toFixed(1)} | ${best.toFixed(2)} | ${memoryMb().peak.toFixed(0)} |`,
    );
  }
} finally {
  await server.stop();
}
