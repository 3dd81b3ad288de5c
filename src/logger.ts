/**
 * The service's logger. LOG_FORMAT=json writes pino's JSON lines, one per record (one per request),
 * for log collectors; `pretty` writes one readable line per record for a person at a terminal;
 * `auto` (the default) picks pretty when stdout is a terminal and JSON otherwise (production).
 * JSON mode is the plain pino logger the service always had: no extra work per request. Pretty
 * mode re-reads each JSON line pino wrote, which is fine at a terminal's pace and needs no
 * pino-pretty dependency.
 */
import pino from 'pino';
import type { Config } from './config.js';

/** where log lines go: process.stdout, or a test's collector */
export interface LogSink {
  write(line: string): unknown;
  isTTY?: boolean;
}

export function resolveLogFormat(format: Config['logFormat'], sink: LogSink): 'json' | 'pretty' {
  if (format !== 'auto') return format;
  return sink.isTTY ? 'pretty' : 'json';
}

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** pino's own fields and the request fields laid out in the line itself */
const SHOWN = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'method', 'url', 'status', 'ms', 'user']);

function clock(time: unknown): string {
  const d = typeof time === 'number' ? new Date(time) : new Date();
  return `${d.toTimeString().slice(0, 8)}.${String(d.getMilliseconds()).padStart(3, '0')}`;
}

/**
 * One readable line from one of pino's JSON lines: a request (app.ts writes method, url, status,
 * ms, user) reads `12:00:01.234 GET /api/dcim/sites/ 200 3.1 ms admin`; any other record reads
 * `12:00:01.234 WARN message key=value ...`.
 */
export function formatPrettyLine(json: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = typeof rec.level === 'number' ? rec.level : 30;
  if (rec.msg === 'request' && rec.method !== undefined && rec.status !== undefined) {
    const user = rec.user ? ` ${String(rec.user)}` : '';
    return `${clock(rec.time)} ${String(rec.method)} ${String(rec.url)} ${String(rec.status)} ${String(rec.ms)} ms${user}\n`;
  }
  const extra = Object.entries(rec)
    .filter(([k]) => !SHOWN.has(k))
    .map(([k, v]) => {
      if (k === 'err' && v && typeof v === 'object' && 'stack' in v)
        return `\n${String((v as { stack: unknown }).stack)}`;
      return ` ${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`;
    })
    .join('');
  return `${clock(rec.time)} ${LEVELS[level] ?? String(level)} ${String(rec.msg ?? '')}${extra}\n`;
}

/** The logger buildApp gets (opts.logger); `sink` defaults to stdout. */
export function createLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  sink: LogSink = process.stdout,
): pino.Logger {
  if (resolveLogFormat(config.logFormat, sink) === 'json') {
    // exactly what app.ts builds without a logger, so production lines do not change
    return sink === process.stdout
      ? pino({ level: config.logLevel })
      : pino({ level: config.logLevel }, { write: (line: string) => sink.write(line) });
  }
  return pino({ level: config.logLevel }, { write: (line: string) => sink.write(formatPrettyLine(line)) });
}
