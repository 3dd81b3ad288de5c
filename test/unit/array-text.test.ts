/**
 * parseArrayText (db/columnar.ts) splits the text PostgreSQL prints for a one-dimensional array
 * back into its elements: a large page's every column arrives so. The API test
 * (test/api/core/columnar-page.test.ts) checks what the server prints; this checks the reading of
 * every quoting rule, including the ones a stored value rarely needs.
 */
import { describe, expect, it } from 'vitest';
import { parseArrayText } from '../../src/db/columnar.js';

const same = (s: string) => s;

describe('an array text', () => {
  it('gives its plain elements, and NULL as null', () => {
    expect(parseArrayText('{}', same)).toEqual([]);
    expect(parseArrayText('{1,22,333}', Number)).toEqual([1, 22, 333]);
    expect(parseArrayText('{NULL,a,null,NULLS}', same)).toEqual([null, 'a', null, 'NULLS']);
    expect(parseArrayText('{10.0.0.1/32,2001:db8::1/128}', same)).toEqual(['10.0.0.1/32', '2001:db8::1/128']);
  });

  it('gives quoted elements whole, escapes undone', () => {
    expect(parseArrayText('{"NULL",""}', same)).toEqual(['NULL', '']);
    expect(parseArrayText('{"a b","c,d","{e}","f\\"g","h\\\\i"}', same)).toEqual(['a b', 'c,d', '{e}', 'f"g', 'h\\i']);
    expect(parseArrayText('{"\\\\","\\"",x}', same)).toEqual(['\\', '"', 'x']);
    expect(parseArrayText('{"2026-11-27 08:00:00+00",NULL}', same)).toEqual(['2026-11-27 08:00:00+00', null]);
    expect(parseArrayText('{"{\\"a\\": [1, \\"b,c\\"]}"}', (s) => JSON.parse(s))).toEqual([{ a: [1, 'b,c'] }]);
    expect(parseArrayText('{ü€😀,"ü €"}', same)).toEqual(['ü€😀', 'ü €']);
  });

  it('refuses what is no array text', () => {
    expect(() => parseArrayText('1,2', same)).toThrow();
    expect(() => parseArrayText('{"open', same)).toThrow();
  });
});
