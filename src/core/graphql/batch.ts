/**
 * Batches: every object a GraphQL query returns belongs to the batch it was loaded with (the rows
 * of one list, of one relation of one level). A field that needs more than the row's own columns
 * (a related object, a nested list, a count, the rendered form) is loaded once for the whole
 * batch, the first time any of its objects asks, and memoised on the batch - so related objects
 * cost one statement per relation per level, never one per row, whatever the page size (DESIGN:
 * Performance habits). No timers are involved: the batch is known when its rows arrive.
 */
import type { RequestContext } from '../context.js';
import type { ModelDef, Row } from '../model/types.js';

/** The per-request state of one GraphQL execution (its `contextValue`). */
export interface GraphqlContext {
  rc: RequestContext;
  /** view scope per model identity, asked once per request (loads.ts scopeOf) */
  scopes: Map<string, Promise<unknown>>;
}

export class Batch {
  readonly nodes: Node[];
  private readonly memo = new Map<unknown, Promise<unknown>>();

  constructor(
    readonly model: ModelDef,
    readonly rows: Row[],
  ) {
    this.nodes = rows.map((row) => ({ model, row, batch: this }));
  }

  /**
   * Runs `load` once for the batch under `key` (a string, or the query's field node when the answer
   * depends on its arguments); every object of the batch shares the answer.
   */
  once<T>(key: unknown, load: () => Promise<T>): Promise<T> {
    let p = this.memo.get(key) as Promise<T> | undefined;
    if (!p) this.memo.set(key, (p = load()));
    return p;
  }

  ids(): number[] {
    return [...new Set(this.rows.map((r) => Number(r.id)))];
  }
}

/** One object of a GraphQL answer: its stored row, and the batch it came with. */
export interface Node {
  model: ModelDef;
  row: Row;
  batch: Batch;
}

/** Groups loaded rows under the id of the object they belong to (`__owner`), as nodes of one batch. */
export function groupByOwner(model: ModelDef, rows: Row[]): Map<number, Node[]> {
  const owners = rows.map((r) => Number(r.__owner));
  // the last column first: removing a row's last property keeps it a fast object (V8), removing
  // an earlier one turns it into a dictionary
  for (const r of rows) {
    delete r.__rn;
    delete r.__owner;
  }
  const batch = new Batch(model, rows);
  const out = new Map<number, Node[]>();
  batch.nodes.forEach((n, i) => {
    const list = out.get(owners[i]!);
    if (list) list.push(n);
    else out.set(owners[i]!, [n]);
  });
  return out;
}
