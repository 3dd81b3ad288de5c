/**
 * pg copies every statement's config object before reading it (lib/utils.js normalizeQueryConfig),
 * so that normalising cannot change the caller's object. It copies through
 * `Object.defineProperties(Object.create(proto), Object.getOwnPropertyDescriptors(config))`, V8's
 * slow path: 3-4.5 us for the four fields of our configs (bench/README.md, issue 15's fifteenth
 * session), where a spread takes 25-50 ns. Every statement the service sends makes one.
 *
 * The copy made here is a spread, for configs that are object literals (those db/client.ts builds:
 * data properties, Object.prototype). Anything else (a class instance, a Query, a cursor) goes to
 * pg's own copy.
 * pg's Query constructor looks the function up on the module at each call, so replacing it there
 * is seen by every client. pg is pinned to an exact version (package.json): test/unit/pg-query-config.test.ts
 * checks that the function is still there and still used.
 */
// pg's CommonJS module, without type definitions of its own
// @ts-expect-error: no declaration file for pg/lib/utils.js
import pgUtils from 'pg/lib/utils.js';

/** pg's normalizeQueryConfig: a statement's config, its values and callback given apart, as one config */
export type Normalize = (config: unknown, values?: unknown, callback?: unknown) => Record<string, unknown>;

const utils = pgUtils as unknown as { normalizeQueryConfig: Normalize & { spreads?: true } };

/** an object literal: a spread copies what pg's copy copies (its own properties, the same prototype) */
function spreadable(config: unknown): config is Record<string, unknown> {
  return config !== null && typeof config === 'object' && Object.getPrototypeOf(config) === Object.prototype;
}

export function installQueryConfigCopy(): void {
  const original = utils.normalizeQueryConfig;
  if (original.spreads) return;
  const normalize: Normalize & { spreads?: true } = (config, values, callback) => {
    if (!spreadable(config)) return original(config, values, callback);
    const out = { ...config };
    // as pg does: values given apart replace the config's, a function among them is the callback
    if (values) {
      if (typeof values === 'function') out.callback = values;
      else out.values = values;
    }
    if (callback) out.callback = callback;
    return out;
  };
  normalize.spreads = true;
  utils.normalizeQueryConfig = normalize;
}
