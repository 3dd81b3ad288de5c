/**
 * The web interface's bulk pages at size, on PostgreSQL
 * (`node --import tsx bench/bulk-pages.ts [--rows 10000]`): one device with `--rows` interfaces
 * (made through the REST API in lists of 1,000), then, as a signed-in browser posts them, with
 * "select all N matching" the device's filter: a bulk edit of every interface (description and
 * enabled), a rename preview and the rename, the delete confirmation and the delete. Each step is
 * one request; reported: wall time, the service's and PostgreSQL's CPU ms (in all and per row) and,
 * with the server run under trace-sql.ts, its SQL statements, which must not grow with the rows.
 */
import { cpuSnapshot } from './cpu-meter.js';
import { machine } from './report.js';
import { deviceBasics, PG, startTracedServer } from './traced-server.js';
import { signIn } from './ui-pages.js';

const argv = process.argv.slice(2);
const ROWS = Number(argv[argv.indexOf('--rows') + 1] ?? 0) || 10_000;

const { server, api, statements } = await startTracedServer();

interface Step {
  step: string;
  status: number;
  ms: number;
  serverCpuMs: number;
  pgCpuMs: number;
  statements: number;
}

try {
  const { type, role, site } = await deviceBasics(api);
  const device = await api('POST', '/api/dcim/devices/', {
    name: `d-${process.pid}`,
    device_type: type.id,
    device_role: role.id,
    site: site.id,
  });
  for (let i = 0; i < ROWS; i += 1_000)
    await api(
      'POST',
      '/api/dcim/interfaces/',
      Array.from({ length: Math.min(1_000, ROWS - i) }, (_, j) => ({
        device: device.id,
        name: `GigabitEthernet${Math.floor((i + j) / 48)}/${((i + j) % 48) + 1}`,
        type: '1000base-t',
      })),
    );
  await server.analyze();
  const cookie = await signIn(server.url, 'bench', 'bench-password');
  const list = `/dcim/interfaces/?device_id=${device.id}`;
  const page = await (await fetch(`${server.url}${list}`, { headers: { Cookie: cookie } })).text();
  const csrf = /name="csrfmiddlewaretoken" value="([^"]+)"/.exec(page)?.[1];
  if (!csrf) throw new Error(`no CSRF field on ${list}`);
  const all: Array<[string, string]> = [
    ['csrfmiddlewaretoken', csrf],
    ['_all', 'true'],
    ['_count', String(ROWS)],
  ];
  const steps: Step[] = [];
  await statements();
  const post = async (step: string, kind: string, pairs: Array<[string, string]>, expect: number) => {
    const before = await cpuSnapshot(server.pid, PG, server.database);
    const t0 = performance.now();
    const res = await fetch(`${server.url}/dcim/interfaces/${kind}/?device_id=${device.id}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded', Origin: server.url },
      body: new URLSearchParams([...all, ...pairs]).toString(),
    });
    await res.text();
    const ms = performance.now() - t0;
    const after = await cpuSnapshot(server.pid, PG, server.database);
    if (res.status !== expect) throw new Error(`${step}: ${res.status}, expected ${expect}`);
    let pgCpuMs = 0;
    for (const [pid, v] of after.backends) pgCpuMs += v - (before.backends.get(pid) ?? 0);
    steps.push({
      step,
      status: res.status,
      ms,
      serverCpuMs: (after.server ?? 0) - (before.server ?? 0),
      pgCpuMs,
      statements: await statements(),
    });
  };
  await post('bulk edit: the form', 'edit', [], 200);
  await post(
    'bulk edit: apply',
    'edit',
    [
      ['description', 'bulk'],
      ['enabled', 'false'],
      ['_apply', '1'],
    ],
    303,
  );
  const rename: Array<[string, string]> = [
    ['find', 'GigabitEthernet'],
    ['replace', 'Gi'],
    ['_form', '1'],
  ];
  await post('rename: preview', 'rename', [...rename, ['_preview', '1']], 200);
  await post('rename: apply', 'rename', [...rename, ['_apply', '1']], 303);
  await post('delete: confirmation', 'delete', [], 200);
  await post(
    'delete: apply',
    'delete',
    [
      ['_confirm', '1'],
      ['confirm', 'true'],
    ],
    303,
  );
  const left = await api('GET', `/api/dcim/interfaces/?device_id=${device.id}&limit=1`);
  if (left.count !== 0) throw new Error(`${left.count} interfaces left after the bulk delete`);
  console.log(`\n${ROWS.toLocaleString('en')} interfaces, one request per step; ${JSON.stringify(machine())}\n`);
  console.log('| step | ms | CPU ms Node + pg | CPU us/row | SQL statements |');
  console.log('|---|---|---|---|---|');
  for (const s of steps)
    console.log(
      `| ${s.step} | ${Math.round(s.ms).toLocaleString('en')} | ${Math.round(s.serverCpuMs)} + ${Math.round(s.pgCpuMs)} | ${Math.round(((s.serverCpuMs + s.pgCpuMs) * 1000) / ROWS)} | ${s.statements} |`,
    );
} finally {
  await server.stop();
}
