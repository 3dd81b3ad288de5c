/**
 * One object type of a copy, written whole or not at all (one transaction): the source's objects
 * that the target already holds identically are skipped (a run resumed after a failure), an id
 * the target holds with another object is refused, and the rest are created through the write
 * path, level by level where the type refers to itself. A rejected object stops the type, or,
 * with `--continue-on-error`, is reported and left out.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../core/context.js';
import { inTransaction } from '../core/crud/routes.js';
import { createObjects, updateObjects } from '../core/crud/write-service.js';
import { ApiError } from '../core/errors.js';
import type { Row } from '../core/model/types.js';
import type { UploadedFile } from '../core/media/uploaded-file.js';
import { levels } from './levels.js';
import type { Step } from './plan.js';
import { ImportError, type Rep } from './source.js';
import { readTarget, sameObject } from './target-read.js';
import { type InputRules, setsAnything, toInput } from './to-input.js';

export interface Rejected {
  id: number;
  display: string;
  reason: string;
}

export interface TypeOutcome {
  created: number;
  /** already in the target, identical */
  present: number;
  rejected: Rejected[];
}

/** objects per bulk write: large enough that per-statement costs vanish, small enough for the parameters */
const BATCH = 500;

function reasonOf(err: unknown): string {
  if (err instanceof ApiError) return JSON.stringify(err.body);
  return (err as Error).message;
}

const displayOf = (r: Rep) => String(r.display ?? r.name ?? r.username ?? r.id);

/**
 * Writes one batch; with `keepGoing`, objects the write path rejects are left out one by one
 * (their errors come aligned with the batch) and the rest written again.
 */
async function writeBatch(
  rc: RequestContext,
  step: Step,
  reps: Rep[],
  inputs: Rep[],
  keepGoing: boolean,
  rejected: Rejected[],
): Promise<number> {
  let left = reps.map((r, i) => ({ rep: r, input: inputs[i]! }));
  for (;;) {
    if (!left.length) return 0;
    try {
      const inputs = left.map((l) => l.input);
      const rows = await savepoint(rc, keepGoing, () => createObjects(rc, step.model, inputs, true));
      return rows.length;
    } catch (err) {
      const aligned = err instanceof ApiError && Array.isArray(err.body) ? (err.body as Row[]) : null;
      const bad = aligned
        ? left.filter((_, i) => Object.keys(aligned[i] ?? {}).length)
        : err instanceof ApiError && err.itemIndex !== undefined
          ? [left[err.itemIndex]!]
          : [];
      if (!bad.length) throw err;
      const found = bad.map((b) => ({
        id: Number(b.rep.id),
        display: displayOf(b.rep),
        reason: JSON.stringify(aligned ? aligned[left.indexOf(b)] : (err as ApiError).body),
      }));
      if (!keepGoing) {
        const f = found[0]!;
        throw new ImportError(`${step.model.name} ${f.id} (${f.display}) was refused: ${f.reason}`);
      }
      rejected.push(...found);
      left = left.filter((l) => !bad.includes(l));
    }
  }
}

/**
 * Runs a write that may be refused under a savepoint when the copy goes on after refusals, so the
 * batch can be written again without its bad objects (a failed statement aborts the transaction)
 */
async function savepoint<T>(rc: RequestContext, needed: boolean, write: () => Promise<T>): Promise<T> {
  if (!needed) return write();
  await sql`savepoint import_batch`.execute(rc.q);
  try {
    const out = await write();
    await sql`release savepoint import_batch`.execute(rc.q);
    return out;
  } catch (err) {
    await sql`rollback to savepoint import_batch`.execute(rc.q);
    throw err;
  }
}

/** the first pass of a type: every object the target lacks, created with the source's id */
export async function writeType(
  rc: RequestContext,
  step: Step,
  reps: Rep[],
  rules: InputRules,
  keepGoing: boolean,
  /** the files of a type that uploads them (image attachments), by object id */
  files?: ReadonlyMap<number, UploadedFile>,
): Promise<TypeOutcome> {
  const model = step.model;
  const outcome: TypeOutcome = { created: 0, present: 0, rejected: [] };
  const ids = reps.map((r) => Number(r.id));
  const { rows } = await sql<{
    id: number;
  }>`select id from ${sql.table(model.table)} where id = any(${ids}::bigint[])`.execute(rc.q);
  const taken = new Set(rows.map((r) => Number(r.id)));
  let fresh = reps;
  if (taken.size) {
    const theirs = await readTarget(rc, model, [...taken]);
    for (const rep of reps.filter((r) => taken.has(Number(r.id)))) {
      const here = theirs.get(Number(rep.id));
      const diff = here && sameObject(model, rep, here, rules, step.deferred);
      if (diff === true) {
        outcome.present++;
        continue;
      }
      const reason = `id ${rep.id} is taken here by another object (${diff || 'not readable'})`;
      if (!keepGoing) throw new ImportError(`${model.name} ${rep.id} (${displayOf(rep)}): ${reason}`);
      outcome.rejected.push({ id: Number(rep.id), display: displayOf(rep), reason });
    }
    fresh = reps.filter((r) => !taken.has(Number(r.id)));
  }
  if (!fresh.length) return outcome;
  const { levels: ordered, looped } = levels(fresh, step.selfRefs);
  for (const r of looped)
    outcome.rejected.push({
      id: Number(r.id),
      display: displayOf(r),
      reason: `a loop of ${step.selfRefs.join('/')} references`,
    });
  if (looped.length && !keepGoing)
    throw new ImportError(
      `${model.name}: ${looped.length} objects refer to each other in a loop (${looped.map((r) => r.id).join(', ')})`,
    );
  await inTransaction(rc, async (trx) => {
    if (files) {
      // one object a write: each carries its file as a multipart part would (rc.files)
      for (const r of fresh) {
        const file = files.get(Number(r.id))!;
        // the field is written by the file; its rendered value is the source's URL
        const { [file.field]: _url, ...input } = toInput(model, r, rules, step.deferred);
        const one = { ...trx, files: new Map([[file.field, file]]) };
        outcome.created += await writeBatch(one, step, [r], [input], keepGoing, outcome.rejected);
      }
      return;
    }
    for (const level of ordered) {
      for (let i = 0; i < level.length; i += BATCH) {
        const batch = level.slice(i, i + BATCH);
        const inputs = batch.map((r) => toInput(model, r, rules, step.deferred));
        outcome.created += await writeBatch(trx, step, batch, inputs, keepGoing, outcome.rejected);
      }
    }
  });
  return outcome;
}

/** the second pass of a type: the references that waited for every object to exist */
export async function writeDeferred(
  rc: RequestContext,
  step: Step,
  reps: Rep[],
  rules: InputRules,
  keepGoing: boolean,
  skip: Set<number>,
): Promise<{ updated: number; rejected: Rejected[] }> {
  const inputs = reps
    .filter((r) => !skip.has(Number(r.id)))
    .map((r) => toInput(step.model, r, rules, step.deferred, true))
    .filter(setsAnything);
  const rejected: Rejected[] = [];
  if (!inputs.length) return { updated: 0, rejected };
  let updated = 0;
  await inTransaction(rc, async (trx) => {
    for (let i = 0; i < inputs.length; i += BATCH) {
      let batch = inputs.slice(i, i + BATCH);
      for (;;) {
        try {
          const items = batch;
          await savepoint(trx, keepGoing, () => updateObjects(trx, step.model, items, 'update', true));
          updated += batch.length;
          break;
        } catch (err) {
          const at = err instanceof ApiError ? err.itemIndex : undefined;
          if (at === undefined) throw err;
          const bad = batch[at]!;
          if (!keepGoing)
            throw new ImportError(`${step.model.name} ${bad.id}: its references were refused: ${reasonOf(err)}`);
          rejected.push({ id: Number(bad.id), display: String(bad.id), reason: reasonOf(err) });
          batch = batch.filter((b) => b !== bad);
        }
      }
    }
  });
  return { updated, rejected };
}
