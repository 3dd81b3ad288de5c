/**
 * Before and after the cluster tests: the servers of test processes killed before their afterAll
 * are stopped and their directories removed (pg-cluster.ts, stopLeftServers). The main suite's
 * clean-up of leftovers (test/helpers/temp-dirs.ts) leaves these directories alone, since it would
 * remove a directory under a running server.
 */
import { stopLeftServers } from './pg-cluster.js';

export default function setup() {
  stopLeftServers();
  return () => void stopLeftServers();
}
