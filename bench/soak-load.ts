/**
 * The soak's load (soak.ts): `connections` loops, each with its own keep-alive connection to one of
 * the service processes (spread round-robin), sending a fixed mix of reads and writes until told
 * to stop. Every answer is checked (status, and for writes the objects returned), and every write
 * the service acknowledged is remembered, so the database can be compared with it afterwards.
 */
import { Agent, request } from 'node:http';

export interface Ack {
  /** tenant id -> last description acknowledged (created or updated) */
  present: Map<number, string>;
  /** tenant ids whose deletion was acknowledged */
  deleted: Set<number>;
}

export interface LoadStats {
  requests: number;
  errors: number;
  /** the first few errors, to say why */
  firstErrors: string[];
  /** latency in ms per kind of request */
  latencies: Map<string, number[]>;
}

interface Target {
  base: URL;
  agent: Agent;
}

export interface LoadOptions {
  urls: string[];
  token: string;
  connections: number;
  /** read targets seeded before: site ids */
  siteIds: number[];
  tenantIds: number[];
  /** the soak's own objects are tenants named `<prefix>-...` */
  prefix: string;
}

/** the mix, in requests out of 100 (reads 75, writes 25 of which bulk 7) */
const MIX: Array<[string, number]> = [
  ['list', 30],
  ['list-repeat', 15],
  ['detail', 15],
  ['filter', 10],
  ['brief', 5],
  ['create', 8],
  ['bulk-create', 4],
  ['patch', 6],
  ['bulk-patch', 2],
  ['delete', 4],
  ['bulk-delete', 1],
];
const WHEEL = MIX.flatMap(([k, n]) => Array<string>(n).fill(k));

function send(
  t: Target,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; text: string }> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((ok, fail) => {
    const req = request(
      {
        host: t.base.hostname,
        port: t.base.port,
        method,
        path,
        agent: t.agent,
        timeout: 120_000,
        headers: {
          authorization: `Token ${token}`,
          accept: 'application/json',
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => ok({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
        res.on('error', fail);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 120 s')));
    req.on('error', fail);
    req.end(payload);
  });
}

export function startLoad(opts: LoadOptions) {
  const targets: Target[] = opts.urls.map((u) => ({
    base: new URL(u),
    agent: new Agent({ keepAlive: true, maxSockets: opts.connections }),
  }));
  const ack: Ack = { present: new Map(), deleted: new Set() };
  const stats: LoadStats = { requests: 0, errors: 0, firstErrors: [], latencies: new Map() };
  let running = true;
  const pick = <T>(list: readonly T[]) => list[Math.floor(Math.random() * list.length)]!;

  const loop = async (w: number) => {
    const target = targets[w % targets.length]!;
    // each loop owns the tenants it created: its updates and deletes never race another loop's
    const mine: number[] = [];
    let n = 0;
    const name = () => `${opts.prefix}-${w}-${n++}`;
    for (let i = w; running; i++) {
      let kind = WHEEL[(i * 37) % WHEEL.length]!;
      if (['patch', 'bulk-patch', 'delete', 'bulk-delete'].includes(kind) && mine.length < 12) kind = 'create';
      const started = performance.now();
      let check: (status: number, text: string) => void = () => undefined;
      let res: { status: number; text: string };
      const expectStatus = (want: number) => (status: number, text: string) => {
        if (status !== want) throw new Error(`${kind}: ${status} ${text.slice(0, 300)}`);
      };
      try {
        switch (kind) {
          case 'list':
            res = await send(
              target,
              opts.token,
              'GET',
              `/api/dcim/sites/?limit=50&offset=${50 * Math.floor(Math.random() * 40)}`,
            );
            check = expectStatus(200);
            break;
          case 'list-repeat':
            res = await send(target, opts.token, 'GET', '/api/tenancy/tenants/?limit=50');
            check = expectStatus(200);
            break;
          case 'detail':
            res = await send(target, opts.token, 'GET', `/api/dcim/sites/${pick(opts.siteIds)}/`);
            check = expectStatus(200);
            break;
          case 'filter':
            res = await send(
              target,
              opts.token,
              'GET',
              `/api/dcim/sites/?status=active&tenant_id=${pick(opts.tenantIds)}&limit=20`,
            );
            check = expectStatus(200);
            break;
          case 'brief':
            res = await send(
              target,
              opts.token,
              'GET',
              `/api/dcim/sites/?brief=1&limit=100&offset=${100 * Math.floor(Math.random() * 20)}`,
            );
            check = expectStatus(200);
            break;
          case 'create':
          case 'bulk-create': {
            const items = Array.from({ length: kind === 'create' ? 1 : 50 }, () => {
              const nm = name();
              return { name: nm, slug: nm, description: 'created' };
            });
            res = await send(target, opts.token, 'POST', '/api/tenancy/tenants/', kind === 'create' ? items[0] : items);
            check = (status, text) => {
              expectStatus(201)(status, text);
              const out = (kind === 'create' ? [JSON.parse(text)] : JSON.parse(text)) as Array<{
                id: number;
                name: string;
              }>;
              if (out.length !== items.length)
                throw new Error(`${kind}: ${out.length} objects answered for ${items.length}`);
              for (const o of out) {
                ack.present.set(o.id, 'created');
                mine.push(o.id);
              }
            };
            break;
          }
          case 'patch':
          case 'bulk-patch': {
            const ids = kind === 'patch' ? [pick(mine)] : [...new Set(Array.from({ length: 10 }, () => pick(mine)))];
            const description = `updated ${i}`;
            res =
              kind === 'patch'
                ? await send(target, opts.token, 'PATCH', `/api/tenancy/tenants/${ids[0]}/`, { description })
                : await send(
                    target,
                    opts.token,
                    'PATCH',
                    '/api/tenancy/tenants/',
                    ids.map((id) => ({ id, description })),
                  );
            check = (status, text) => {
              expectStatus(200)(status, text);
              for (const id of ids) ack.present.set(id, description);
            };
            break;
          }
          default: {
            const count = kind === 'delete' ? 1 : 5;
            const ids = mine.splice(0, count);
            res =
              kind === 'delete'
                ? await send(target, opts.token, 'DELETE', `/api/tenancy/tenants/${ids[0]}/`)
                : await send(
                    target,
                    opts.token,
                    'DELETE',
                    '/api/tenancy/tenants/',
                    ids.map((id) => ({ id })),
                  );
            check = (status, text) => {
              expectStatus(204)(status, text);
              for (const id of ids) {
                ack.present.delete(id);
                ack.deleted.add(id);
              }
            };
          }
        }
        check(res.status, res.text);
      } catch (e) {
        stats.errors++;
        if (stats.firstErrors.length < 10) stats.firstErrors.push(`${target.base.port} ${(e as Error).message}`);
      }
      stats.requests++;
      const list = stats.latencies.get(kind) ?? [];
      list.push(performance.now() - started);
      stats.latencies.set(kind, list);
    }
  };
  const loops = Array.from({ length: opts.connections }, (_, w) => loop(w));
  return {
    ack,
    stats,
    async stop() {
      running = false;
      await Promise.all(loops);
      for (const t of targets) t.agent.destroy();
    },
  };
}

export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
