/** Builders of the circuits app: providers, their networks, circuit types, circuits and terminations. */
import type { TestApp } from '../helpers/app.js';
import { type Json, make, named, uniq } from './make.js';

export const makeProvider = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/circuits/providers/', { ...named('prov'), ...extra });
export const makeCircuitType = (t: TestApp, extra: Json = {}) =>
  make(t, '/api/circuits/circuit-types/', { ...named('ctype'), ...extra });

/** a network of `extra.provider` (a new provider unless given) */
export async function makeProviderNetwork(t: TestApp, extra: Json = {}): Promise<Json> {
  const provider = extra.provider ?? (await makeProvider(t)).id;
  return make(t, '/api/circuits/provider-networks/', { name: uniq('pnet'), ...extra, provider });
}

/** a circuit of a new provider and type unless given */
export async function makeCircuit(t: TestApp, extra: Json = {}): Promise<Json> {
  const provider = extra.provider ?? (await makeProvider(t)).id;
  const type = extra.type ?? (await makeCircuitType(t)).id;
  return make(t, '/api/circuits/circuits/', { cid: uniq('cid'), ...extra, provider, type });
}

/** side A or Z of `circuit`, ending where `where` says ({ site } or { provider_network }) */
export const makeTermination = (t: TestApp, circuit: Json, side: 'A' | 'Z', where: Json) =>
  make(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: side, ...where });
