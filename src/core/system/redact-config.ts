/**
 * The configuration in force as the system page and its export show it (NetBox 4's System view
 * shows its config revision; a support request carries it): every setting, with secrets replaced by
 * "********" wherever they sit: settings named as secrets (passwords, tokens, peppers, keys), and the
 * password inside a database URL. A boolean or number is never a secret (`allowTokenRetrieval`).
 */
import type { Config } from '../../config.js';

const HIDDEN = '********';

/** setting names whose text is a secret */
const SECRET_NAME = /password|token|secret|pepper|(^|[a-z])key$/i;

function hideUrlPassword(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url;
    u.password = HIDDEN;
    return u.toString().replace(encodeURIComponent(HIDDEN), HIDDEN);
  } catch {
    // not a URL we can read: it may still hold a password, so none of it is shown
    return HIDDEN;
  }
}

function redact(name: string, value: unknown): unknown {
  if (value === null || value === undefined || typeof value === 'boolean' || typeof value === 'number') return value;
  if (value instanceof Map)
    return Object.fromEntries(
      [...value].map(([k, v]) => [String(k), SECRET_NAME.test(name) ? HIDDEN : redact(String(k), v)]),
    );
  if (typeof value === 'string') {
    if (SECRET_NAME.test(name)) return value === '' ? value : HIDDEN;
    return /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(value) ? hideUrlPassword(value) : value;
  }
  if (Array.isArray(value)) return value.map((v) => redact(name, v));
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(k, v)]));
  return String(value);
}

/** the configuration as plain JSON with every secret hidden */
export function redactedConfig(config: Config): Record<string, unknown> {
  return redact('', config) as Record<string, unknown>;
}
