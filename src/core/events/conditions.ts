/**
 * NetBox's JSON conditions language (reference 12.2), which decides whether an event rule fires
 * for an object. A ruleset is `{"and": [...]}` or `{"or": [...]}` (key case-insensitive) holding
 * conditions and nested rulesets; a condition is `{"attr": "status.value", "value": "active",
 * "op": "eq", "negate": false}`. `attr` is a dot path into the object's REST data; a path that
 * crosses a list gathers the attribute from each member (NetBox 3.7). A bare condition is taken as
 * a ruleset of one (NetBox 4).
 *
 * Which operators a value type allows (NetBox): string eq/contains/regex; boolean eq/contains;
 * number eq/gt/gte/lt/lte/contains; list eq/in/contains; null eq. A comparison between values
 * of different types is false, never an error: an event must not fail because data changed shape.
 */

type Json = unknown;

const OPS_BY_TYPE: Record<string, readonly string[]> = {
  string: ['eq', 'contains', 'regex'],
  boolean: ['eq', 'contains'],
  number: ['eq', 'gt', 'gte', 'lt', 'lte', 'contains'],
  list: ['eq', 'in', 'contains'],
  null: ['eq'],
};

function typeOf(v: Json): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'list';
  return typeof v;
}

function logicKey(obj: Record<string, unknown>): 'and' | 'or' | null {
  const keys = Object.keys(obj);
  if (keys.length !== 1) return null;
  const k = keys[0]!.toLowerCase();
  return k === 'and' || k === 'or' ? k : null;
}

function isCondition(obj: Record<string, unknown>): boolean {
  return 'attr' in obj;
}

/** The problems of a conditions value, as messages for the `conditions` field (empty = valid). */
export function conditionErrors(value: Json, path = 'conditions'): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value !== 'object' || Array.isArray(value))
    return [`${path}: a ruleset must be an object with one key, "and" or "or".`];
  const obj = value as Record<string, unknown>;
  if (isCondition(obj)) return conditionProblems(obj, path);
  const logic = logicKey(obj);
  if (!logic) return [`${path}: a ruleset must have exactly one key, "and" or "or".`];
  const items = obj[Object.keys(obj)[0]!];
  if (!Array.isArray(items)) return [`${path}.${logic}: must be a list of conditions or rulesets.`];
  return items.flatMap((item, i) => conditionErrors(item, `${path}.${logic}[${i}]`));
}

function conditionProblems(c: Record<string, unknown>, path: string): string[] {
  const out: string[] = [];
  for (const k of Object.keys(c))
    if (!['attr', 'value', 'op', 'negate'].includes(k)) out.push(`${path}: unknown key "${k}".`);
  if (typeof c.attr !== 'string' || !c.attr) out.push(`${path}.attr: must be a non-empty string.`);
  if (!('value' in c)) out.push(`${path}.value: is required.`);
  const op = c.op ?? 'eq';
  const allowed = OPS_BY_TYPE[typeOf(c.value)];
  if (!allowed) out.push(`${path}.value: must be a string, number, boolean, list or null.`);
  else if (typeof op !== 'string' || !allowed.includes(op))
    out.push(`${path}.op: "${String(op)}" is not valid for a ${typeOf(c.value)} value.`);
  if (c.negate !== undefined && typeof c.negate !== 'boolean') out.push(`${path}.negate: must be true or false.`);
  if (op === 'regex' && typeof c.value === 'string') {
    try {
      new RegExp(c.value);
    } catch {
      out.push(`${path}.value: not a valid regular expression.`);
    }
  }
  return out;
}
