/**
 * What the page benchmarks share: the service on PostgreSQL under trace-sql.ts, a REST caller
 * with the bench token, the count of SQL statements since the last call, and the manufacturer,
 * device type, role and site a bench's devices need.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { call } from './http.js';
import { startServer, TOKEN } from './server.js';
import { SqlTrace } from './sql-trace.js';

export const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export async function startTracedServer(opts: { cpuProfDir?: string } = {}) {
  const traceFile = join(mkdtempSync(join(tmpdir(), 'inv-bench-')), 'sql');
  const server = await startServer({ engine: 'postgres', pgUrl: PG, traceSqlFile: traceFile, ...opts });
  const trace = new SqlTrace(server, traceFile);
  const api = (method: string, path: string, body?: unknown) =>
    // biome-ignore lint/suspicious/noExplicitAny: the bench walks API answers by field name; the tests check their shapes
    call<any>({ base: server.url, token: TOKEN }, method, path, body);
  /** trace-sql.ts's statements since the last call */
  const statements = async (): Promise<number> => {
    const dump = await trace.dump();
    if (!dump) throw new Error(`no SQL trace dump under ${traceFile}`);
    return dump.statements.reduce((n, s) => n + s.calls, 0);
  };
  return { server, api, statements };
}

/** a manufacturer's device type, a role and a site, named after this process */
export async function deviceBasics(api: Awaited<ReturnType<typeof startTracedServer>>['api']) {
  const n = (s: string) => `${s}-${process.pid}`;
  const manufacturer = await api('POST', '/api/dcim/manufacturers/', { name: n('m'), slug: n('m') });
  const type = await api('POST', '/api/dcim/device-types/', {
    manufacturer: manufacturer.id,
    model: n('t'),
    slug: n('t'),
  });
  const role = await api('POST', '/api/dcim/device-roles/', { name: n('r'), slug: n('r') });
  const site = await api('POST', '/api/dcim/sites/', { name: n('s'), slug: n('s') });
  return { type, role, site };
}
