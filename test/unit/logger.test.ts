import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createLogger, formatPrettyLine, type LogSink, resolveLogFormat } from '../../src/logger.js';

function collector(isTTY: boolean): LogSink & { lines: string[] } {
  const lines: string[] = [];
  return { isTTY, lines, write: (line: string) => lines.push(line) };
}

const request = { method: 'GET', url: '/api/dcim/sites/?limit=5', status: 200, ms: 3.4, user: 'admin' };

describe('LOG_FORMAT', () => {
  it('defaults to auto, and takes json, pretty or auto only', () => {
    expect(loadConfig({}).logFormat).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT must be json, pretty or auto/);
  });

  it('auto is pretty on a terminal and JSON elsewhere; an explicit format wins', () => {
    expect(resolveLogFormat('auto', collector(true))).toBe('pretty');
    expect(resolveLogFormat('auto', collector(false))).toBe('json');
    expect(resolveLogFormat('json', collector(true))).toBe('json');
    expect(resolveLogFormat('pretty', collector(false))).toBe('pretty');
  });
});

describe('createLogger', () => {
  it('writes one JSON line per record when stdout is not a terminal', () => {
    const sink = collector(false);
    const log = createLogger({ logLevel: 'info', logFormat: 'auto' }, sink);
    log.info(request, 'request');
    log.debug('below the level');
    expect(sink.lines).toHaveLength(1);
    const rec = JSON.parse(sink.lines[0]!) as Record<string, unknown>;
    expect(rec).toMatchObject({ level: 30, msg: 'request', ...request });
  });

  it('writes one readable line per request on a terminal: time, method, url, status, ms, user', () => {
    const sink = collector(true);
    createLogger({ logLevel: 'info', logFormat: 'auto' }, sink).info(request, 'request');
    expect(sink.lines).toHaveLength(1);
    expect(sink.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} GET \/api\/dcim\/sites\/\?limit=5 200 3\.4 ms admin\n$/);
  });

  it('writes other records as level, message and their fields', () => {
    const sink = collector(true);
    createLogger({ logLevel: 'info', logFormat: 'pretty' }, sink).warn({ signal: 'SIGTERM' }, 'draining');
    expect(sink.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} WARN draining signal=SIGTERM\n$/);
  });
});

describe('formatPrettyLine', () => {
  it('leaves an anonymous request without a user and passes a line that is not JSON through', () => {
    expect(
      formatPrettyLine(
        JSON.stringify({ level: 30, time: 0, msg: 'request', method: 'POST', url: '/api/', status: 403, ms: 1 }),
      ),
    ).toMatch(/ POST \/api\/ 403 1 ms\n$/);
    expect(formatPrettyLine('not json')).toBe('not json\n');
  });
});
