// One of the shards of the hostile-input suite (suite.ts says why it is dealt into files).
import { hostileInputShard } from './suite.js';

hostileInputShard(1);
