// After each test file, passed or failed: no server of it keeps running (pg-cluster.ts).
import { afterAll } from 'vitest';
import { destroyAllNodes } from './pg-cluster.js';

afterAll(destroyAllNodes);
