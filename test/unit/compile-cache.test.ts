/**
 * bin/compile-cache.js on a small project of its own: the bundle is built once, reused while the
 * sources stay as they are, and built again after an edit, so `npm start` never runs stale code.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledEntry, sourceFingerprint } from '../../bin/compile-cache.js';

const root = mkdtempSync(join(tmpdir(), 'inv-compile-'));
const cacheDir = join(root, 'cache');
mkdirSync(join(root, 'src', 'db'), { recursive: true });
writeFileSync(join(root, 'package.json'), '{"type":"module"}');
writeFileSync(join(root, 'src', 'db', 'where.ts'), 'export const where: string = import.meta.url;\n');
const writeEntry = (answer: number) =>
  writeFileSync(join(root, 'src', 'cli.ts'), `import { where } from './db/where.js';\nexport const answer: number = ${answer};\nexport { where };\n`);

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

  it('a new file under src/ changes the fingerprint', () => {
    const before = sourceFingerprint(root);
    writeFileSync(join(root, 'src', 'extra.ts'), 'export {};\n');
    expect(sourceFingerprint(root)).not.toBe(before);
  });

  it('keeps import.meta.url of each source file, so code finds the files next to it', async () => {
    const entry = await compiledEntry({ root, cacheDir });
    expect((await load(entry)).where).toBe(pathToFileURL(join(root, 'src', 'db', 'where.ts')).href);
  });
});
