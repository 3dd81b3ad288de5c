/**
 * DATABASE_URL naming several hosts, in libpq's form (PostgreSQL docs, libpq "Connection Strings",
 * 34.1.1.3 "Specifying Multiple Hosts"): `postgres://u@h1:5432,h2:5433/db?target_session_attrs=read-write`,
 * or the hosts and ports as comma lists in `?host=h1,h2&port=5432,5433`. pg parses one host only, so
 * the list is read here and each host gets a single-host URL of its own for pg.
 */

/** libpq's `target_session_attrs` values (libpq 14+): which server of the list a session wants */
const TARGET_SESSION_ATTRS = ['any', 'read-write', 'read-only', 'primary', 'standby', 'prefer-standby'] as const;
export type TargetSessionAttrs = (typeof TARGET_SESSION_ATTRS)[number];

export interface HostList {
  /** one single-host URL per host, in the order written, each with the URL's user, database and options */
  urls: string[];
  /** the hosts as `host:port`, for messages and logs (no password) */
  names: string[];
  target: TargetSessionAttrs;
  /** how long a probe waits for one host: libpq's `connect_timeout` (seconds), else 5 s */
  connectTimeoutMs: number;
}

const DEFAULT_PORT = '5432';
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
// the parameters this file consumes: pg must not see the lists, and has no use for the others
const CONSUMED = ['target_session_attrs', 'host', 'port', 'connect_timeout'];

function isTarget(v: string): v is TargetSessionAttrs {
  return (TARGET_SESSION_ATTRS as readonly string[]).includes(v);
}

/** `h`, `h:5433`, `[::1]:5433`, `:5433` -> [host, port] (an empty port is the default) */
function splitHostPort(entry: string): [string, string] {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(entry);
  if (!m) throw new Error(`DATABASE_URL: cannot read the host "${entry}"`);
  return [m[1] ?? '', m[2] || ''];
}

/**
 * The hosts of a DATABASE_URL, or null when it is a plain single-host URL with no
 * target_session_attrs other than `any`: that URL goes to pg untouched, as before. Throws a
 * one-line error naming the problem for a list it cannot read.
 */
export function parseHostList(url: string): HostList | null {
  const m = /^(postgres(?:ql)?:\/\/)([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/i.exec(url);
  if (!m) return null;
  const [, scheme = '', authority = '', path = '', query = ''] = m;
  const params = new URLSearchParams(query);
  const targetText = params.get('target_session_attrs') ?? 'any';
  if (!isTarget(targetText)) {
    throw new Error(
      `DATABASE_URL: target_session_attrs must be one of ${TARGET_SESSION_ATTRS.join(', ')}, got "${targetText}"`,
    );
  }
  const at = authority.lastIndexOf('@');
  const userinfo = at >= 0 ? authority.slice(0, at + 1) : '';
  const hostText = authority.slice(at + 1);
  // the query's host and port win over the authority's, as in libpq
  const hostParam = params.get('host');
  const portParam = params.get('port');
  const listed = hostParam?.includes(',') ?? false;
  if (!hostText.includes(',') && !listed && targetText === 'any') return null;

  let pairs: Array<[string, string]>;
  if (hostParam !== null) {
    pairs = hostParam.split(',').map((h) => [h.trim(), '']);
  } else {
    pairs = hostText.split(',').map((entry) => splitHostPort(entry.trim()));
  }
  if (portParam !== null) {
    const ports = portParam.split(',').map((p) => p.trim());
    if (ports.length !== 1 && ports.length !== pairs.length) {
      throw new Error(`DATABASE_URL: ${pairs.length} hosts but ${ports.length} ports; give one port or one per host`);
    }
    pairs = pairs.map(([h], i) => [h, ports[ports.length === 1 ? 0 : i] ?? '']);
  }
  const timeout = params.get('connect_timeout');
  if (timeout !== null && !/^\d+$/.test(timeout)) {
    throw new Error(`DATABASE_URL: connect_timeout must be a whole number of seconds, got "${timeout}"`);
  }
  for (const name of CONSUMED) params.delete(name);
  const rest = params.toString();
  const urls: string[] = [];
  const names: string[] = [];
  for (const [host, port] of pairs) {
    if (port !== '' && !/^\d+$/.test(port)) throw new Error(`DATABASE_URL: the port "${port}" is not a number`);
    const p = port || DEFAULT_PORT;
    // a host starting with `/` is a Unix socket directory, which pg takes as the `host` parameter
    if (host.startsWith('/')) {
      urls.push(`${scheme}${userinfo}${path}?${new URLSearchParams({ host, port: p })}${rest ? `&${rest}` : ''}`);
    } else {
      urls.push(`${scheme}${userinfo}${host || 'localhost'}:${p}${path}${rest ? `?${rest}` : ''}`);
    }
    names.push(`${host || 'localhost'}:${p}`);
  }
  const seconds = Number(timeout ?? 0);
  return {
    urls,
    names,
    target: targetText,
    // libpq: "zero, negative, or not specified means wait indefinitely"; a probe waits 5 s at most,
    // since the next round tries again anyway
    connectTimeoutMs: seconds > 0 ? seconds * 1000 : DEFAULT_CONNECT_TIMEOUT_MS,
  };
}
