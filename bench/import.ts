/**
 * The web import (`/dcim/devices/import/`, src/web/model-pages/import.page.ts) of a CSV of N
 * devices (default 10,000) as a signed-in browser posts it: a dry run, then the import. The service
 * is started by server.ts on a fresh PostgreSQL database (one process), a site, a device type and
 * a role are made through the API, the superuser signs in through the /login/ form, and each post
 * is timed from send to answer, with the CPU of the service and of its PostgreSQL backends read
 * from /proc before and after (cpu-meter.ts). The dry run must answer 200 and write nothing; the
 * import must answer 303 and leave N devices. Then the last round's devices are imported again by
 * `id` (every row an update), dry run and import, and a dry run of those updates with ten failing
 * rows. A markdown table on stdout; exit 1 on any failure.
 *
 *   --devices N     rows in the CSV (default 10000)
 *   --rounds N      dry runs and imports to time (default 1; each import its own N devices)
 *   --pg-url URL    admin URL of the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { int, refuseUnknownFlags, value } from './args.js';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { describeSpeed, hostSpeed } from './host-speed.js';
import { call } from './http.js';
import { ADMIN_PASSWORD, ADMIN_USERNAME, startServer, TOKEN } from './server.js';
import { signIn } from './ui-pages.js';

const argv = process.argv.slice(2);
refuseUnknownFlags(argv, new Set(['--devices', '--rounds', '--pg-url']), 'bench/import.ts');
const devices = int(argv, '--devices', 10_000);
const rounds = int(argv, '--rounds', 1);
const pgUrl = value(argv, '--pg-url') ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Timed {
  what: string;
  status: number;
  wallMs: number;
  serverMs: number;
  postgresMs: number;
}

function csvOf(prefix: string, site: string, model: string, role: string): string {
  const lines = ['name,site,device_type,role,status,serial'];
  for (let i = 1; i <= devices; i++) lines.push(`${prefix}-${i},${site},${model},${role},active,SN${i}`);
  return lines.join('\n');
}

async function main() {
  console.log(`host: ${describeSpeed(await hostSpeed(pgUrl))}`);
  const server = await startServer({ engine: 'postgres', pgUrl, env: { IMPORT_MAX_ROWS: String(devices) } });
  const results: Timed[] = [];
  try {
    const api = { base: server.url, token: TOKEN };
    const site = await call<{ name: string }>(api, 'POST', '/api/dcim/sites/', { name: 'Import site', slug: 'imp' });
    const maker = await call<{ id: number }>(api, 'POST', '/api/dcim/manufacturers/', { name: 'Maker', slug: 'maker' });
    const type = await call<{ model: string }>(api, 'POST', '/api/dcim/device-types/', {
      manufacturer: maker.id,
      model: 'Box 1U',
      slug: 'box-1u',
    });
    const role = await call<{ name: string }>(api, 'POST', '/api/dcim/device-roles/', {
      name: 'Leaf',
      slug: 'leaf',
      color: '00ff00',
    });
    const cookie = await signIn(server.url, ADMIN_USERNAME, ADMIN_PASSWORD);
    const page = await fetch(`${server.url}/dcim/devices/import/`, { headers: { Cookie: cookie } });
    const token = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(await page.text())?.[1];
    if (page.status !== 200 || !token) throw new Error(`GET import page answered ${page.status}`);
    const post = async (what: string, fields: Record<string, string>, expect: number): Promise<Timed> => {
      const body = new URLSearchParams({ csrfmiddlewaretoken: token, format: 'csv', ...fields }).toString();
      const before = await cpuSnapshot(server.pid, pgUrl, server.database);
      const t0 = performance.now();
      const res = await fetch(`${server.url}/dcim/devices/import/`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: cookie, Origin: server.url },
        body,
      });
      const text = await res.text();
      const wallMs = performance.now() - t0;
      const after = await cpuSnapshot(server.pid, pgUrl, server.database);
      if (res.status !== expect)
        throw new Error(`${what} answered ${res.status}, not ${expect}: ${text.slice(0, 2000)}`);
      const cpu = cpuPerRequest(before, after, 1, server.database);
      return { what, status: res.status, wallMs, serverMs: cpu.serverMs ?? 0, postgresMs: cpu.postgresMs ?? 0 };
    };
    const count = async () => (await call<{ count: number }>(api, 'GET', '/api/dcim/devices/?limit=1&brief=1')).count;
    for (let r = 1; r <= rounds; r++) {
      const data = csvOf(`r${r}`, site.name, type.model, role.name);
      const had = await count();
      results.push(await post(`dry run ${r}`, { data, _preview: '1' }, 200));
      if ((await count()) !== had) throw new Error('the dry run wrote devices');
      results.push(await post(`import ${r}`, { data, _apply: '1' }, 303));
      if ((await count()) !== had + devices) throw new Error(`the import did not leave ${devices} more devices`);
    }
    // the last round's devices again, by id: every row an update
    const ids: number[] = [];
    for (let offset = 0; ids.length < devices; offset += 1000) {
      const page = await call<{ results: Array<{ id: number }> }>(
        api,
        'GET',
        `/api/dcim/devices/?name__isw=r${rounds}-&brief=1&limit=1000&offset=${offset}`,
      );
      if (!page.results.length) break;
      ids.push(...page.results.map((d) => d.id));
    }
    const updates = ['id,serial,status', ...ids.map((id) => `${id},U${id},planned`)].join('\n');
    results.push(await post('dry run, updates', { data: updates, _preview: '1' }, 200));
    results.push(await post('import, updates', { data: updates, _apply: '1' }, 303));
    // ten rows the bulk update refuses: each found by halving the batch (src/web/import/write-rows.ts)
    const failing = [
      'id,serial,status',
      ...ids.map((id, i) => `${id},F${id},${i % 1000 === 500 ? 'bogus' : 'active'}`),
    ];
    results.push(await post('dry run, updates, 10 failing', { data: failing.join('\n'), _preview: '1' }, 400));
  } finally {
    await server.stop();
  }
  console.log(`\n${devices.toLocaleString('en')} device rows per post, PostgreSQL, one service process\n`);
  console.log('| post | status | wall s | CPU ms Node + pg | CPU ms/row Node + pg |');
  console.log('|---|---|---|---|---|');
  for (const r of results)
    console.log(
      `| ${r.what} | ${r.status} | ${(r.wallMs / 1000).toFixed(2)} | ${r.serverMs.toFixed(0)} + ${r.postgresMs.toFixed(0)} | ${(r.serverMs / devices).toFixed(3)} + ${(r.postgresMs / devices).toFixed(3)} |`,
    );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
