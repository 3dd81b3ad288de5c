/**
 * The pure parts of a local data source's sync: its URL read as a directory, the roots check, and
 * ignore rules as Python's fnmatchcase reads them.
 */
import { describe, expect, it } from 'vitest';
import { isWithin, localDirectory, outsideRootsError } from '../../src/apps/core/source-path.js';
import { fnmatchRegExp, ignoreMatchers } from '../../src/apps/core/source-walk.js';

describe('localDirectory', () => {
  it('reads a plain absolute path or a file:// URL', () => {
    expect(localDirectory('/srv/data/')).toEqual({ dir: '/srv/data' });
    expect(localDirectory('file:///srv/data')).toEqual({ dir: '/srv/data' });
    expect(localDirectory('FILE:///srv/a%20b')).toEqual({ dir: '/srv/a b' });
  });

  it('refuses other schemes, hosts and relative paths', () => {
    expect(localDirectory('https://example.com/x')).toEqual({ error: expect.stringMatching(/file:\/\//) });
    expect(localDirectory('file://host/srv')).toHaveProperty('error');
    expect(localDirectory('srv/data')).toHaveProperty('error');
  });
});

describe('roots', () => {
  it('accepts a directory at or below a root, not beside it', () => {
    expect(isWithin('/srv/data', '/srv/data')).toBe(true);
    expect(isWithin('/srv/data', '/srv/data/a/b')).toBe(true);
    expect(isWithin('/srv/data', '/srv/data2')).toBe(false);
    expect(isWithin('/srv/data', '/srv')).toBe(false);
    expect(outsideRootsError([], '/etc')).toBeUndefined();
    expect(outsideRootsError(['/srv/a', '/srv/b'], '/srv/b/x')).toBeUndefined();
    expect(outsideRootsError(['/srv/a'], '/etc')).toMatch(/DATA_SOURCE_ROOTS/);
  });
});

describe('fnmatchRegExp', () => {
  const matches = (pattern: string, name: string) => fnmatchRegExp(pattern).test(name);
  it('reads *, ?, [seq] and [!seq] as fnmatchcase does', () => {
    expect(matches('*.bak', 'x.bak')).toBe(true);
    expect(matches('*.bak', 'x.bak.txt')).toBe(false);
    expect(matches('?.txt', 'a.txt')).toBe(true);
    expect(matches('?.txt', 'ab.txt')).toBe(false);
    expect(matches('[ab].txt', 'b.txt')).toBe(true);
    expect(matches('[!ab].txt', 'b.txt')).toBe(false);
    expect(matches('[!ab].txt', 'c.txt')).toBe(true);
    expect(matches('*.TXT', 'a.txt')).toBe(false);
  });

  it('takes other characters literally, an unclosed [ included', () => {
    expect(matches('a+b(c).txt', 'a+b(c).txt')).toBe(true);
    expect(matches('a.txt', 'abtxt')).toBe(false);
    expect(matches('[abc', '[abc')).toBe(true);
    expect(matches('[]]x', ']x')).toBe(true);
  });

  it('skips blank lines of the rules', () => {
    expect(ignoreMatchers('*.bak\n\n*.tmp\r\n')).toHaveLength(2);
  });
});
