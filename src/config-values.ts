/**
 * How a setting's text becomes its value (config.ts): each parser takes the setting's name for its
 * one-line error, so a mistyped value stops the start naming the setting and what it got.
 */
import { type Dialect, DIALECTS, isDialect } from './core/model/dialect.js';
import { parseHostList } from './db/failover/hosts.js';

/** WORKERS / `serve --workers N`: a positive count, or `auto` (unset) for one per core */
export function parseWorkers(v: string | undefined): number | null {
  if (v === undefined || v === '' || /^auto$/i.test(v)) return null;
  if (!/^\d+$/.test(v) || Number(v) < 1)
    throw new Error(`WORKERS (--workers) must be a positive integer or auto, got "${v}"`);
  return Number(v);
}

/** a multi-host URL (libpq's form, db/failover/hosts.ts) is read now, so a mistake stops the start with one line */
export function parseDatabaseUrl(v: string | undefined): string | null {
  if (!v) return null;
  parseHostList(v);
  return v;
}

/** comma-separated single-host URLs; replicas of a PostgreSQL primary, so DATABASE_URL is needed */
export function parseReplicaUrls(v: string | undefined, primary: string | undefined): string[] {
  const urls = parseList(v, []);
  if (urls.length > 0 && !primary) throw new Error('DATABASE_REPLICA_URLS needs DATABASE_URL (the primary)');
  for (const u of urls) {
    if (!/^postgres(ql)?:\/\//.test(u) || parseHostList(u)) {
      throw new Error(`DATABASE_REPLICA_URLS: each entry must be one postgres:// URL naming one host, got "${u}"`);
    }
  }
  return urls;
}

/** DATABASE_DIRECT_URL: one server, the one DATABASE_URL reaches through PgBouncer */
export function parseDirectUrl(v: string | undefined, primary: string | undefined, pgbouncer: boolean): string | null {
  if (pgbouncer && !primary) throw new Error('DATABASE_PGBOUNCER needs DATABASE_URL (the PgBouncer)');
  if (!v) return null;
  if (!pgbouncer) throw new Error('DATABASE_DIRECT_URL is only used with DATABASE_PGBOUNCER=true');
  if (!/^postgres(ql)?:\/\//.test(v) || parseHostList(v)) {
    throw new Error(`DATABASE_DIRECT_URL must be one postgres:// URL naming one host, got "${v}"`);
  }
  return v;
}

export function parseDialect(v: string | undefined): Dialect {
  if (v === undefined || v === '') return '3.4';
  if (isDialect(v)) return v;
  throw new Error(`API_DIALECT must be one of ${DIALECTS.join(', ')}, got "${v}"`);
}

export function parseBool(name: string, v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === '') return dflt;
  if (/^(1|true|yes|on)$/i.test(v)) return true;
  if (/^(0|false|no|off)$/i.test(v)) return false;
  throw new Error(`${name} must be a boolean (true/false), got "${v}"`);
}

export function parseInt10(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined || v === '') return dflt;
  if (/^(none|null)$/i.test(v)) return 0;
  if (!/^\d+$/.test(v)) throw new Error(`${name} must be a non-negative integer, got "${v}"`);
  return Number(v);
}

/** seconds, fractions allowed (`0.5`); `0` or `none` means no limit */
export function parseSeconds(name: string, v: string | undefined, dflt: number): number {
  if (v === undefined || v === '') return dflt;
  if (/^(none|null)$/i.test(v)) return 0;
  if (!/^\d+(\.\d+)?$/.test(v)) throw new Error(`${name} must be a number of seconds, got "${v}"`);
  return Number(v);
}

export function parseList(v: string | undefined, dflt: string[]): string[] {
  if (v === undefined) return dflt;
  const t = v.trim();
  if (t.startsWith('[')) return (JSON.parse(t) as unknown[]).map(String);
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

export function parseJsonObject(name: string, v: string | undefined, dflt: Record<string, unknown>) {
  if (v === undefined || v === '') return dflt;
  const parsed = JSON.parse(v) as unknown;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`${name} must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}
