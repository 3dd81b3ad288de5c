/**
 * What JSON.parse lets through but a stored value must not hold, found in one pass over the text
 * of a body that already parsed: numbers JavaScript cannot represent (`1e400` becomes Infinity,
 * `1e-400` becomes 0, a 20-digit integer loses its last digits), strings holding a lone UTF-16
 * surrogate (`"\ud800"`: PostgreSQL would store U+FFFD in its place) or a NUL character
 * (PostgreSQL text cannot hold one), and nesting deeper than MAX_JSON_DEPTH. Each problem comes
 * with the path of the value, so the answer can name the field.
 */

/**
 * The deepest nesting a body may have. The deepest legitimate bodies are a bulk list of objects
 * whose related objects are written by nested attributes (reference 2: `{"rack": {"site": {...}}}`,
 * under ten levels) and free-form JSON (config context data, JSON custom fields), whose real-world
 * depth is in single digits. 64 leaves room for those while keeping every recursive walker of a
 * stored value (ours, PostgreSQL's jsonb parser and its stack depth limit) far from its limits.
 */
export const MAX_JSON_DEPTH = 64;

export type JsonPath = Array<string | number>;

/** `custom_fields.x[2]`: a path as a reader writes it */
export function formatJsonPath(path: JsonPath): string {
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export interface JsonProblem {
  /** keys and indexes from the top of the body to the value */
  path: JsonPath;
  message: string;
}

const BACKSLASH = 0x5c;

/** Index just past the closing quote of the string starting at `start` (the opening quote); -1 when unterminated. */
function endOfString(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) return -1;
    // the quote is escaped when an odd number of backslashes precede it
    let b = q - 1;
    while (b > start && text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q + 1;
    i = q + 1;
  }
}

function shorten(s: string): string {
  return s.length > 24 ? `${s.slice(0, 20)}...` : s;
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A string token's problem: lone surrogates and NULs can only come from `\u` escapes in valid UTF-8 text. */
function stringProblem(token: string): string | null {
  if (!token.includes('\\u')) return null;
  const value = JSON.parse(token) as string;
  if (LONE_SURROGATE.test(value)) return 'Enter valid Unicode text: a lone UTF-16 surrogate is not a character.';
  if (value.includes('\u0000')) return 'Null characters are not allowed.';
  return null;
}

const NUMBER_END = /[^0-9eE.+-]/g;

/** A number token's problem: out of the range of a double, or an integer a double cannot hold exactly. */
function numberProblem(token: string): string | null {
  const value = Number(token);
  if (!Number.isFinite(value)) return `A valid number is required: ${shorten(token)} is out of range.`;
  const mantissa = token.replace(/[eE].*$/, '');
  if (value === 0 && /[1-9]/.test(mantissa)) return `A valid number is required: ${shorten(token)} is out of range.`;
  if (!/[.eE]/.test(token) && !Number.isSafeInteger(value)) {
    return `A valid integer is required: ${shorten(token)} cannot be represented exactly.`;
  }
  return null;
}

interface WalkState {
  problem: JsonProblem | null;
  /** where the walk stopped: the path of the value (or key, when inKey) being read */
  path: JsonPath;
  inKey: boolean;
}

/**
 * Walks JSON text, keeping the path of the current value; with `check`, stops at the first
 * problem. Also walks a prefix of a text (an unterminated last string ends the walk).
 */
function walk(text: string, maxDepth: number, check: boolean): WalkState {
  const path: JsonPath = [];
  // per open container: true for an object (its slot in `path` holds the current key)
  const isObject: boolean[] = [];
  let expectKey = false;
  const n = text.length;
  let i = 0;
  const stop = (message: string, at: JsonPath = path): WalkState => ({ problem: { path: [...at], message }, path, inKey: false });
  while (i < n) {
    const c = text[i]!;
    if (c === '{' || c === '[') {
      if (check && isObject.length >= maxDepth) return stop(`JSON nested deeper than ${maxDepth} levels.`);
      isObject.push(c === '{');
      path.push(c === '{' ? '' : 0);
      expectKey = c === '{';
      i++;
    } else if (c === '}' || c === ']') {
      isObject.pop();
      path.pop();
      expectKey = false;
      i++;
    } else if (c === ',') {
      const top = path.length - 1;
      if (isObject[top]) expectKey = true;
      else path[top] = (path[top] as number) + 1;
      i++;
    } else if (c === '"') {
      const end = endOfString(text, i);
      if (end < 0) break;
      const token = text.slice(i, end);
      const problem = check ? stringProblem(token) : null;
      if (expectKey) {
        if (problem) return stop(`Invalid key: ${problem}`, path.slice(0, -1));
        path[path.length - 1] = token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
        expectKey = false;
      } else if (problem) return stop(problem);
      i = end;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER_END.lastIndex = i;
      const end = NUMBER_END.exec(text)?.index ?? n;
      const problem = check ? numberProblem(text.slice(i, end)) : null;
      if (problem) return stop(problem);
      i = end;
    } else i++;
  }
  return { problem: null, path, inKey: expectKey };
}

/**
 * Scans the text of a body JSON.parse accepted; returns its first problem, or null. Keys are
 * checked like string values. Linear in the length of the text.
 */
export function findJsonProblem(text: string, maxDepth = MAX_JSON_DEPTH): JsonProblem | null {
  return walk(text, maxDepth, true).problem;
}

/** The path of the value being written where `prefix` (the start of a JSON text) ends; a key's container when it ends in a key. */
export function jsonPathAt(prefix: string): JsonPath {
  const { path, inKey } = walk(prefix, Number.MAX_SAFE_INTEGER, false);
  return inKey ? path.slice(0, -1) : path;
}
