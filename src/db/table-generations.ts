/**
 * Generations per table, beside the one data generation (change-watch.ts): a cache that depends
 * on a few tables (custom field definitions, tokens, event rules) is versioned by theirs, so a
 * write elsewhere - every POST of an address, say - no longer ends it. Under a stream of
 * creates, the global generation moved on every statement and those caches never hit, costing
 * each write three statements it did not need.
 *
 * A table's generation moves when a statement writing it completes and, since a transaction's
 * writes become visible only at its COMMIT, again at every COMMIT or ROLLBACK for every table
 * written while a transaction was open. The statements of a transaction cannot be told from
 * another's here (the log hook does not say which connection ran a statement), so the tables
 * written stay "pending" until no transaction is open at all: a commit may move a table some other
 * transaction wrote - a spurious miss, never a stale hit. A write whose tables cannot be read off
 * its text (DDL, COPY, a function) moves the epoch, which every table version includes.
 */
import { LRUCache } from 'lru-cache';

const TABLE = String.raw`(?:"?\w+"?\.)?"?(\w+)"?`;
const HEAD = new RegExp(
  String.raw`^(?:\s|\/\*[^]*?\*\/|\()*(?:insert\s+into|update(?:\s+only)?|delete\s+from(?:\s+only)?)\s+${TABLE}`,
  'i',
);
const ANY = new RegExp(String.raw`\b(?:insert\s+into|update(?:\s+only)?|delete\s+from(?:\s+only)?)\s+${TABLE}`, 'gi');

/** statement texts already parsed (the same prepared texts come back request after request) */
const parsed = new LRUCache<string, { tables: string[] | null }>({ max: 2_000 });

/**
 * The tables a write statement writes, read off its text, or null when they cannot be: a plain
 * INSERT / UPDATE / DELETE names its table first; a WITH statement's writing parts are all found.
 */
export function tablesWritten(sqlText: string): string[] | null {
  let hit = parsed.get(sqlText);
  if (!hit) {
    const head = /^(?:\s|\/\*[^]*?\*\/|\()*([a-z]+)/i.exec(sqlText)?.[1]?.toLowerCase();
    let tables: string[] | null = null;
    if (head === 'with') tables = [...new Set([...sqlText.matchAll(ANY)].map((m) => m[1]!.toLowerCase()))];
    else if (head === 'insert' || head === 'update' || head === 'delete') {
      const m = HEAD.exec(sqlText);
      tables = m ? [m[1]!.toLowerCase()] : null;
    }
    if (tables && tables.length === 0) tables = null;
    hit = { tables };
    parsed.set(sqlText, hit);
  }
  return hit.tables;
}

/** What a statement does to the transaction count. */
function transactionStep(sqlText: string): 'begin' | 'end' | null {
  const t = sqlText.trimStart().slice(0, 24).toLowerCase();
  if (t.startsWith('begin') || t.startsWith('start transaction')) return 'begin';
  // `rollback to savepoint` ends no transaction
  if (t.startsWith('commit') || t.startsWith('end') || (t.startsWith('rollback') && !/^rollback\s+to\b/.test(t)))
    return 'end';
  return null;
}

export class TableGenerations {
  private epoch = 0;
  private readonly gens = new Map<string, number>();
  private open = 0;
  private readonly pending = new Set<string>();
  private pendingUnknown = false;

  /** A version of these tables' data: it moves whenever any of them may have changed. */
  version(tables: readonly string[]): string {
    let out = `e${this.epoch}`;
    for (const t of tables) out += `.${this.gens.get(t) ?? 0}`;
    return out;
  }

  /** every table: a write nobody could place, or a restart of the change listener */
  moveAll(): void {
    this.epoch++;
  }

  move(tables: readonly string[]): void {
    for (const t of tables) this.gens.set(t, (this.gens.get(t) ?? 0) + 1);
  }

  /**
   * Observes a completed statement; returns what another process must be told moved: table
   * names, '*' for every table, or nothing. A write while a transaction is open is told at the
   * next COMMIT or ROLLBACK, when its data may have become visible (a bulk create once sent
   * a notification per statement, none of which another process could act on); a write with no
   * transaction open is told at once.
   */
  observe(sqlText: string, isWrite: boolean): string[] | null {
    const step = transactionStep(sqlText);
    if (step === 'begin') {
      this.open++;
      return null;
    }
    if (step === 'end') {
      this.open = Math.max(0, this.open - 1);
      const told = this.pendingUnknown ? ['*'] : [...this.pending];
      if (this.pendingUnknown) this.moveAll();
      this.move([...this.pending]);
      if (this.open === 0) {
        this.pending.clear();
        this.pendingUnknown = false;
      }
      return told.length ? told : null;
    }
    if (!isWrite) return null;
    const tables = tablesWritten(sqlText);
    if (!tables) {
      this.moveAll();
      if (this.open === 0) return ['*'];
      this.pendingUnknown = true;
      return null;
    }
    this.move(tables);
    if (this.open === 0) return tables;
    for (const t of tables) this.pending.add(t);
    return null;
  }
}
