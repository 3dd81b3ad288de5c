/**
 * Parses one filter value by kind. A value a known filter cannot take is a 400 naming the
 * parameter, never ignored (reference 8.3); the cases NetBox ignores - booleans Django's
 * NullBooleanSelect does not know, networks that do not parse - are 400s too
 * (docs/api-differences.md, "Strict input").
 */
import { Errors } from '../errors.js';
import { networkOf, parseIp, type IpValue } from '../net/ip.js';
import { normaliseMac } from '../net/mac.js';

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

export const BOOLEAN_MESSAGE = (raw: string) =>
  `Must be a valid boolean: ${raw} is not one of true, false, 1, 0, yes, no, on, off.`;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const DECIMAL_RE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function validDate(s: string): boolean {
  const d = new Date(`${s.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s.slice(0, 10);
}

export function parseFilterValue(param: string, kind: 'boolean', raw: string): boolean;
export function parseFilterValue(param: string, kind: 'integer' | 'id' | 'decimal', raw: string): number;
export function parseFilterValue(param: string, kind: 'network', raw: string): IpValue;
export function parseFilterValue(param: string, kind: string, raw: string): unknown;
export function parseFilterValue(param: string, kind: string, raw: string): unknown {
  switch (kind) {
    case 'integer':
    case 'id':
      if (!/^-?\d+$/.test(raw.trim()) || !Number.isSafeInteger(Number(raw)))
        throw Errors.invalidFilter(param, 'Enter a whole number.');
      return Number(raw);
    case 'decimal':
      // Django's DecimalField: digits with a point and an exponent; not hexadecimal, Infinity or NaN
      if (!DECIMAL_RE.test(raw.trim()) || !Number.isFinite(Number(raw)))
        throw Errors.invalidFilter(param, 'Enter a number.');
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
    case 'boolean': {
      const b = booleanWord(raw);
      if (b === null) throw Errors.invalidFilter(param, BOOLEAN_MESSAGE(raw));
      return b;
    }
    case 'uuid':
      if (!UUID_RE.test(raw.trim())) throw Errors.invalidFilter(param, 'Enter a valid UUID.');
      return raw.trim().toLowerCase();
    case 'network': {
      // a network or a single address (a /32 or /128); host bits are dropped, as netaddr's `.cidr` does
      const ip = parseIp(raw);
      if (!ip) throw Errors.invalidFilter(param, 'Enter a valid IPv4 or IPv6 address or network.');
      return ip;
    }
    case 'mac': {
      const mac = normaliseMac(raw);
      if (!mac) throw Errors.invalidFilter(param, 'Enter a valid MAC address.');
      return mac;
    }
    default:
      return raw;
  }
}

/**
 * An integer filter value that must also lie in a range (a network's mask length), or be one of a
 * few values (an address family): outside them no row can match, so the value is refused naming
 * the parameter, with Django's validator wording, instead of answering an empty page.
 */
export function parseIntegerIn(param: string, raw: string, allowed: { min: number; max: number } | number[]): number {
  const n = parseFilterValue(param, 'integer', raw);
  if (Array.isArray(allowed)) {
    if (!allowed.includes(n))
      throw Errors.invalidFilter(param, `Select a valid choice. ${raw.trim()} is not one of the available choices.`);
  } else if (n < allowed.min) {
    throw Errors.invalidFilter(param, `Ensure this value is greater than or equal to ${allowed.min}.`);
  } else if (n > allowed.max) {
    throw Errors.invalidFilter(param, `Ensure this value is less than or equal to ${allowed.max}.`);
  }
  return n;
}

/** Values of a network filter as CIDR networks (host bits dropped); a value that is no address is a 400. */
export function parseNetworks(param: string, values: string[]): IpValue[] {
  return values.map((v) => networkOf(parseFilterValue(param, 'network', v)));
}

/** `empty` and other boolean-valued lookups take the boolean words too */
export function parseBooleanLookup(param: string, raw: string): boolean {
  return parseFilterValue(param, 'boolean', raw);
}
