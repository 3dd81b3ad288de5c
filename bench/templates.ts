/**
 * Request-time template benchmark, on PostgreSQL (`node --import tsx bench/templates.ts [--devices 1000]`):
 * the cost of one render and of one export, each against the same request without the template.
 *
 * 1. One config template render: POST config-templates/<id>/render/ with a small context (a round
 *    trip to the sandbox pool), and POST devices/<id>/render-config/ against GET devices/<id>/
 *    (the render-config also reads the device, its config context and its template).
 * 2. An export of N devices (`?export=`) against GET of the same devices as one JSON page.
 * Medians over sequential requests on a warm service (its sandboxes started).
 */
import { startServer, TOKEN } from './server.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? dflt) || dflt;
const DEVICES = opt('devices', 1_000);
const RUNS = opt('runs', 50);
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const server = await startServer({
  engine: 'postgres',
  pgUrl: PG,
  env: { MAX_PAGE_SIZE: String(Math.max(1_000, DEVICES)), RESPONSE_CACHE_MB: '0' },
});
async function call(method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${text.slice(0, 300)}`);
  return { status: res.status, text };
}
const json = async (method: string, path: string, body?: unknown) => JSON.parse((await call(method, path, body)).text);

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return Math.round(times[Math.floor(times.length / 2)]! * 10) / 10;
}

try {
  const site = await json('POST', '/api/dcim/sites/', { name: 'bench', slug: 'bench' });
  const mfr = await json('POST', '/api/dcim/manufacturers/', { name: 'bench', slug: 'bench' });
  const type = await json('POST', '/api/dcim/device-types/', { manufacturer: mfr.id, model: 'bench', slug: 'bench' });
  const role = await json('POST', '/api/dcim/device-roles/', { name: 'bench', slug: 'bench' });
  await json('POST', '/api/extras/config-contexts/', {
    name: 'bench',
    data: { ntp: ['192.0.2.1', '192.0.2.2'], syslog: { host: '192.0.2.9' } },
  });
  const ct = await json('POST', '/api/extras/config-templates/', {
    name: 'bench',
    template_code:
      'hostname {{ device.name }}\n{% for s in ntp %}ntp server {{ s }}\n{% endfor %}logging host {{ syslog.host }}\n',
  });
  for (let i = 0; i < DEVICES; i += 250) {
    const batch = Array.from({ length: Math.min(250, DEVICES - i) }, (_, k) => ({
      name: `bench-${i + k}`,
      site: site.id,
      device_type: type.id,
      role: role.id,
      config_template: ct.id,
    }));
    await call('POST', '/api/dcim/devices/', batch);
  }
  const device = (await json('GET', '/api/dcim/devices/?limit=1')).results[0];
  await json('POST', '/api/extras/export-templates/', {
    name: 'bench',
    content_types: ['dcim.device'],
    template_code:
      'name,site,role,type\n{% for d in queryset %}{{ d.name }},{{ d.site.name }},{{ d.role.name }},{{ d.device_type.model }}\n{% endfor %}',
  });
  // warm up: the sandboxes start, statements get prepared
  for (let i = 0; i < 5; i++) await call('POST', `/api/dcim/devices/${device.id}/render-config/`, {});
  const render = await median(RUNS, () =>
    call('POST', `/api/extras/config-templates/${ct.id}/render/`, {
      device: { name: 'x' },
      ntp: ['a'],
      syslog: { host: 'b' },
    }),
  );
  const detail = await median(RUNS, () => call('GET', `/api/dcim/devices/${device.id}/`));
  const renderConfig = await median(RUNS, () => call('POST', `/api/dcim/devices/${device.id}/render-config/`, {}));
  const exportRuns = Math.max(3, Math.round(RUNS / 10));
  await call('GET', '/api/dcim/devices/?export=bench');
  const list = await median(exportRuns, () => call('GET', `/api/dcim/devices/?limit=${DEVICES}`));
  const exported = await median(exportRuns, () => call('GET', '/api/dcim/devices/?export=bench'));
  const lines = (await call('GET', '/api/dcim/devices/?export=bench')).text.trim().split('\n').length - 1;
  console.log(
    JSON.stringify(
      { devices: DEVICES, exportedLines: lines, ms: { render, detail, renderConfig, list, exported } },
      null,
      2,
    ),
  );
} finally {
  await server.stop();
}
