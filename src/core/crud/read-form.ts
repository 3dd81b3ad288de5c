/**
 * What a read shows (its form): full or brief, the fields excluded, and, in the 4.4 dialect, the
 * fields chosen by `?fields=` or left out by `?omit=`, as the render plan they make
 * (represent/plan.ts). Every read of a model's representation takes its form from here (read.ts).
 */
import type { RequestContext } from '../context.js';
import { Errors } from '../errors.js';
import type { ModelDef } from '../model/types.js';
import type { Params } from '../query/filters.js';
import { BOOLEAN_MESSAGE, booleanWord } from '../query/parse-value.js';
import { planRender, type RenderPlan } from '../represent/plan.js';
import type { Mode } from '../represent/render.js';

/** What a read shows: the mode, the fields excluded, and the render plan they make (represent/plan.ts). */
export interface Form {
  mode: Mode;
  exclude: Set<string>;
  shown: RenderPlan;
}

export function formOf(rc: RequestContext, model: ModelDef, params: Params): Form {
  const { dialect } = rc;
  const every = !!rc.everyField;
  const exclude = excludeOf(params, 'exclude');
  if (dialect === '4.4') {
    // NetBox 4.0 `?fields=`, 4.5 `?omit=`: fields wins over omit, either over brief (netbox/api/viewsets)
    const fields = excludeOf(params, 'fields');
    if (fields.size) return { mode: 'full', exclude, shown: planRender(model, 'full', { dialect, fields, every }) };
    const omit = excludeOf(params, 'omit');
    if (omit.size) {
      const all = planRender(model, 'full', { dialect, every });
      const kept = namesOf(all).filter((n) => !omit.has(n));
      return { mode: 'full', exclude, shown: planRender(model, 'full', { dialect, fields: new Set(kept), every }) };
    }
  }
  const mode = modeOf(params);
  return { mode, exclude, shown: planRender(model, mode, { exclude, dialect, every }) };
}

/** Every wire name a plan shows, the fixed ones included (what `?omit=` chooses from). */
function namesOf(plan: RenderPlan): string[] {
  const out = ['id', 'url', 'display', ...plan.names, ...plan.countKeys];
  if (plan.withDisplayUrl) out.push('display_url');
  if (plan.withTags) out.push('tags');
  if (plan.withCustomFields) out.push('custom_fields');
  if (plan.withDepth) out.push('_depth');
  return [...out, 'created', 'last_updated'];
}

/**
 * `brief`: a boolean word (booleanWord: true/false, 1/0, yes/no, on/off, any case); absent or
 * empty means the full form. NetBox 3.4 takes any non-empty value as brief, `false` and `0`
 * included; here a false word gives the full form and any other word is a 400 naming the parameter.
 */
function modeOf(params: Params): Mode {
  let brief: boolean | undefined;
  for (const raw of params.get('brief') ?? []) {
    if (raw.trim() === '') continue;
    const b = booleanWord(raw);
    if (b === null) throw Errors.invalidParameter('brief', BOOLEAN_MESSAGE(raw));
    brief ??= b;
  }
  return brief ? 'brief' : 'full';
}

/** The names a comma-separated parameter lists (`exclude`, `fields`, `omit`). */
function excludeOf(params: Params, name: string): Set<string> {
  const out = new Set<string>();
  for (const v of params.get(name) ?? []) for (const part of v.split(',')) if (part.trim()) out.add(part.trim());
  return out;
}
