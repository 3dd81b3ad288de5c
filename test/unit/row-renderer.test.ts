/**
 * The row functions written per plan (core/represent/row-renderer.ts): one object literal in the
 * plan's key order, a key named twice keeping its first place and its last value, and a key the
 * row may lack (an interface's nested connection_status) present only when the row has it. The
 * values themselves are checked through the API by every representation test.
 */
import { describe, expect, it } from 'vitest';
import { registerAllModels } from '../../src/apps/index.js';
import type { RequestContext } from '../../src/core/context.js';
import { Registry } from '../../src/core/model/registry.js';
import { planRender } from '../../src/core/represent/plan.js';
import { type RowContext, rowRenderer } from '../../src/core/represent/row-renderer.js';

const registry = new Registry();
registerAllModels(registry);

function context(over: Partial<RowContext> = {}): RowContext {
  return {
    rc: { baseUrl: 'http://h' } as RequestContext,
    urlPrefix: 'http://h/api/x/y/',
    pagePrefix: 'http://h/x/y/',
    nested: new Map(),
    m2m: new Map(),
    counts: new Map(),
    tags: new Map(),
    depths: new Map(),
    cfs: [],
    cfNested: new Map(),
    tagModel: registry.get('extras.tag'),
    ...over,
  };
}

describe('rowRenderer', () => {
  it('shows the keys in the order the plan gives them, each once', () => {
    const vrf = registry.get('ipam.vrf');
    const plan = planRender(vrf, 'full');
    const { fn } = rowRenderer(vrf, plan, true);
    const counts = new Map([
      ['prefix_count', new Map([[7, 3]])],
      ['ipaddress_count', new Map([[7, 5]])],
    ]);
    const out = fn({ id: 7, name: 'blue', rd: null, enforce_unique: true }, 7, context({ counts }), []);
    const expected = [
      'id',
      'url',
      'display',
      ...plan.keys,
      'tags',
      'custom_fields',
      'created',
      'last_updated',
      ...plan.countKeys,
    ];
    expect(Object.keys(out)).toEqual([...new Set(expected)]);
    expect(out).toMatchObject({
      id: 7,
      url: 'http://h/api/x/y/7/',
      name: 'blue',
      rd: null,
      prefix_count: 3,
      ipaddress_count: 5,
      tags: [],
    });
  });

  it('gives a count named in the brief form its value', () => {
    const vrf = registry.get('ipam.vrf');
    const { fn } = rowRenderer(vrf, planRender(vrf, 'brief'), true);
    const out = fn(
      { id: 7, name: 'blue', rd: '65000:1' },
      7,
      context({ counts: new Map([['prefix_count', new Map([[7, 2]])]]) }),
      [],
    );
    expect(out).toEqual({
      id: 7,
      url: 'http://h/api/x/y/7/',
      display: expect.any(String),
      name: 'blue',
      rd: '65000:1',
      prefix_count: 2,
    });
  });

  it('shows a key the row may lack only when the row has it', () => {
    const iface = registry.get('dcim.interface');
    const plan = planRender(iface, 'nested');
    expect(plan.keys).toContain('connection_status');
    const { fn, targets } = rowRenderer(iface, plan, true);
    const device = { id: 1, name: 'd1' };
    const n = targets.map((to) => (to === 'dcim.device' ? new Map([[1, device]]) : undefined));
    const without = fn({ id: 3, name: 'eth0', device_id: 1 }, 3, context(), n);
    expect(without).not.toHaveProperty('connection_status');
    expect(without.device).toBe(device);
    const withStatus = fn({ id: 3, name: 'eth0', device_id: 1, connection_status: true }, 3, context(), n);
    expect(withStatus.connection_status).toBe(true);
    expect(Object.keys(withStatus).indexOf('connection_status')).toBe(
      Object.keys(withStatus).length - 1 - (plan.withDepth ? 1 : 0),
    );
  });
});
