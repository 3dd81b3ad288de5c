/**
 * What read-your-writes costs the primary with read replicas (`node --import tsx bench/replica-fences.ts
 * [--users 64] [--duration 5]`), on PostgreSQL: every signed-in read first asks the primary for its
 * user's last write position (src/db/replicas/README.md), and readers arriving together share one
 * statement (fence-batch.ts). For each number of concurrent clients, signed in as different users
 * who have all written: reads per second, the replica's statements per read (the list and its
 * count), and the primary's statements per read for those positions (from the service's /metrics).
 *
 * The replica is the bench database itself through a read-only URL (as test/api/core/read-replicas.test.ts
 * does): the routing, the position questions and the batching are the real ones; replication lag is not.
 */
import autocannon from 'autocannon';
import { call } from './http.js';
import { startServer, TOKEN } from './server.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? dflt) || dflt;
const USERS = opt('users', 64);
const DURATION = opt('duration', 5);
const CONNECTIONS = [1, 4, 16, 64];
const PG = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// server.ts names the bench database after this process
const replica = new URL(PG);
replica.pathname = `/inv_bench_${process.pid}`;
replica.searchParams.set('options', '-c default_transaction_read_only=on');
const server = await startServer({
  engine: 'postgres',
  pgUrl: PG,
  env: { DATABASE_REPLICA_URLS: replica.toString(), RESPONSE_CACHE_MB: '0' },
});
const admin = { base: server.url, token: TOKEN };

async function counters(): Promise<{ lookups: number; statements: number; replicaStatements: number }> {
  const res = await fetch(`${server.url}/metrics`);
  const text = await res.text();
  const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
  return {
    lookups: value('inventory_replica_write_position_lookups_total'),
    statements: value('inventory_replica_write_position_statements_total'),
    replicaStatements: value('inventory_replica_statements_total'),
  };
}

try {
  // users who have each written once, so every read has a position to wait for
  const users = await call<Array<{ id: number }>>(
    admin,
    'POST',
    '/api/users/users/',
    Array.from({ length: USERS }, (_, i) => ({ username: `reader-${i}`, password: `reader-password-${i}` })),
  );
  await call(admin, 'POST', '/api/users/permissions/', {
    name: 'readers',
    object_types: ['dcim.site'],
    actions: ['view', 'add'],
    users: users.map((u) => u.id),
  });
  const tokens: string[] = [];
  for (const [i, user] of users.entries()) {
    const token = await call<{ key: string }>(admin, 'POST', '/api/users/tokens/', { user: user.id });
    tokens.push(token.key);
    await call({ base: server.url, token: token.key }, 'POST', '/api/dcim/sites/', {
      name: `site-${i}`,
      slug: `site-${i}`,
    });
  }
  const rows: Array<Record<string, number>> = [];
  for (const connections of CONNECTIONS) {
    let next = 0;
    const before = await counters();
    const r = await autocannon({
      url: server.url,
      connections,
      duration: DURATION,
      pipelining: 1,
      requests: [
        {
          method: 'GET',
          setupRequest: (req) => {
            const i = next++ % USERS;
            return {
              ...req,
              path: `/api/dcim/sites/?slug=site-${i}`,
              headers: { Authorization: `Token ${tokens[i]}`, Accept: 'application/json' },
            };
          },
        },
      ],
    });
    const after = await counters();
    if (r.non2xx || r.errors) throw new Error(`${connections} connections: ${r.non2xx} non-2xx, ${r.errors} errors`);
    const lookups = after.lookups - before.lookups;
    rows.push({
      connections,
      readsPerSec: Math.round(r.requests.average),
      replicaStatementsPerRead:
        Math.round((100 * (after.replicaStatements - before.replicaStatements)) / r.requests.total) / 100,
      statementsPerRead: Math.round((1000 * (after.statements - before.statements)) / lookups) / 1000,
    });
  }
  console.table(rows);
} finally {
  await server.stop();
}
