import { describe, expect, it } from 'vitest';
import { findJsonProblem, formatJsonPath, jsonPathAt } from '../../src/http/json-checks.js';

describe('findJsonProblem', () => {
  it('finds nothing in ordinary JSON, escapes and surrogate pairs included', () => {
    const text = JSON.stringify({
      'a"b': ['x\\"', '\u{1F4A5}', -0, 0.5, 1e300, 9007199254740991, -9007199254740991, true, null],
      c: { d: 'e\\' },
    });
    expect(findJsonProblem(text)).toBeNull();
    expect(findJsonProblem('{"s": "\\ud83d\\udca5", "t": "\\u00e9"}')).toBeNull();
  });

  it('follows keys and indexes to the value with the problem', () => {
    expect(findJsonProblem('{"a": 1, "b": [1, {"c\\"d": 1e999}]}')).toEqual({
      path: ['b', 1, 'c"d'],
      message: 'A valid number is required: 1e999 is out of range.',
    });
    expect(findJsonProblem('[{}, {"x": 1}, {"name": "\\ud800"}]')?.path).toEqual([2, 'name']);
    // a quote preceded by an escaped backslash closes the string
    expect(findJsonProblem('{"a": "x\\\\", "b": 1e-999}')?.path).toEqual(['b']);
  });

  it('refuses integers a double cannot hold exactly, underflow and lone surrogates in keys', () => {
    expect(findJsonProblem('[9007199254740993]')?.message).toBe(
      'A valid integer is required: 9007199254740993 cannot be represented exactly.',
    );
    expect(findJsonProblem('{"a": 0.0000e-5000}')).toBeNull();
    expect(findJsonProblem('{"a": 1.5e-5000}')?.message).toMatch(/out of range/);
    expect(findJsonProblem('{"k": {"\\udc00": 1}}')).toEqual({
      path: ['k'],
      message: 'Invalid key: Enter valid Unicode text: a lone UTF-16 surrogate is not a character.',
    });
  });

  it('bounds the nesting depth', () => {
    expect(findJsonProblem('[[[1]]]', 3)).toBeNull();
    expect(findJsonProblem('[[[[1]]]]', 3)).toEqual({ path: [0, 0, 0], message: 'JSON nested deeper than 3 levels.' });
  });
});

describe('jsonPathAt', () => {
  it('gives the path of the value a prefix ends in', () => {
    expect(jsonPathAt('{"a": [1, {"b": "xy')).toEqual(['a', 1, 'b']);
    expect(jsonPathAt('[{"a": 1}, {"b": "x\\"')).toEqual([1, 'b']);
    // ending inside a key: the object holding it
    expect(jsonPathAt('{"a": {"ke')).toEqual(['a']);
    expect(jsonPathAt('[{"a": 1}, {')).toEqual([1]);
  });

  it('formats paths as a reader writes them', () => {
    expect(formatJsonPath(['data', 'a', 2, 'b'])).toBe('data.a[2].b');
    expect(formatJsonPath([1, 'name'])).toBe('[1].name');
  });
});
