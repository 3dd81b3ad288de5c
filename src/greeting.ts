/**
 * What `serve` prints once it listens, in plain words for the person who started it
 * (docs/installation.md, "First start"): where to point a browser or a client, which database it
 * runs on, and the first superuser's password when the service generated one (shown this once,
 * never logged). It goes to stderr, so
 * stdout stays one JSON line per record for a log collector, and a terminal shows both.
 */
import type { DatabaseOrigin } from './bootstrap.js';

export interface GreetingFacts {
  /** the listening addresses as Fastify reports them (app.addresses()) */
  addresses: readonly { address: string; family: string; port: number }[];
  engine: 'pglite' | 'postgres';
  /** PGlite's data directory (absolute or as configured) */
  dataDir: string;
  origin: DatabaseOrigin;
  /** seconds from the process start to listening */
  startSeconds: number;
  /** the generated first superuser, when this start made one */
  admin: { username: string; password: string } | null;
  /** worker processes sharing the port (serve --workers N); absent = one process */
  workers?: number;
}

const PAGES: [string, string][] = [
  ['home page', '/'],
  ['REST API', '/api/'],
  ['sign in', '/login/'],
  ['API docs', '/api/docs/'],
];

function baseUrl(a: { address: string; family: string; port: number }): string {
  // an unspecified address listens everywhere; the loopback one is the URL that works from here
  const host =
    a.address === '0.0.0.0'
      ? '127.0.0.1'
      : a.address === '::'
        ? '[::1]'
        : a.family === 'IPv6'
          ? `[${a.address}]`
          : a.address;
  return `http://${host}:${a.port}`;
}

const ORIGIN_WORDS: Record<DatabaseOrigin, string> = {
  snapshot: 'new, copied from the prepared snapshot',
  initdb: 'new',
  existing: 'existing',
  postgres: '',
};

export function formatGreeting(f: GreetingFacts): string {
  const base = f.addresses.length > 0 ? baseUrl(f.addresses[0]!) : 'http://?';
  const everywhere = f.addresses.some((a) => a.address === '0.0.0.0' || a.address === '::');
  const lines = [
    `netinventory is ready (started in ${f.startSeconds.toFixed(1)} s)${everywhere ? ', listening on every address of this machine' : ''}:`,
  ];
  const width = Math.max(...PAGES.map(([label]) => label.length));
  for (const [label, path] of PAGES) lines.push(`  ${label.padEnd(width)}  ${base}${path}`);
  lines.push(
    f.engine === 'postgres'
      ? '  database   PostgreSQL (DATABASE_URL)'
      : `  database   PGlite (embedded PostgreSQL) in ${f.dataDir} (${ORIGIN_WORDS[f.origin]})`,
  );
  if (f.workers && f.workers > 1) lines.push(`  processes  ${f.workers} workers on one port (WORKERS)`);
  if (f.admin) {
    lines.push(
      '',
      `Sign in as "${f.admin.username}" with password ${f.admin.password}`,
      '(generated now and shown only this once: change it, or set ADMIN_PASSWORD)',
    );
  }
  return `${lines.join('\n')}\n`;
}
