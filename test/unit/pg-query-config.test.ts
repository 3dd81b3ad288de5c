/**
 * installQueryConfigCopy (db/pg-query-config.ts): pg's Query constructor still copies its config
 * through the module's normalizeQueryConfig (looked up at each call, so the faster copy is used),
 * and the copy leaves what pg reads exactly as pg's own copy would, the caller's object untouched.
 */
import { createRequire } from 'node:module';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { installQueryConfigCopy, type Normalize } from '../../src/db/pg-query-config.js';

const utils = createRequire(import.meta.url)('pg/lib/utils.js') as { normalizeQueryConfig: Normalize };

/** what a Query keeps of its config */
const kept = (q: pg.Query) => {
  const { text, values, name, callback } = q as unknown as Record<string, unknown>;
  return { text, values, name, rowMode: (q as unknown as { _rowMode: unknown })._rowMode, callback };
};

describe('installQueryConfigCopy', () => {
  const original = utils.normalizeQueryConfig;
  installQueryConfigCopy();
  const installed = utils.normalizeQueryConfig;

  it('is what pg Query constructor calls, once installed (and installing twice keeps one)', () => {
    expect(installed).not.toBe(original);
    installQueryConfigCopy();
    expect(utils.normalizeQueryConfig).toBe(installed);
    let calls = 0;
    utils.normalizeQueryConfig = (...args) => (calls++, installed(...args));
    try {
      new pg.Query({ text: 'select 1' });
    } finally {
      utils.normalizeQueryConfig = installed;
    }
    expect(calls).toBe(1);
  });

  it('gives a Query the fields pg own copy gives it, and leaves the config as it was', () => {
    const cb = () => undefined;
    const cases: Array<[Record<string, unknown>, unknown?, unknown?]> = [
      [{ name: 's1', text: 'select $1', values: [1], rowMode: 'array' }],
      [{ text: 'select $1', values: [1] }, [2]],
      [{ text: 'select 1' }, cb],
      [{ text: 'select $1' }, [3], cb],
    ];
    for (const [config, values, callback] of cases) {
      const before = { ...config };
      utils.normalizeQueryConfig = original;
      const expected = kept(new pg.Query(config as never, values as never, callback as never));
      utils.normalizeQueryConfig = installed;
      const actual = kept(new pg.Query(config as never, values as never, callback as never));
      expect(actual).toEqual(expected);
      expect(config).toEqual(before);
    }
  });

  it('leaves a config that is not a plain object to pg own copy, prototype and all', () => {
    class Config {
      text = 'select 1';
      get name() {
        return 'from-prototype';
      }
    }
    const copy = installed(new Config());
    expect(Object.getPrototypeOf(copy)).toBe(Config.prototype);
    expect(copy.name).toBe('from-prototype');
    const inherited = Object.create({ name: 'inherited' }) as Record<string, unknown>;
    inherited.text = 'select 1';
    expect(installed(inherited).name).toBe('inherited');
  });
});
