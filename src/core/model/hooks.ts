/**
 * What a model may add to the one write path and to its representation: the hooks of a
 * declaration (ModelDef.hooks), each run by core/crud/ at one point of a write, in its transaction.
 */
import type { RequestContext } from '../context.js';

export interface WriteHookArgs {
  rc: RequestContext;
  /** the object as it will be stored: column values (fk as `<name>_id`) */
  data: Record<string, unknown>;
  /** stored row before the change, null on create */
  before: Record<string, unknown> | null;
  /** the fields the client sent */
  sent: Set<string>;
}

export interface ModelHooks {
  /**
   * extra domain validation; returns field errors (`{field: [msg]}`) or throws an ApiError.
   * `earlier` holds the data of the items of the same request validated before this one: a rule
   * that compares an object with stored ones (no overlap, no duplicate) compares it with those
   * too, as they will be stored alongside (the later duplicate of a bulk write is named:
   * docs/api-differences.md, "Strict input").
   */
  validate?(
    args: WriteHookArgs & { earlier: ReadonlyArray<Record<string, unknown>> },
  ): Promise<Record<string, string[]> | undefined>;
  /**
   * runs once per bulk write (more than one item to validate) before its items are validated, with
   * the data each validate will get: reads the related rows the rules will ask for, for all the
   * items at once, into the request's lookups (crud/row-by-id.ts preloadLookups). Decides nothing
   * itself; a single item's rules read what they need as they go.
   */
  beforeValidate?(args: { rc: RequestContext; items: ReadonlyArray<Record<string, unknown>> }): Promise<void>;
  /**
   * may change `data` before it is stored (hash a password, fill a key); `m2m` holds the member ids
   * of the m2m fields the write sets, by field key, and may be changed too (a contact's 3.4 `group`
   * sets its NetBox 4.3 `groups`)
   */
  prepare?(args: WriteHookArgs & { m2m: Map<string, number[]> }): Promise<void> | void;
  /**
   * runs once the row is stored (create and update), in the same transaction and before the
   * change record: writes rows of other tables that need this row's id (a cable's terminations).
   * `data` is the object the prepare hook received.
   */
  afterWrite?(args: WriteHookArgs & { row: Record<string, unknown> }): Promise<void> | void;
  /**
   * whether afterWrite has anything to do for an object created with `data` (absent: always): a
   * model that says so keeps the one-statement create (crud/create-in-one.ts) for the objects
   * that need no afterWrite (an interface written without a MAC address).
   */
  writesAfter?(data: Record<string, unknown>): boolean;
  /**
   * as afterWrite, for updates only: upkeep that only a change of a stored row can call for (an
   * interface leaving tagged mode loses its tagged VLANs). A model whose creates run no afterWrite
   * or afterCreate hook writes nothing else while it creates, so its new rows are known to have no
   * counted or pointing rows yet (render-written.ts: they are rendered without being read again).
   */
  afterUpdate?(args: WriteHookArgs & { row: Record<string, unknown> }): Promise<void> | void;
  /**
   * runs once per create request, after its objects and their change records are stored, with all
   * of them at once: follow-up creates batched for the whole request (a device's components from
   * its type's templates). `data` of each is the object the prepare hook received.
   */
  afterCreate?(args: {
    rc: RequestContext;
    created: Array<{ data: Record<string, unknown>; row: Record<string, unknown> }>;
  }): Promise<void>;
  /**
   * runs after rows of this model were deleted (by the one delete path, cascades included), in the
   * same transaction: upkeep of derived data that is not a reference (the stored cable paths that
   * passed through a deleted cable or port). `rows` are the deleted rows as they were stored.
   */
  afterDelete?(args: {
    rc: RequestContext;
    rows: ReadonlyArray<Record<string, unknown>>;
    /** whether the same delete removes that object too (upkeep of an object about to go is left out) */
    deleting: (model: string, id: number) => boolean;
  }): Promise<void> | void;
  /** adjusts the representation of rows (mask a token key, add computed values) */
  represent?(
    rc: RequestContext,
    rows: Record<string, unknown>[],
    out: Record<string, unknown>[],
    info: {
      mode: 'full' | 'brief' | 'nested';
      created: boolean;
      /** the rows of ModelDef.representRows[key] for these rows: read with the page's statement, else read now */
      readRows: (key: string) => Promise<Record<string, unknown>[]>;
    },
  ): Promise<void> | void;
}
