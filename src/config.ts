/**
 * Configuration, read once from the environment (and an optional JSON file named by CONFIG_FILE)
 * into a typed, frozen object that is passed down. Names follow NetBox's settings where they exist.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Dialect } from './core/model/dialect.js';
import { type Peppers, parsePeppers } from './core/auth/token-secret.js';
import {
  parseWorkers,
  parseDatabaseUrl,
  parseDirectUrl,
  parseReplicaUrls,
  parseDialect,
  parseBool,
  parseInt10,
  parseSeconds,
  parseList,
  parseJsonObject,
} from './config-values.js';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /**
   * null selects the embedded PGlite engine in dataDir; several hosts in libpq's form
   * (`h1:5432,h2:5433`, target_session_attrs) fail over between them (db/failover/README.md)
   */
  databaseUrl: string | null;
  /** streaming standbys that serve reads outside transactions (docs/postgresql.md, "Read replicas") */
  databaseReplicaUrls: string[];
  /** a replica this many ms behind the primary serves no reads until it catches up */
  databaseReplicaMaxLagMs: number;
  /**
   * DATABASE_URL leads to a transaction-pooling PgBouncer (docs/postgresql.md, "PgBouncer"): no
   * named statements, no session settings; what needs a session goes to databaseDirectUrl
   */
  databasePgbouncer: boolean;
  /** PgBouncer mode: the PostgreSQL server itself, for LISTEN, session advisory locks and migrations */
  databaseDirectUrl: string | null;
  /** PostgreSQL connections each process opens at most (so the service opens up to this times `workers`) */
  databasePoolSize: number;
  /**
   * `serve` processes sharing the port (src/serve/README.md); null = one per core on PostgreSQL.
   * PGlite always runs one process, whatever is asked.
   */
  workers: number | null;
  adminUsername: string | null;
  adminPassword: string | null;
  adminToken: string | null;
  paginateCount: number;
  /** 0 means no maximum (NetBox: MAX_PAGE_SIZE = 0 or None) */
  maxPageSize: number;
  /**
   * the REST API's dialect when neither the request (`Accept: ...; version=`) nor its token
   * (`api_dialect`) chooses one: NetBox 3.4's shapes or 4.4's (core/model/dialect.ts)
   */
  apiDialect: Dialect;
  /** model identities (`dcim.site`) or `*` */
  exemptViewPermissions: readonly string[];
  loginRequired: boolean;
  /** seconds a browser sign-in lasts (NetBox's LOGIN_TIMEOUT; default 14 days) */
  loginTimeout: number;
  /** the fewest characters a new password may have (NetBox 4's MinimumLengthValidator: 12) */
  passwordMinLength: number;
  /** further origins (scheme://host[:port]) allowed to post with a session, as NetBox's CSRF_TRUSTED_ORIGINS */
  csrfTrustedOrigins: readonly string[];
  allowTokenRetrieval: boolean;
  /**
   * NetBox 4.5's API_TOKEN_PEPPERS: id -> pepper hashing v2 tokens' secrets (core/auth/token-secret.ts);
   * empty: no v2 token can be created
   */
  apiTokenPeppers: Peppers;
  /** permission name (`users.add_token`) -> constraints, granted to every authenticated user */
  defaultPermissions: Readonly<Record<string, unknown>>;
  maintenanceMode: boolean;
  enforceGlobalUnique: boolean;
  /**
   * cache list totals between writes (core/cache/count-cache.ts); off where LISTEN/NOTIFY cannot
   * reach every process (a transaction-pooling PgBouncer loses notifications)
   */
  listCountCache: boolean;
  /** megabytes of rendered GET responses kept per process (core/cache/response-cache.ts); 0 = off */
  responseCacheMb: number;
  /** serve `/metrics` for a Prometheus scraper (http/metrics/); off = no route and no hooks at all */
  metricsEnabled: boolean;
  /** allowed CORS origins; ['*'] allows all; [] disables CORS headers */
  corsOrigins: readonly string[];
  logLevel: string;
  /** largest accepted request body in bytes */
  bodyLimit: number;
  /** where uploaded files are stored and served from (NetBox's MEDIA_ROOT); by default `<DATA_DIR>/media` */
  mediaRoot: string;
  /** largest image attachment accepted, in bytes (a bigger one is a 400; a body far bigger a 413) */
  imageAttachmentMaxSize: number;
  /** rows one web import (`<list>import/`) takes at most; more is refused before anything is written */
  importMaxRows: number;
  /** bytes of pasted or uploaded data one web import takes at most */
  importMaxBytes: number;
  /** peers whose X-Real-IP / X-Forwarded-* headers are believed (addresses or networks) */
  trustedProxies: readonly string[];
  /** base URL override (scheme://host) for generated links; null = taken from the request */
  baseUrl: string | null;
  /**
   * seconds a database statement may run before PostgreSQL cancels it (503); 0 = no limit. PGlite
   * cannot interrupt a statement (WebAssembly, no timer signal), so there it has no effect.
   */
  statementTimeout: number;
  /**
   * PostgreSQL through pg with the driver's patches (src/db/pg-driver/README.md: pipelining, named
   * statements described once, rows as arrays); off = plain pg, the same answers, slower
   */
  pgDriverPatches: boolean;
  /** GraphQL at /graphql/ (core/graphql/README.md); NetBox's GRAPHQL_ENABLED, off = 404 */
  graphqlEnabled: boolean;
  /** refused before any SQL: nesting depth, aliases, and cost (core/graphql/limits.ts) */
  graphqlMaxDepth: number;
  graphqlMaxAliases: number;
  graphqlMaxCost: number;
  /** the objects a list without pagination.limit counts as in a query's cost */
  graphqlListCost: number;
  /** webhook delivery (core/events/): the worker in the service process, its limits and retention */
  events: EventSettings;
  /**
   * NetBox's CHANGELOG_RETENTION: days change records are kept, 0 = forever. Whole months older
   * are dropped, the rest deleted row by row (db/changelog-partitions.ts), by the processes that
   * run a webhook worker.
   */
  changelogRetention: number;
  /** local data sources (apps/core/README.md): where they may point, and how much a sync reads */
  dataSources: DataSourceSettings;
  // -- first start and console (docs/installation.md, "First start") --
  /** `json`: one JSON line per log record; `pretty`: readable lines; `auto`: pretty on a terminal (logger.ts) */
  logFormat: 'json' | 'pretty' | 'auto';
  /** start a fresh PGlite DATA_DIR as a copy of the prepared snapshot (db/pglite-snapshot.ts) */
  pgliteSnapshot: boolean;
  /** where snapshots are kept; by default node_modules/.cache/netinventory of this install */
  pgliteSnapshotDir: string;
}

export interface DataSourceSettings {
  /** absolute directories a local data source must lie within; empty = any directory (superusers only) */
  roots: readonly string[];
  /** bytes: larger files are skipped by a sync */
  maxFileSize: number;
  /** bytes: a sync that would read more fails and changes nothing */
  maxTotalSize: number;
  /** files: a sync that finds more fails and changes nothing */
  maxFiles: number;
}

interface EventSettings {
  /** run a webhook worker inside `serve` (off when separate `inventory worker` processes do it) */
  workerInProcess: boolean;
  concurrency: number;
  /** seconds a receiver has to answer (a timeout fails the delivery) */
  timeout: number;
  /** automatic retries of a failed delivery; 0 = none, so the spec's states hold as written */
  retryMax: number;
  /** seconds before the first retry; doubled for each further one */
  retryInterval: number;
  /** seconds a claimed delivery stays with its worker before another may take it over */
  lease: number;
  /** days finished deliveries are kept */
  retentionDays: number;
}

/** next to the installed code, where `npm ci` (postinstall) builds the snapshot */
const DEFAULT_SNAPSHOT_DIR = fileURLToPath(new URL('../node_modules/.cache/netinventory', import.meta.url));

function parseLogFormat(v: string | undefined): Config['logFormat'] {
  if (v === undefined || v === '') return 'auto';
  if (v === 'json' || v === 'pretty' || v === 'auto') return v;
  throw new Error(`LOG_FORMAT must be json, pretty or auto, got "${v}"`);
}

// NetBox 3.5+: by default users may manage their own tokens (spec: Authentication 3),
// NetBox 3.6+ their own bookmarks, and NetBox 4.1+ their own notifications and subscriptions.
const DEFAULT_PERMISSIONS = Object.freeze({
  'extras.view_bookmark': { user: '$user' },
  'extras.add_bookmark': { user: '$user' },
  'extras.change_bookmark': { user: '$user' },
  'extras.delete_bookmark': { user: '$user' },
  'extras.view_notification': { user: '$user' },
  'extras.add_notification': { user: '$user' },
  'extras.change_notification': { user: '$user' },
  'extras.delete_notification': { user: '$user' },
  'extras.view_subscription': { user: '$user' },
  'extras.add_subscription': { user: '$user' },
  'extras.change_subscription': { user: '$user' },
  'extras.delete_subscription': { user: '$user' },
  'users.view_token': { user: '$user' },
  'users.add_token': { user: '$user' },
  'users.change_token': { user: '$user' },
  'users.delete_token': { user: '$user' },
});

type Env = Record<string, string | undefined>;

/**
 * Reads the settings; values in the optional CONFIG_FILE (JSON, setting names as keys) yield to the
 * environment, which yields to `flags` (command-line flags named by their setting: `--workers` is WORKERS).
 */
export function loadConfig(env: Env = process.env, flags: Env = {}): Config {
  let merged: Env = { ...env, ...flags };
  if (env.CONFIG_FILE) {
    const file = JSON.parse(readFileSync(env.CONFIG_FILE, 'utf8')) as Record<string, unknown>;
    const fromFile: Env = {};
    for (const [k, v] of Object.entries(file)) fromFile[k] = typeof v === 'string' ? v : JSON.stringify(v);
    merged = { ...fromFile, ...env, ...flags };
  }
  const e = merged;
  const pgbouncer = parseBool('DATABASE_PGBOUNCER', e.DATABASE_PGBOUNCER, false);
  return Object.freeze({
    host: e.HOST || '127.0.0.1',
    port: parseInt10('PORT', e.PORT, 8000),
    dataDir: e.DATA_DIR || './data',
    databaseUrl: parseDatabaseUrl(e.DATABASE_URL),
    databaseReplicaUrls: parseReplicaUrls(e.DATABASE_REPLICA_URLS, e.DATABASE_URL),
    databaseReplicaMaxLagMs: parseInt10('DATABASE_REPLICA_MAX_LAG_MS', e.DATABASE_REPLICA_MAX_LAG_MS, 5000),
    databasePgbouncer: pgbouncer,
    databaseDirectUrl: parseDirectUrl(e.DATABASE_DIRECT_URL, e.DATABASE_URL, pgbouncer),
    databasePoolSize: Math.max(1, parseInt10('DATABASE_POOL_SIZE', e.DATABASE_POOL_SIZE, 10)),
    workers: parseWorkers(e.WORKERS),
    adminUsername: e.ADMIN_USERNAME || null,
    adminPassword: e.ADMIN_PASSWORD || null,
    adminToken: e.ADMIN_TOKEN || null,
    paginateCount: Math.max(1, parseInt10('PAGINATE_COUNT', e.PAGINATE_COUNT, 50)),
    maxPageSize: parseInt10('MAX_PAGE_SIZE', e.MAX_PAGE_SIZE, 1000),
    apiDialect: parseDialect(e.API_DIALECT),
    exemptViewPermissions: Object.freeze(parseList(e.EXEMPT_VIEW_PERMISSIONS, [])),
    loginRequired: parseBool('LOGIN_REQUIRED', e.LOGIN_REQUIRED, false),
    // NetBox: LOGIN_TIMEOUT = 1209600 (Django's SESSION_COOKIE_AGE), at least one minute here
    loginTimeout: Math.max(60, parseInt10('LOGIN_TIMEOUT', e.LOGIN_TIMEOUT, 1_209_600)),
    passwordMinLength: Math.max(1, parseInt10('PASSWORD_MIN_LENGTH', e.PASSWORD_MIN_LENGTH, 12)),
    csrfTrustedOrigins: Object.freeze(parseList(e.CSRF_TRUSTED_ORIGINS, [])),
    allowTokenRetrieval: parseBool('ALLOW_TOKEN_RETRIEVAL', e.ALLOW_TOKEN_RETRIEVAL, true),
    apiTokenPeppers: parsePeppers(e.API_TOKEN_PEPPERS),
    defaultPermissions: Object.freeze(
      parseJsonObject('DEFAULT_PERMISSIONS', e.DEFAULT_PERMISSIONS, DEFAULT_PERMISSIONS),
    ),
    maintenanceMode: parseBool('MAINTENANCE_MODE', e.MAINTENANCE_MODE, false),
    enforceGlobalUnique: parseBool('ENFORCE_GLOBAL_UNIQUE', e.ENFORCE_GLOBAL_UNIQUE, false),
    listCountCache: parseBool('LIST_COUNT_CACHE', e.LIST_COUNT_CACHE, true),
    responseCacheMb: parseInt10('RESPONSE_CACHE_MB', e.RESPONSE_CACHE_MB, 64),
    // spec: What the service does 4 - the metrics view is part of the service, so on by default
    metricsEnabled: parseBool('METRICS_ENABLED', e.METRICS_ENABLED, true),
    corsOrigins: Object.freeze(parseList(e.CORS_ORIGINS, [])),
    logLevel: e.LOG_LEVEL || 'info',
    bodyLimit: parseInt10('MAX_BODY_SIZE', e.MAX_BODY_SIZE, 50 * 1024 * 1024),
    mediaRoot: e.MEDIA_ROOT || join(e.DATA_DIR || './data', 'media'),
    imageAttachmentMaxSize: Math.max(
      1,
      parseInt10('IMAGE_ATTACHMENT_MAX_SIZE', e.IMAGE_ATTACHMENT_MAX_SIZE, 10 * 1024 * 1024),
    ),
    importMaxRows: Math.max(1, parseInt10('IMPORT_MAX_ROWS', e.IMPORT_MAX_ROWS, 10000)),
    importMaxBytes: Math.max(1, parseInt10('IMPORT_MAX_BYTES', e.IMPORT_MAX_BYTES, 10 * 1024 * 1024)),
    baseUrl: e.BASE_URL || null,
    trustedProxies: Object.freeze(parseList(e.TRUSTED_PROXIES, ['127.0.0.1', '::1'])),
    statementTimeout: parseSeconds('STATEMENT_TIMEOUT', e.STATEMENT_TIMEOUT, 60),
    pgDriverPatches: parseBool('PG_DRIVER_PATCHES', e.PG_DRIVER_PATCHES, true),
    graphqlEnabled: parseBool('GRAPHQL_ENABLED', e.GRAPHQL_ENABLED, true),
    graphqlMaxDepth: Math.max(1, parseInt10('GRAPHQL_MAX_DEPTH', e.GRAPHQL_MAX_DEPTH, 10)),
    // NetBox 4: GRAPHQL_MAX_ALIASES = 10
    graphqlMaxAliases: parseInt10('GRAPHQL_MAX_ALIASES', e.GRAPHQL_MAX_ALIASES, 10),
    graphqlMaxCost: Math.max(1, parseInt10('GRAPHQL_MAX_COST', e.GRAPHQL_MAX_COST, 50_000)),
    graphqlListCost: Math.max(1, parseInt10('GRAPHQL_LIST_COST', e.GRAPHQL_LIST_COST, 10)),
    events: Object.freeze({
      workerInProcess: parseBool('EVENT_WORKER', e.EVENT_WORKER, true),
      concurrency: Math.max(1, parseInt10('WEBHOOK_CONCURRENCY', e.WEBHOOK_CONCURRENCY, 4)),
      timeout: Math.max(0.1, parseSeconds('WEBHOOK_TIMEOUT', e.WEBHOOK_TIMEOUT, 10)),
      // NetBox 3.5+: RQ_RETRY_MAX (default 0), RQ_RETRY_INTERVAL (default 60 s)
      retryMax: parseInt10('WEBHOOK_RETRY_MAX', e.WEBHOOK_RETRY_MAX ?? e.RQ_RETRY_MAX, 0),
      retryInterval: Math.max(
        0.1,
        parseSeconds('WEBHOOK_RETRY_INTERVAL', e.WEBHOOK_RETRY_INTERVAL ?? e.RQ_RETRY_INTERVAL, 60),
      ),
      lease: Math.max(1, parseSeconds('WEBHOOK_LEASE', e.WEBHOOK_LEASE, 120)),
      retentionDays: Math.max(1, parseInt10('WEBHOOK_RETENTION_DAYS', e.WEBHOOK_RETENTION_DAYS, 7)),
    }),
    // NetBox's default: 90 days
    changelogRetention: parseInt10('CHANGELOG_RETENTION', e.CHANGELOG_RETENTION, 90),
    dataSources: Object.freeze({
      roots: Object.freeze(parseList(e.DATA_SOURCE_ROOTS, [])),
      maxFileSize: Math.max(1, parseInt10('DATA_SOURCE_MAX_FILE_SIZE', e.DATA_SOURCE_MAX_FILE_SIZE, 10 * 1024 * 1024)),
      maxTotalSize: Math.max(
        1,
        parseInt10('DATA_SOURCE_MAX_TOTAL_SIZE', e.DATA_SOURCE_MAX_TOTAL_SIZE, 100 * 1024 * 1024),
      ),
      maxFiles: Math.max(1, parseInt10('DATA_SOURCE_MAX_FILES', e.DATA_SOURCE_MAX_FILES, 10_000)),
    }),
    logFormat: parseLogFormat(e.LOG_FORMAT),
    pgliteSnapshot: parseBool('PGLITE_SNAPSHOT', e.PGLITE_SNAPSHOT, true),
    pgliteSnapshotDir: e.PGLITE_SNAPSHOT_DIR || DEFAULT_SNAPSHOT_DIR,
  });
}
