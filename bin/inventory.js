#!/usr/bin/env -S node --max-semi-space-size=64
// --max-semi-space-size: a young generation sized for a JSON API (see README: Performance)
// Runs the TypeScript CLI through tsx, so no build step is needed.
import { register } from 'tsx/esm/api';
register();
await import('../src/cli.ts');
