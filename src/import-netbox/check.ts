/**
 * The check that ends a copy: every type read again on both sides, object by object, compared on
 * every key both render (absolute URLs as paths, numbers as text). What differs is named: a few
 * examples per type, and the ids missing on either side.
 */
import type { RequestContext } from '../core/context.js';
import type { ModelDef } from '../core/model/types.js';
import type { Rep, Source } from './source.js';
import { firstDifference, targetPages } from './target-read.js';

export interface TypeCheck {
  model: string;
  source: number;
  target: number;
  /** ids the source has and the target lacks */
  missing: number[];
  /** objects present on both sides that differ */
  differing: number;
  examples: string[];
}

const EXAMPLES = 3;

/**
 * keys that move while the copy reads: a token's last use, also shown as its `last_updated` (the
 * copy's own token is used meanwhile, and a use is recorded again 60 s after the last)
 */
const MOVING: Record<string, string[]> = { 'users.token': ['last_used', 'last_updated'] };

export async function checkCopy(
  rc: RequestContext,
  source: Source,
  types: Array<{ model: ModelDef; path: string }>,
): Promise<TypeCheck[]> {
  const out: TypeCheck[] = [];
  for (const { model, path } of types) {
    const here = new Map<number, Rep>();
    for await (const page of targetPages(rc, model)) for (const r of page) here.set(Number(r.id), r);
    const check: TypeCheck = {
      model: model.name,
      source: 0,
      target: here.size,
      missing: [],
      differing: 0,
      examples: [],
    };
    const extra = model.fields.local_context_data ? '&exclude=config_context' : '';
    for await (const page of source.pages(path, extra)) {
      for (const theirs of page) {
        check.source++;
        const ours = here.get(Number(theirs.id));
        if (!ours) {
          check.missing.push(Number(theirs.id));
          continue;
        }
        const moving = MOVING[model.name] ?? [];
        const diff = firstDifference(
          theirs,
          ours,
          Object.keys(theirs).filter((k) => !moving.includes(k)),
        );
        if (!diff) continue;
        check.differing++;
        if (check.examples.length < EXAMPLES) check.examples.push(`${theirs.id}: ${diff}`);
      }
    }
    out.push(check);
  }
  return out;
}
