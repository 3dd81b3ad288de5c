// Evaluation of NetBox's JSON conditions language (conditions.ts validates and documents it).
// Plain JavaScript so that the template sandbox's thread (sandbox.worker.mjs), which Node starts
// without a TypeScript loader, runs the very same code as the tests.

function logicKey(obj) {
  const keys = Object.keys(obj);
  if (keys.length !== 1) return null;
  const k = keys[0].toLowerCase();
  return k === 'and' || k === 'or' ? k : null;
}

/** The value at a dot path; crossing a list gathers from every member. */
function valueAt(data, path) {
  let cur = data;
  for (const key of path.split('.')) {
    if (Array.isArray(cur)) cur = cur.map((item) => (item && typeof item === 'object' ? (item[key] ?? null) : null));
    else if (cur && typeof cur === 'object') cur = cur[key] ?? null;
    else return null;
  }
  return cur;
}

function deepEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

function compare(op, actual, expected) {
  switch (op) {
    case 'eq':
      return deepEqual(actual, expected);
    case 'gt':
    case 'gte':
    case 'lt':
    case 'lte':
      if (typeof actual !== 'number' || typeof expected !== 'number') return false;
      return op === 'gt'
        ? actual > expected
        : op === 'gte'
          ? actual >= expected
          : op === 'lt'
            ? actual < expected
            : actual <= expected;
    case 'in':
      return Array.isArray(expected) && expected.some((e) => deepEqual(e, actual));
    case 'contains':
      // Python's `value in attr`: a substring of a string, a member of a list
      if (typeof actual === 'string' && typeof expected === 'string') return actual.includes(expected);
      if (Array.isArray(actual)) return actual.some((a) => deepEqual(a, expected));
      return false;
    case 'regex':
      // Python's re.match: anchored at the start only
      return typeof actual === 'string' && typeof expected === 'string' && new RegExp(`^(?:${expected})`).test(actual);
    default:
      return false;
  }
}

/** true when the object's data satisfies the ruleset (no ruleset: always). */
export function evaluateConditions(ruleset, data) {
  if (ruleset === null || ruleset === undefined) return true;
  if ('attr' in ruleset) {
    const result = compare(String(ruleset.op ?? 'eq'), valueAt(data, String(ruleset.attr)), ruleset.value);
    return ruleset.negate ? !result : result;
  }
  const logic = logicKey(ruleset);
  const items = ruleset[Object.keys(ruleset)[0]];
  return logic === 'and'
    ? items.every((i) => evaluateConditions(i, data))
    : items.some((i) => evaluateConditions(i, data));
}
