/**
 * bin/compile-cache.js on a small project of its own: the bundle is built once, reused while the
 * sources stay as they are, and built again after an edit, so `npm start` never runs stale code.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledEntry, compiledModules, latin1Source, sourceFingerprint } from '../../bin/compile-cache.js';

const root = mkdtempSync(join(tmpdir(), 'inv-compile-'));
const cacheDir = join(root, 'cache');
mkdirSync(join(root, 'src', 'db'), { recursive: true });
writeFileSync(join(root, 'package.json'), '{"type":"module"}');
writeFileSync(join(root, 'src', 'db', 'where.ts'), 'export const where: string = import.meta.url;\n');
const writeEntry = (answer: number) =>
  writeFileSync(
    join(root, 'src', 'cli.ts'),
    `import { where } from './db/where.js';\nexport const answer: number = ${answer};\nexport { where };\n`,
  );

afterAll(() => rmSync(root, { recursive: true, force: true }));

async function load(path: string): Promise<{ answer: number; where: string }> {
  // a query string makes each import a new module, as a new process would load it
  return (await import(`${pathToFileURL(path).href}?${Date.now()}`)) as { answer: number; where: string };
}

describe('compiled start (bin/compile-cache.js)', () => {
  it('builds one bundle, reuses it while the sources are unchanged, and rebuilds after an edit', async () => {
    writeEntry(1);
    const first = await compiledEntry({ root, cacheDir });
    expect((await load(first)).answer).toBe(1);
    expect(await compiledEntry({ root, cacheDir })).toBe(first);

    writeEntry(2);
    // same size as before: the modification time alone must tell the edit apart
    utimesSync(join(root, 'src', 'cli.ts'), new Date(), new Date(Date.now() + 5_000));
    const second = await compiledEntry({ root, cacheDir });
    expect(second).not.toBe(first);
    expect((await load(second)).answer).toBe(2);
    // the bundle of the old sources is gone
    expect(readdirSync(cacheDir).filter((n) => n.startsWith('build-'))).toHaveLength(1);
  });

  it('writes a bundle of Latin-1 characters only, with the same values, so V8 keeps its source one byte per character', async () => {
    // an ellipsis in a comment and a tagged template (esbuild leaves both), a warning sign and an
    // emoji (two UTF-16 units) in strings, a Latin-1 letter that may stay as it is
    writeFileSync(
      join(root, 'src', 'cli.ts'),
      [
        "import { where } from './db/where.js';",
        '// loading\u2026 (a comment)',
        "const tag = (s: TemplateStringsArray, ...v: unknown[]) => s.map((p, i) => p + (i < v.length ? String(v[i]) : '')).join('');",
        'export const answer: number = 3;',
        "export const texts = [tag`Loading\u2026 ${1}\u201cq\u201d`, '\u26a0 \ud83d\ude80', `caf\u00e9 \u2014`];",
        "export const matches = /\u2026+/.test('\u2026\u2026');",
        'export { where };',
        '',
      ].join('\n'),
    );
    utimesSync(join(root, 'src', 'cli.ts'), new Date(), new Date(Date.now() + 10_000));
    const entry = await compiledEntry({ root, cacheDir });
    const text = readFileSync(entry, 'utf8');
    expect([...text].filter((c) => c.charCodeAt(0) > 0xff)).toEqual([]);
    const mod = (await import(`${pathToFileURL(entry).href}?${Date.now()}`)) as { texts: string[]; matches: boolean };
    expect(mod.texts).toEqual(['Loading\u2026 1\u201cq\u201d', '\u26a0 \ud83d\ude80', 'caf\u00e9 \u2014']);
    expect(mod.matches).toBe(true);
    expect(latin1Source('a\u00e9\u2026')).toBe('a\u00e9\\u2026');
  });

  it('a new file under src/ changes the fingerprint', () => {
    const before = sourceFingerprint(root);
    writeFileSync(join(root, 'src', 'extra.ts'), 'export {};\n');
    expect(sourceFingerprint(root)).not.toBe(before);
  });

  it('keeps import.meta.url of each source file, so code finds the files next to it', async () => {
    const entry = await compiledEntry({ root, cacheDir });
    expect((await load(entry)).where).toBe(pathToFileURL(join(root, 'src', 'db', 'where.ts')).href);
  });

  it('builds the modules tests import each as its own file, sharing one copy of what they share', async () => {
    writeFileSync(join(root, 'src', 'db', 'state.ts'), 'export const seen: string[] = [];\n');
    writeFileSync(
      join(root, 'src', 'db', 'a.ts'),
      "import { seen } from './state.js';\nexport const addA = () => seen.push('a');\n",
    );
    writeFileSync(join(root, 'src', 'b.ts'), "export { seen } from './db/state.js';\nexport const b = 'b\u2026';\n");
    const entries = ['src/db/a.ts', 'src/b.ts', 'src/db/where.ts'];
    const dir = await compiledModules({ root, cacheDir, entries });
    expect(await compiledModules({ root, cacheDir, entries: [...entries].reverse() })).toBe(dir);
    const a = (await import(pathToFileURL(join(dir, 'db', 'a.mjs')).href)) as { addA(): void };
    const b = (await import(pathToFileURL(join(dir, 'b.mjs')).href)) as { seen: string[]; b: string };
    a.addA();
    // one module state.ts, whichever entry reached it
    expect(b.seen).toEqual(['a']);
    expect(b.b).toBe('b\u2026');
    expect(readFileSync(join(dir, 'b.mjs'), 'utf8')).not.toMatch(/[^\x00-\xff]/);
    const where = (await import(pathToFileURL(join(dir, 'db', 'where.mjs')).href)) as { where: string };
    expect(where.where).toBe(pathToFileURL(join(root, 'src', 'db', 'where.ts')).href);
  });
});
