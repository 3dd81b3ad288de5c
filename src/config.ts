/**
 * Configuration, read once from the environment (and an optional JSON file named by CONFIG_FILE)
 * into a typed, frozen object that is passed down. Names follow NetBox's settings where they exist.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** null selects the embedded PGlite engine in dataDir */
  databaseUrl: string | null;
  adminUsername: string | null;
  adminPassword: string | null;
  adminToken: string | null;
  paginateCount: number;
  /** 0 means no maximum (NetBox: MAX_PAGE_SIZE = 0 or None) */
  maxPageSize: number;
  /** model identities (`dcim.site`) or `*` */
  exemptViewPermissions: readonly string[];
  loginRequired: boolean;
  allowTokenRetrieval: boolean;
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
  /** peers whose X-Real-IP / X-Forwarded-* headers are believed (addresses or networks) */
  trustedProxies: readonly string[];
  /** base URL override (scheme://host) for generated links; null = taken from the request */
  baseUrl: string | null;
  /**
   * seconds a database statement may run before PostgreSQL cancels it (503); 0 = no limit. PGlite
   * cannot interrupt a statement (WebAssembly, no timer signal), so there it has no effect.
   */
  statementTimeout: number;
  // -- first start and console (issue 10) --
  /** `json`: one JSON line per log record; `pretty`: readable lines; `auto`: pretty on a terminal (logger.ts) */
  logFormat: 'json' | 'pretty' | 'auto';
  /** start a fresh PGlite DATA_DIR as a copy of the prepared snapshot (db/pglite-snapshot.ts) */
  pgliteSnapshot: boolean;
  /** where snapshots are kept; by default node_modules/.cache/netinventory of this install */
  pgliteSnapshotDir: string;
}

/** next to the installed code, where `npm ci` (postinstall) builds the snapshot */
const DEFAULT_SNAPSHOT_DIR = fileURLToPath(new URL('../node_modules/.cache/netinventory', import.meta.url));

function parseLogFormat(v: string | undefined): Config['logFormat'] {
  if (v === undefined || v === '') return 'auto';
  if (v === 'json' || v === 'pretty' || v === 'auto') return v;
  throw new Error(`LOG_FORMAT must be json, pretty or auto, got "${v}"`);
}

// NetBox 3.5+: by default users may manage their own tokens (spec: Authentication 3).
const DEFAULT_PERMISSIONS = Object.freeze({
  'users.view_token': { user: '$user' },
  'users.add_token': { user: '$user' },
  'users.change_token': { user: '$user' },
  'users.delete_token': { user: '$user' },
});

type Env = Record<string, string | undefined>;

function parseBool(name: string, v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new Error(`${name} must be a boolean (true/false), got "${v}"`);
}

function parseInt10(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined || v === '') return dflt;
  if (/^(none|null)$/i.test(v)) return 0;
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return Number(v);
}

/** seconds, fractions allowed (`0.5`); `0` or `none` means no limit */
function parseSeconds(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined || v === '') return dflt;
  if (/^(none|null)$/i.test(v)) return 0;
  if (!/^\d+(\.\d+)?$/.test(v)) throw new Error(`${name} must be a number of seconds, got "${v}"`);
  return Number(v);
}

function parseList(v: string | undefined, dflt: string[]): string[] {
  if (v === undefined) return dflt;
  const t = v.trim();
  if (t.startsWith('[')) return (JSON.parse(t) as unknown[]).map(String);
  return t.split(',').map((s) => s.trim()).filter(Boolean);
}

function parseJsonObject(name: string, v: string | undefined, dflt: Record<string, unknown>) {
  if (v === undefined || v === '') return dflt;
  const parsed = JSON.parse(v) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${name} must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** Reads the settings; values in the optional CONFIG_FILE (JSON, setting names as keys) yield to the environment. */
export function loadConfig(env: Env = process.env): Config {
  let merged: Env = env;
  if (env.CONFIG_FILE) {
    const file = JSON.parse(readFileSync(env.CONFIG_FILE, 'utf8')) as Record<string, unknown>;
    const fromFile: Env = {};
    for (const [k, v] of Object.entries(file)) fromFile[k] = typeof v === 'string' ? v : JSON.stringify(v);
    merged = { ...fromFile, ...env };
  }
  const e = merged;
  return Object.freeze({
    host: e.HOST || '127.0.0.1',
    port: parseInt10('PORT', e.PORT, 8000),
    dataDir: e.DATA_DIR || './data',
    databaseUrl: e.DATABASE_URL || null,
    adminUsername: e.ADMIN_USERNAME || null,
    adminPassword: e.ADMIN_PASSWORD || null,
    adminToken: e.ADMIN_TOKEN || null,
    paginateCount: Math.max(1, parseInt10('PAGINATE_COUNT', e.PAGINATE_COUNT, 50)),
    maxPageSize: parseInt10('MAX_PAGE_SIZE', e.MAX_PAGE_SIZE, 1000),
    exemptViewPermissions: Object.freeze(parseList(e.EXEMPT_VIEW_PERMISSIONS, [])),
    loginRequired: parseBool('LOGIN_REQUIRED', e.LOGIN_REQUIRED, false),
    allowTokenRetrieval: parseBool('ALLOW_TOKEN_RETRIEVAL', e.ALLOW_TOKEN_RETRIEVAL, true),
    defaultPermissions: Object.freeze(parseJsonObject('DEFAULT_PERMISSIONS', e.DEFAULT_PERMISSIONS, DEFAULT_PERMISSIONS)),
    maintenanceMode: parseBool('MAINTENANCE_MODE', e.MAINTENANCE_MODE, false),
    enforceGlobalUnique: parseBool('ENFORCE_GLOBAL_UNIQUE', e.ENFORCE_GLOBAL_UNIQUE, false),
    listCountCache: parseBool('LIST_COUNT_CACHE', e.LIST_COUNT_CACHE, true),
    responseCacheMb: parseInt10('RESPONSE_CACHE_MB', e.RESPONSE_CACHE_MB, 64),
    // spec: What the service does 4 - the metrics view is part of the service, so on by default
    metricsEnabled: parseBool('METRICS_ENABLED', e.METRICS_ENABLED, true),
    corsOrigins: Object.freeze(parseList(e.CORS_ORIGINS, [])),
    logLevel: e.LOG_LEVEL || 'info',
    bodyLimit: parseInt10('MAX_BODY_SIZE', e.MAX_BODY_SIZE, 50 * 1024 * 1024),
    baseUrl: e.BASE_URL || null,
    trustedProxies: Object.freeze(parseList(e.TRUSTED_PROXIES, ['127.0.0.1', '::1'])),
    statementTimeout: parseSeconds('STATEMENT_TIMEOUT', e.STATEMENT_TIMEOUT, 60),
    logFormat: parseLogFormat(e.LOG_FORMAT),
    pgliteSnapshot: parseBool('PGLITE_SNAPSHOT', e.PGLITE_SNAPSHOT, true),
    pgliteSnapshotDir: e.PGLITE_SNAPSHOT_DIR || DEFAULT_SNAPSHOT_DIR,
  });
}
