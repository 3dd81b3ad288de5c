/**
 * Compiled start: the CLI and everything it imports from src/ and from pure-JS packages, bundled by
 * esbuild into ONE ES module in node_modules/.cache/netinventory/build-<fingerprint>/. Loading one
 * file takes ~0.4 s where tsx compiling and resolving ~900 modules took ~1.5 s (a first
 * start under 3 s). `npm ci` builds it (postinstall); a start after any edit under src/ finds a new
 * fingerprint and builds again (~1 s) before it runs, so `npm start` never runs stale code.
 *
 * The fingerprint covers every file under src/ (path, size, modification time, as make does), the
 * package manifest and lockfile (a changed dependency), the esbuild version and the checkout's path.
 * Tests run the TypeScript itself (vitest), or the same code bundled by the same options
 * (compiledModules, test/bundle.vitest.config.ts); bin/inventory.js falls back to tsx if esbuild
 * cannot run here.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** bump when the bundle's options change */
const FORMAT = 2;

/**
 * Packages that stay files of their own, imported from node_modules at run time: they read files
 * that sit next to their code (PGlite's .wasm and .data, Swagger UI's assets), or are optional
 * native add-ons that are not installed (pg-native, which pg requires only on request).
 */
const EXTERNAL = ['@electric-sql/pglite', '@electric-sql/pglite/*', 'swagger-ui-dist', 'pg-native'];

/**
 * Bundled CommonJS packages call require(); an ES module has none, so the bundle makes one. Node
 * resolves it from the bundle's folder, inside node_modules, so it finds the same packages.
 */
const BANNER =
  "import { createRequire as __inventoryRequire } from 'node:module';\nconst require = __inventoryRequire(import.meta.url);";

function statLine(root, path) {
  const s = statSync(path);
  return `${relative(root, path)}\0${s.size}\0${s.mtimeMs}\n`;
}

/** A hash of what the bundle is made from; any edit under src/ or any install changes it. */
export function sourceFingerprint(root = ROOT) {
  const hash = createHash('sha256');
  let esbuildVersion = 'none';
  try {
    esbuildVersion = JSON.parse(readFileSync(join(root, 'node_modules/esbuild/package.json'), 'utf8')).version;
  } catch {
    // no esbuild: compiledEntry fails and bin/inventory.js runs tsx
  }
  hash.update(`${FORMAT}\0${root}\0${esbuildVersion}\n`);
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(statLine(root, path));
    }
  };
  walk(join(root, 'src'));
  for (const file of ['package.json', 'package-lock.json']) {
    if (existsSync(join(root, file))) hash.update(statLine(root, join(root, file)));
  }
  return hash.digest('hex').slice(0, 20);
}

/**
 * esbuild moves every module into one file, so `import.meta.url` would name the bundle. Code that
 * finds files next to itself (the migrations, package lookups) gets its own source file's URL
 * written in instead, so it behaves exactly as under tsx.
 */
function keepImportMeta(root) {
  const src = join(root, 'src');
  return {
    name: 'keep-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!args.path.startsWith(src)) return undefined;
        const text = readFileSync(args.path, 'utf8');
        if (!text.includes('import.meta')) return undefined;
        const contents = text
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(dirname(args.path)))
          .replaceAll('import.meta.filename', JSON.stringify(args.path));
        return { contents, loader: 'ts' };
      });
    },
  };
}

/**
 * V8 keeps a script's source one byte per character only while every character is Latin-1; a
 * single one beyond (an em dash in a dependency's comment, an ellipsis in a page template) stores
 * the whole 4.4 MB bundle two bytes per character, 4.4 MB more in every process for its whole life
 * (the service keeps under 200 MB per process). esbuild escapes such characters in strings but not in
 * comments or template literals, so every UTF-16 unit above 0xFF is written as `\uXXXX` here: the
 * same text in a comment, the same value in a string, a template literal's cooked text or a regular
 * expression (only a template's raw text would differ, which nothing here reads).
 */
export function latin1Source(text) {
  return text.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** esbuild's options for the service's code, the same for the service's bundle and the test modules (below) */
function bundleOptions(root) {
  return {
    absWorkingDir: root,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: EXTERNAL,
    banner: { js: BANNER },
    plugins: [keepImportMeta(root)],
    logLevel: 'error',
  };
}

/**
 * Builds into `dir` through a temporary folder renamed into place, so two starts at once never see
 * half a build; then removes older builds of the same kind (`prefix`).
 */
async function buildOnce({ cacheDir, dir, prefix, build }) {
  const esbuild = await import('esbuild');
  mkdirSync(cacheDir, { recursive: true });
  const tmp = join(cacheDir, `.build-js-${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    await build(esbuild, tmp);
    for (const file of readdirSync(tmp, { recursive: true })) {
      const path = join(tmp, String(file));
      if (path.endsWith('.mjs')) writeFileSync(path, latin1Source(readFileSync(path, 'utf8')));
    }
    try {
      renameSync(tmp, dir);
    } catch (err) {
      // another start built the same fingerprint first
      if (!existsSync(dir)) throw err;
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
    // esbuild's service is a child process (~150 MB resident): it must not live as long as the server
    await esbuild.stop();
  }
  const kept = dir.slice(cacheDir.length + 1);
  for (const name of readdirSync(cacheDir)) {
    if (name.startsWith(prefix) && name !== kept) rmSync(join(cacheDir, name), { recursive: true, force: true });
  }
}

/** The path of the bundle of `entry` for the current sources, built first if it is missing. */
export async function compiledEntry({
  root = ROOT,
  entry = 'src/cli.ts',
  cacheDir = join(root, 'node_modules/.cache/netinventory'),
} = {}) {
  const dir = join(cacheDir, `build-${sourceFingerprint(root)}`);
  const out = join(dir, 'cli.mjs');
  if (existsSync(out)) return out;
  await buildOnce({
    cacheDir,
    dir,
    prefix: 'build-',
    build: (esbuild, tmp) =>
      esbuild.build({ ...bundleOptions(root), entryPoints: [join(root, entry)], outfile: join(tmp, 'cli.mjs') }),
  });
  return out;
}

/**
 * The service's code as the tests import it, for running a test suite against what is shipped
 * (test/bundle.vitest.config.ts): each module of src/ a test imports (`entries`, paths under src/)
 * becomes its own ES module, `<dir>/<path under src>.mjs`, exporting what the TypeScript exports,
 * and whatever the entries share goes into chunks (esbuild's code splitting). So every module,
 * pg and the model registry included, exists once, however many entries import it, and is bundled
 * by the same options as the service's own bundle. Returns the folder.
 */
export async function compiledModules({
  root = ROOT,
  entries,
  cacheDir = join(root, 'node_modules/.cache/netinventory'),
}) {
  const list = [...new Set(entries)].sort();
  const key = createHash('sha256')
    .update(`${sourceFingerprint(root)}\n${list.join('\n')}`)
    .digest('hex');
  const dir = join(cacheDir, `modules-${key.slice(0, 20)}`);
  if (existsSync(dir)) return dir;
  await buildOnce({
    cacheDir,
    dir,
    prefix: 'modules-',
    build: (esbuild, tmp) =>
      esbuild.build({
        ...bundleOptions(root),
        entryPoints: list.map((e) => join(root, e)),
        outdir: tmp,
        outbase: join(root, 'src'),
        entryNames: '[dir]/[name]',
        chunkNames: 'chunks/[name]-[hash]',
        outExtension: { '.js': '.mjs' },
        splitting: true,
      }),
  });
  return dir;
}
