import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import base from '../vitest.config.js';
import { bundledSrc } from './bundle/bundled-src.js';

/**
 * The API core and contract suites against the service as it is shipped: the same test files, their
 * imports of src/ resolved to the esbuild bundle of it (test/bundle/bundled-src.ts); the services
 * they start as child processes run from bin/inventory.js in every run (helpers/child-service.ts).
 * DB=postgres and PG_DRIVER_PATCHES work as in the TypeScript run.
 */
const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  ...base,
  root,
  plugins: [await bundledSrc(root)],
  test: {
    ...base.test,
    include: ['test/api/core/**/*.test.ts', 'test/contract/**/*.test.ts'],
  },
});
