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

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const COMMA = 0x2c;
const QUOTE = 0x22;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const NO_KEY = Number.MAX_SAFE_INTEGER;

/** A number token no double can get wrong: at most 15 characters and no exponent. */
function plainNumber(text: string, from: number, to: number): boolean {
  if (to - from > 15) return false;
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k) | 0x20;
    if (c === 0x65) return false; // e or E
  }
  return true;
}

/**
 * Walks JSON text, keeping the path of the current value; with `check`, stops at the first
 * problem. Also walks a prefix of a text (an unterminated last string ends the walk). Keys are
 * kept as the offsets of their tokens and read only for a problem's path, and only strings with
 * a `\u` escape are decoded, so an ordinary body costs one pass and no allocation per value.
 */
function walk(text: string, maxDepth: number, check: boolean): WalkState {
  // per open container: the offset of the current key's token (objects; NO_KEY before the first),
  // or the current index (arrays, as -1 - index)
  const slots: number[] = [];
  let expectKey = false;
  const n = text.length;
  let nextEscape = text.indexOf('\\u');
  const pathNow = (levels = slots.length): JsonPath =>
    slots.slice(0, levels).map((slot) => {
      if (slot < 0) return -1 - slot;
      if (slot === NO_KEY) return '';
      const token = text.slice(slot, endOfString(text, slot));
      return token.includes('\\') ? (JSON.parse(token) as string) : token.slice(1, -1);
    });
  const stop = (message: string, levels = slots.length): WalkState => {
    const path = pathNow(levels);
    return { problem: { path, message }, path, inKey: false };
  };
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (check && slots.length >= maxDepth) return stop(`JSON nested deeper than ${maxDepth} levels.`);
      slots.push(c === OPEN_OBJECT ? NO_KEY : -1);
      expectKey = c === OPEN_OBJECT;
      i++;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      slots.pop();
      expectKey = false;
      i++;
    } else if (c === COMMA) {
      const top = slots.length - 1;
      if (slots[top]! >= 0) expectKey = true;
      else slots[top] = slots[top]! - 1;
      i++;
    } else if (c === QUOTE) {
      const end = endOfString(text, i);
      if (end < 0) break;
      while (nextEscape >= 0 && nextEscape < i) nextEscape = text.indexOf('\\u', nextEscape + 2);
      const problem = check && nextEscape >= 0 && nextEscape < end ? stringProblem(text.slice(i, end)) : null;
      if (expectKey) {
        if (problem) return stop(`Invalid key: ${problem}`, slots.length - 1);
        slots[slots.length - 1] = i;
        expectKey = false;
      } else if (problem) return stop(problem);
      i = end;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      NUMBER_END.lastIndex = i;
      const end = NUMBER_END.exec(text)?.index ?? n;
      const problem = check && !plainNumber(text, i, end) ? numberProblem(text.slice(i, end)) : null;
      if (problem) return stop(problem);
      i = end;
    } else i++;
  }
  return { problem: null, path: pathNow(), inKey: expectKey };
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
