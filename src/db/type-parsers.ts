/**
 * One set of wire-format parsers for both engines, so rows look the same on PGlite and PostgreSQL.
 * The session time zone is UTC, so timestamptz text ends in "+00".
 */
const OID = {
  INT8: 20,
  NUMERIC: 1700,
  DATE: 1082,
  TIMESTAMPTZ: 1184,
  TIMESTAMP: 1114,
  INET: 869,
} as const;

/**
 * "2026-11-22 07:10:19.881234+00" -> "2026-11-22T07:10:19.881234Z". A fraction has six digits, as
 * Python prints a non-zero one (reference: `created`, `last_updated`): PostgreSQL drops trailing
 * zeros (".345" for 345000 microseconds), NetBox shows ".345000"; a whole second has none.
 */
export function parseTimestamptz(s: string): string {
  // every created and last_updated of a page passes here: slicing, not regular expressions
  if (s.charCodeAt(10) === 32 && s.endsWith('+00')) {
    const t = `${s.slice(0, 10)}T${s.slice(11, -3)}`;
    return t.length === 26 || t.length === 19 ? `${t}Z` : `${t.padEnd(26, '0')}Z`;
  }
  return s
    .replace(' ', 'T')
    .replace(/\+00(:00)?$/, 'Z')
    .replace(/\.(\d{1,5})Z$/, (_, digits: string) => `.${digits.padEnd(6, '0')}Z`);
}

/**
 * PostgreSQL prints an inet host address without its /32 or /128; rows carry the mask always, as
 * NetBox shows it (representations, display strings and change-log snapshots alike).
 */
export function parseInet(s: string): string {
  return s.includes('/') ? s : `${s}/${s.includes(':') ? 128 : 32}`;
}

export const typeParsers: Record<number, (s: string) => unknown> = {
  [OID.INT8]: (s) => Number(s),
  [OID.NUMERIC]: (s) => Number(s),
  [OID.DATE]: (s) => s,
  [OID.TIMESTAMPTZ]: parseTimestamptz,
  [OID.TIMESTAMP]: (s) => s.replace(' ', 'T'),
  [OID.INET]: parseInet,
};
