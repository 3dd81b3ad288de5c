/**
 * Webhook benchmark (spec: Events, Delivery; docs/webhooks.md, "Cost"), on PostgreSQL
 * (`node --import tsx bench/events.ts [--events 2000]`):
 *
 * 1. The added cost of an enabled webhook to a single POST: N sequential site creations without
 *    any event rule, then N with a webhook and a rule listening to them; latency (median, p95) and
 *    the server's CPU ms per request (its worker's delivery work included, since it runs in the
 *    same process).
 * 2. Events per second from commit to delivery: sites created in bulk requests; the rate is events
 *    over the time from the first request to the last delivery at a local receiver on loopback, and
 *    each event's delay from its commit (the body's timestamp) to its arrival.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpuPerRequest, cpuSnapshot } from './cpu-meter.js';
import { startServer, TOKEN } from './server.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? dflt) || dflt;
const EVENTS = opt('events', 2_000);
const SINGLE = opt('single', 300);
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const arrivals: Array<{ at: number; committed: number }> = [];
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString());
    arrivals.push({ at: Date.now(), committed: Date.parse(body.timestamp) });
    res.writeHead(200).end();
  });
});
await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
const rxUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

const server = await startServer({ engine: 'postgres', pgUrl: PG, env: { WEBHOOK_CONCURRENCY: '8' } });
const call = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${server.url}${path}`, {
    method,
    headers: { Authorization: `Token ${TOKEN}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${await res.text()}`);
  return res.json() as Promise<Record<string, unknown>>;
};
const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
/** waits until n deliveries have arrived since the last reset; fails after a minute without one */
async function arrived(n: number): Promise<void> {
  let seen = arrivals.length;
  let quietSince = Date.now();
  while (arrivals.length < n) {
    await new Promise((r) => setTimeout(r, 20));
    if (arrivals.length > seen) [seen, quietSince] = [arrivals.length, Date.now()];
    else if (Date.now() - quietSince > 60_000)
      throw new Error(`${arrivals.length} of ${n} webhook deliveries arrived; none for a minute`);
  }
  if (arrivals.length > n) throw new Error(`${arrivals.length} webhook deliveries arrived, ${n} expected`);
}

let seq = 0;
const site = () => {
  seq += 1;
  return { name: `bench-site-${process.pid}-${seq}`, slug: `bench-site-${process.pid}-${seq}` };
};

async function singlePosts(label: string, expectDeliveries: boolean) {
  // warm-up; its deliveries must land before the count starts, or late ones would be counted as
  // the measured requests' and the CPU read before those were all delivered
  const WARMUP = 20;
  arrivals.length = 0;
  for (let i = 0; i < WARMUP; i++) await call('POST', '/api/dcim/sites/', site());
  if (expectDeliveries) await arrived(WARMUP);
  arrivals.length = 0;
  const before = await cpuSnapshot(server.pid, PG, server.database);
  const times: number[] = [];
  for (let i = 0; i < SINGLE; i++) {
    const t0 = performance.now();
    await call('POST', '/api/dcim/sites/', site());
    times.push(performance.now() - t0);
  }
  if (expectDeliveries) await arrived(SINGLE);
  const after = await cpuSnapshot(server.pid, PG, server.database);
  const cpu = cpuPerRequest(before, after, SINGLE, server.database);
  console.log(
    `${label.padEnd(28)} median ${pct(times, 0.5).toFixed(2)} ms  p95 ${pct(times, 0.95).toFixed(2)} ms  server CPU ${cpu.serverMs?.toFixed(2)} ms/req  PostgreSQL CPU ${cpu.postgresMs?.toFixed(2)} ms/req`,
  );
}

try {
  console.log(`# webhook benchmark, PostgreSQL, ${new Date().toISOString()}`);
  await singlePosts('POST site, no event rule', false);
  const hook = await call('POST', '/api/extras/webhooks/', {
    name: `bench-${process.pid}`,
    payload_url: rxUrl,
    secret: 'bench',
  });
  await call('POST', '/api/extras/event-rules/', {
    name: `bench-${process.pid}`,
    content_types: ['dcim.site'],
    type_create: true,
    action_object_id: hook.id,
  });
  await singlePosts('POST site, webhook enabled', true);

  arrivals.length = 0;
  const BATCH = 200;
  const t0 = Date.now();
  for (let sent = 0; sent < EVENTS; sent += BATCH)
    await call('POST', '/api/dcim/sites/', Array.from({ length: Math.min(BATCH, EVENTS - sent) }, site));
  const committedBy = Date.now();
  await arrived(EVENTS);
  const last = Math.max(...arrivals.map((a) => a.at));
  const delays = arrivals.map((a) => a.at - a.committed);
  console.log(
    `${EVENTS} events in bulk requests of ${BATCH}: committed in ${((committedBy - t0) / 1000).toFixed(2)} s, all delivered after ${((last - t0) / 1000).toFixed(2)} s`,
  );
  console.log(
    `  throughput ${(EVENTS / ((last - t0) / 1000)).toFixed(0)} events/s commit-to-delivery; delay from commit: median ${pct(delays, 0.5)} ms, p95 ${pct(delays, 0.95)} ms`,
  );
} finally {
  await server.stop();
  receiver.close();
}
