/**
 * Which statements may write: the change watch moves the data generation after them
 * (change-watch.ts), and a read on a replica sends them to the primary (replicas/routing-pool.ts).
 */
import { LRUCache } from 'lru-cache';

// vacuum and analyze change no data (PGlite's maintenance runs them: pglite-maintenance.ts)
const READS = new Set(['select', 'begin', 'start', 'show', 'explain', 'set', 'vacuum', 'analyze']);

/**
 * CTE texts already scanned: every list and detail is a `with` statement of a few kilobytes, and
 * the same texts come back request after request (they are prepared statements).
 */
const cteWrites = new LRUCache<string, boolean>({ max: 2_000 });

/** True unless the statement is certainly a read (writes hidden in a CTE count as writes). */
export function mayWrite(sqlText: string): boolean {
  // leading block comments and parentheses skipped
  const head = /^(?:\s|\/\*[^]*?\*\/|\()*([a-z]+)/i.exec(sqlText)?.[1]?.toLowerCase() ?? '';
  if (head !== 'with') return !READS.has(head);
  let writes = cteWrites.get(sqlText);
  if (writes === undefined) {
    writes = /\b(insert|update|delete|merge)\b/i.test(sqlText);
    cteWrites.set(sqlText, writes);
  }
  return writes;
}

/**
 * True unless every statement of the script is certainly a read. Split naively at semicolons: a
 * fragment cut out of a literal or a function body reads as a write, which only errs on the safe side.
 */
export function scriptMayWrite(script: string): boolean {
  return script.split(';').some((part) => part.trim() !== '' && mayWrite(part));
}
