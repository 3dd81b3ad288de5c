/**
 * Converts one written value into its stored form, by field kind, with DRF's messages
 * (reference 6.1). Related objects are resolved later, in batches (resolve-related.ts).
 */
import type { FieldDef } from '../model/types.js';
import { format, formatIpv4, networkOf, parseIp } from '../net/ip.js';
import { normaliseMac } from '../net/mac.js';

export class FieldError extends Error {}

const fail = (m: string): never => {
  throw new FieldError(m);
};

const SLUG_RE = /^[-a-zA-Z0-9_]+$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_RE = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})?$/;

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function parseString(f: FieldDef, v: unknown): string {
  if (typeof v === 'number' || typeof v === 'bigint') v = String(v);
  if (typeof v !== 'string') fail('Not a valid string.');
  // PostgreSQL text cannot hold NUL (DRF refuses it with this message too)
  if ((v as string).includes('\u0000')) fail('Null characters are not allowed.');
  const s = (v as string).trim();
  if (s === '' && f.required) fail('This field may not be blank.');
  if (f.maxLength !== undefined && s.length > f.maxLength)
    fail(`Ensure this field has no more than ${f.maxLength} characters.`);
  if (f.kind === 'slug' && s !== '' && !SLUG_RE.test(s)) {
    fail('Enter a valid "slug" consisting of letters, numbers, underscores or hyphens.');
  }
  if (f.pattern && s !== '' && !f.pattern.regex.test(s)) fail(f.pattern.message);
  return s;
}

function checkRange(f: FieldDef, n: number): number {
  if (f.min !== undefined && n < f.min) fail(`Ensure this value is greater than or equal to ${f.min}.`);
  if (f.max !== undefined && n > f.max) fail(`Ensure this value is less than or equal to ${f.max}.`);
  return n;
}

function parseInteger(f: FieldDef, v: unknown): number {
  const n = typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isInteger(n)) fail('A valid integer is required.');
  if (!Number.isSafeInteger(n)) fail('A valid integer is required.');
  return checkRange(f, n as number);
}

function parseDecimal(f: FieldDef, v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) fail('A valid number is required.');
  if (f.decimalPlaces !== undefined) {
    const [, frac = ''] = String(n).split('.');
    if (frac.length > f.decimalPlaces) fail(`Ensure that there are no more than ${f.decimalPlaces} decimal places.`);
  }
  return checkRange(f, n as number);
}

function parseBoolean(v: unknown): boolean {
  if (v === true || v === 'true' || v === 'True' || v === 1 || v === '1') return true;
  if (v === false || v === 'false' || v === 'False' || v === 0 || v === '0') return false;
  return fail('Must be a valid boolean.');
}

function parseChoice(f: FieldDef, v: unknown): string | number {
  if (typeof v === 'object' && v !== null) {
    fail('Value must be passed directly (e.g. "foo": 123); do not use a dictionary or list.');
  }
  // DRF: a blank-allowed choice accepts "" (stored blank, rendered null)
  if (f.blank && v === '') return '';
  const set = f.choices!;
  const candidate = set.numeric && typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
  // DRF ChoiceField: the value in double quotes, whatever its type
  if (!set.labels.has(candidate as string)) fail(`"${String(v)}" is not a valid choice.`);
  return candidate as string | number;
}

function parseDate(v: unknown): string {
  if (
    typeof v !== 'string' ||
    !DATE_RE.test(v) ||
    Number.isNaN(new Date(`${v}T00:00:00Z`).getTime()) ||
    new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v
  ) {
    fail('Date has wrong format. Use one of these formats instead: YYYY-MM-DD.');
  }
  return v as string;
}

function parseDatetime(v: unknown): string {
  if (
    typeof v !== 'string' ||
    !DATETIME_RE.test(v.trim()) ||
    Number.isNaN(new Date(v.trim().replace(' ', 'T')).getTime())
  ) {
    fail(
      'Datetime has wrong format. Use one of these formats instead: YYYY-MM-DDThh:mm[:ss[.uuuuuu]][+HH:MM|-HH:MM|Z].',
    );
  }
  const s = (v as string).trim().replace(' ', 'T');
  // a naive time is UTC (TIME_ZONE default)
  return /(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s : `${s}Z`;
}

function parseStrings(v: unknown): string[] {
  if (!Array.isArray(v)) fail(`Expected a list of items but got type "${typeName(v)}".`);
  return (v as unknown[]).map((x) => {
    if (typeof x !== 'string' && typeof x !== 'number') fail('Not a valid string.');
    return String(x).trim();
  });
}

/** DRF ListField(child=IntegerField(min, max)); an empty list is blank (Django ArrayField, blank=False) */
function parseIntegers(f: FieldDef, v: unknown): number[] {
  if (!Array.isArray(v)) fail(`Expected a list of items but got type "${typeName(v)}".`);
  if ((v as unknown[]).length === 0 && f.required) fail('This field cannot be blank.');
  return (v as unknown[]).map((x) => parseInteger(f, x));
}

function parseIpAddress(v: unknown): string {
  const v4 = typeof v === 'string' ? formatIpv4(v) : null;
  // a /0 mask is refused below, with the message
  if (v4 !== null && !v4.endsWith('/0')) return v4;
  const ip = typeof v === 'string' ? parseIp(v) : null;
  if (!ip) fail(`Invalid IP address format: ${String(v)}`);
  if (ip!.prefixLength === 0) fail('Cannot create IP address with /0 mask.');
  return format(ip!);
}

function parseIpPrefix(v: unknown): string {
  const ip = typeof v === 'string' ? parseIp(v) : null;
  if (!ip) fail(`Invalid IP prefix format: ${String(v)}`);
  const net = networkOf(ip!);
  // NetBox: "10.0.0.1/24 is not a valid prefix. Did you mean 10.0.0.0/24?"
  if (net.value !== ip!.value) fail(`${format(ip!)} is not a valid prefix. Did you mean ${format(net)}?`);
  if (ip!.prefixLength === 0) fail('Cannot create prefix with /0 mask.');
  return format(net);
}

function parseMac(v: unknown): string {
  const mac = typeof v === 'string' ? normaliseMac(v) : null;
  if (!mac) fail(`Invalid MAC address format: ${String(v)}`);
  return mac!;
}

function parseContentType(v: unknown): string {
  if (typeof v !== 'string' || !/^[a-z_]+\.[a-z_]+$/.test(v)) {
    fail("Invalid value. Specify a content type as '<app_label>.<model_name>'.");
  }
  return v as string;
}

export function typeName(v: unknown): string {
  if (v === null) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'object') return 'dict';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'float';
  if (typeof v === 'boolean') return 'bool';
  return 'str';
}

/**
 * Parses a non-null scalar value. fk and m2m values are returned as written (resolved later).
 */
export function parseFieldValue(f: FieldDef, v: unknown): unknown {
  let out: unknown;
  switch (f.kind) {
    case 'string':
    case 'text':
    case 'slug':
    case 'password':
      out = parseString(f, v);
      break;
    case 'integer':
      out = parseInteger(f, v);
      break;
    case 'decimal':
      out = parseDecimal(f, v);
      break;
    case 'boolean':
      out = parseBoolean(v);
      break;
    case 'choice':
      out = parseChoice(f, v);
      break;
    case 'date':
      out = parseDate(v);
      break;
    case 'datetime':
      out = parseDatetime(v);
      break;
    case 'strings':
      out = parseStrings(v);
      break;
    case 'integers':
      out = parseIntegers(f, v);
      break;
    case 'json':
      out = v;
      break;
    case 'ipaddress':
      out = parseIpAddress(v);
      break;
    case 'ipprefix':
      out = parseIpPrefix(v);
      break;
    case 'mac':
      out = parseMac(v);
      break;
    case 'contenttype':
      out = parseContentType(v);
      break;
    case 'fk':
      if (
        !isPlainObject(v) &&
        !(typeof v === 'number' && Number.isInteger(v)) &&
        !(typeof v === 'string' && /^\d+$/.test(v))
      ) {
        fail(
          `Related objects must be referenced by numeric ID or by dictionary of attributes. Received an unrecognized value: ${JSON.stringify(v)}`,
        );
      }
      out = v;
      break;
    case 'm2m':
      if (!Array.isArray(v)) fail(`Expected a list of items but got type "${typeName(v)}".`);
      out = v;
      break;
    default:
      out = v;
  }
  if (f.validate) {
    const msg = f.validate(out);
    if (msg) fail(msg);
  }
  return out;
}
