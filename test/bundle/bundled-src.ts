/**
 * A Vite plugin that makes a test's imports of src/ resolve to the service's code as it is shipped:
 * src/ bundled by esbuild with the options of the service's own bundle (bin/compile-cache.js
 * compiledModules), one ES module per src/ module a test imports, what they share in chunks, so
 * every module with state (the model registry, pg, the database client) exists once. The test
 * files and helpers themselves stay TypeScript; only what they import from src/ changes.
 *
 * The modules built are every src/ module imported by a file under test/ or bench/ (a helper may
 * import bench/, which may import src/), found by reading their import specifiers.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { Plugin } from 'vite';
import { compiledModules } from '../../bin/compile-cache.js';

/** a module specifier in `from '...'`, `import '...'` or `import('...')` */
const SPECIFIER = /(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g;

/** the TypeScript file a relative specifier names (`./x.js` is `./x.ts`), if it is one */
function sourceFile(importer: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const path = resolve(dirname(importer), specifier).replace(/\.js$/, '.ts');
  return existsSync(path) ? path : null;
}

/** every src/ module imported by a TypeScript file under test/ or bench/, as paths relative to root */
function srcImportsOfTests(root: string): string[] {
  const src = join(root, 'src') + sep;
  const found = new Set<string>();
  for (const folder of ['test', 'bench']) {
    for (const name of readdirSync(join(root, folder), { recursive: true })) {
      const file = join(root, folder, String(name));
      if (!file.endsWith('.ts')) continue;
      for (const [, specifier] of readFileSync(file, 'utf8').matchAll(SPECIFIER)) {
        const path = sourceFile(file, specifier!);
        if (path?.startsWith(src)) found.add(relative(root, path));
      }
    }
  }
  return [...found].sort();
}

export async function bundledSrc(root: string): Promise<Plugin> {
  const src = join(root, 'src') + sep;
  const dir = await compiledModules({ root, entries: srcImportsOfTests(root) });
  return {
    name: 'bundled-src',
    enforce: 'pre',
    resolveId(specifier, importer) {
      if (!importer || importer.startsWith(dir)) return null;
      const path = sourceFile(importer, specifier);
      if (!path?.startsWith(src)) return null;
      const out = join(dir, relative(src, path).replace(/\.ts$/, '.mjs'));
      // a module the scan did not see (an import written some other way) must not load from src/
      if (!existsSync(out)) throw new Error(`${relative(root, path)} is not in the bundle of ${dir}`);
      return out;
    },
  };
}
