/** Factories for cable path tests: circuits with terminations, cables between any two objects. */
import { type TestApp, uniq } from '../../helpers/app.js';
import { type Json, make } from './factories.js';

const named = (p: string) => {
  const n = uniq(p);
  return { name: n, slug: n };
};

export async function makeCircuit(t: TestApp): Promise<Json> {
  const provider = await make(t, '/api/circuits/providers/', named('prov'));
  const type = await make(t, '/api/circuits/circuit-types/', named('ctype'));
  return make(t, '/api/circuits/circuits/', { cid: uniq('cid'), provider: provider.id, type: type.id });
}

export const makeTermination = (t: TestApp, circuit: Json, side: 'A' | 'Z', where: Json) =>
  make(t, '/api/circuits/circuit-terminations/', { circuit: circuit.id, term_side: side, ...where });

/** one end of a cable: objects of one type */
export const end = (type: string, ...objs: Json[]) => objs.map((o) => ({ object_type: type, object_id: o.id }));

export const cableBetween = (
  t: TestApp,
  a: Array<{ object_type: string; object_id: number }>,
  b: Array<{ object_type: string; object_id: number }>,
  extra: Json = {},
) => make(t, '/api/dcim/cables/', { a_terminations: a, b_terminations: b, ...extra });

export async function makePowerFeed(t: TestApp, extra: Json = {}): Promise<Json> {
  const panel =
    extra.power_panel ??
    (
      await make(t, '/api/dcim/power-panels/', {
        site: (await make(t, '/api/dcim/sites/', named('site'))).id,
        name: uniq('panel'),
      })
    ).id;
  return make(t, '/api/dcim/power-feeds/', { name: uniq('feed'), ...extra, power_panel: panel });
}
