/**
 * Device-type library documents for tests: a YAML POST as a client sends it, and a switch's
 * document (test/api/dcim/device-type-library.test.ts, test/web/type-library-export.test.ts).
 */
import type { Json } from '../factories/index.js';
import { uniq } from '../factories/index.js';
import type { TestApp } from './app.js';

export const postYaml = (t: TestApp, path: string, text: string, token = t.token, type = 'application/yaml') =>
  t.app.inject({
    method: 'POST',
    url: path,
    headers: { authorization: `Token ${token}`, 'content-type': type, accept: 'application/json' },
    payload: text,
  });

/** a switch: 48 interfaces (PoE on the access ports), 2 power ports, a console port, 1 rear + 2 front ports */
export function switchDoc(manufacturer: string, extra: Json = {}): Json {
  const model = uniq('C9300-48P');
  return {
    manufacturer,
    model,
    slug: model.toLowerCase(),
    u_height: 1,
    is_full_depth: true,
    airflow: 'front-to-rear',
    weight: 7.5,
    weight_unit: 'kg',
    front_image: true,
    interfaces: Array.from({ length: 48 }, (_, i) => ({
      name: `GigabitEthernet1/0/${i + 1}`,
      type: '1000base-t',
      ...(i < 46 ? { poe_mode: 'pse' } : { mgmt_only: true }),
    })),
    'console-ports': [{ name: 'con0', type: 'rj-45' }],
    'power-ports': [
      { name: 'PS-A', type: 'iec-60320-c14', maximum_draw: 715 },
      { name: 'PS-B', type: 'iec-60320-c14', maximum_draw: 715 },
    ],
    'power-outlets': [{ name: 'out1', type: 'iec-60320-c13', power_port: 'PS-B', feed_leg: 'A' }],
    'rear-ports': [{ name: 'rear1', type: '8p8c', positions: 2 }],
    'front-ports': [
      { name: 'front1', type: '8p8c', rear_port: 'rear1', rear_port_position: 1 },
      { name: 'front2', type: '8p8c', rear_port: 'rear1', rear_port_position: 2, label: 'F2' },
    ],
    ...extra,
  };
}
