/**
 * Parses one filter value by kind. A bad value is a 400 naming the parameter (reference 8.3);
 * booleans other than true/false are ignored, as Django's NullBooleanSelect does.
 */
import { Errors } from '../errors.js';

export const IGNORE = Symbol('ignore');

const TRUE_WORDS = /^(true|1|yes|on)$/i;
const FALSE_WORDS = /^(false|0|no|off)$/i;

/**
 * The boolean words every boolean query value accepts (`brief`, boolean filters, `__empty`): true/
 * false, 1/0, yes/no, on/off, in any case; null for anything else. A superset of NetBox's
 * (Django's NullBooleanSelect takes true/false), so what NetBox accepts still works.
 */
export function booleanWord(raw: string): boolean | null {
  const s = raw.trim();
  if (TRUE_WORDS.test(s)) return true;
  if (FALSE_WORDS.test(s)) return false;
  return null;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

function validDate(s: string): boolean {
  const d = new Date(`${s.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s.slice(0, 10);
}

export function parseFilterValue(param: string, kind: string, raw: string): unknown {
  switch (kind) {
    case 'integer':
    case 'id':
      if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw))) throw Errors.invalidFilter(param, 'Enter a whole number.');
      return Number(raw);
    case 'decimal':
      if (raw.trim() === '' || !Number.isFinite(Number(raw))) throw Errors.invalidFilter(param, 'Enter a number.');
      return Number(raw);
    case 'date':
      if (!DATE_RE.test(raw) || !validDate(raw)) throw Errors.invalidFilter(param, 'Enter a valid date.');
      return raw;
    case 'datetime': {
      const s = raw.trim();
      if (!DATETIME_RE.test(s) || !validDate(s) || Number.isNaN(new Date(s.replace(' ', 'T')).getTime())) {
        throw Errors.invalidFilter(param, 'Enter a valid date/time.');
      }
      return s.length === 10 ? `${s}T00:00:00Z` : s;
    }
    case 'boolean':
      if (raw === 'true' || raw === 'True') return true;
      if (raw === 'false' || raw === 'False') return false;
      return IGNORE;
    default:
      return raw;
  }
}

/** `empty` and other boolean-valued lookups accept the usual spellings */
export function parseBooleanLookup(param: string, raw: string): boolean {
  if (/^(true|1)$/i.test(raw)) return true;
  if (/^(false|0)$/i.test(raw)) return false;
  throw Errors.invalidFilter(param, 'Enter a valid boolean (true or false).');
}
