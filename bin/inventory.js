#!/usr/bin/env -S node --max-semi-space-size=16
// --max-semi-space-size: a young generation sized for a JSON API (docs/performance.md, "Memory")
// Runs the CLI from its compiled bundle (compile-cache.js: built by npm ci, rebuilt after an edit),
// or through tsx when esbuild cannot run here, so no build step is ever needed by hand.
import { pathToFileURL } from 'node:url';
import { compiledEntry } from './compile-cache.js';

let entry;
try {
  entry = pathToFileURL(await compiledEntry()).href;
} catch (err) {
  process.stderr.write(
    `inventory: running the TypeScript through tsx (compiling failed: ${err instanceof Error ? err.message : String(err)})\n`,
  );
  const { register } = await import('tsx/esm/api');
  register();
  entry = '../src/cli.ts';
}
await import(entry);
