/** ModelDef.alsoAt: a model served under another app besides its own (L2VPNs under ipam and vpn). */
import { describe, expect, it } from 'vitest';
import { defineModel } from '../../src/core/model/define-model.js';
import { Registry } from '../../src/core/model/registry.js';
import { modelPaths } from '../../src/core/openapi/operations.js';
import { viewName } from '../../src/http/metrics/view-names.js';
import { locate } from '../../src/web/browsable/api-location.js';

const widget = defineModel({
  name: 'shop.widget',
  path: 'widgets',
  alsoAt: ['legacy'],
  verboseName: 'widget',
  fields: { name: { kind: 'string', required: true, maxLength: 10 } },
  brief: ['name'],
  ordering: ['name'],
});
const gadget = defineModel({
  name: 'legacy.gadget',
  path: 'gadgets',
  verboseName: 'gadget',
  fields: {},
  brief: [],
  ordering: ['id'],
});
const registry = new Registry();
registry.register(widget, gadget);
registry.freeze();

describe('a model mounted under another app', () => {
  it('is served under both apps, its own first, and declared by its own app only', () => {
    expect(Registry.appsOf(widget)).toEqual(['shop', 'legacy']);
    expect(Registry.appsOf(gadget)).toEqual(['legacy']);
    expect(registry.servedAt('legacy')).toEqual([gadget, widget]);
    expect(registry.appModels('legacy')).toEqual([gadget]);
    expect(registry.servedAt('shop')).toEqual([widget]);
  });

  it('has its operations documented at both paths, tagged and named by the app of the path', () => {
    const paths = modelPaths(widget);
    expect(Object.keys(paths).sort()).toEqual([
      '/api/legacy/widgets/',
      '/api/legacy/widgets/{id}/',
      '/api/shop/widgets/',
      '/api/shop/widgets/{id}/',
    ]);
    expect(paths['/api/legacy/widgets/']!.get).toMatchObject({ operationId: 'legacy_widgets_list', tags: ['legacy'] });
    expect(paths['/api/shop/widgets/{id}/']!.patch).toMatchObject({
      operationId: 'shop_widgets_partial_update',
      tags: ['shop'],
    });
    // the same schemas behind both
    expect(paths['/api/legacy/widgets/']!.post!.requestBody).toEqual(paths['/api/shop/widgets/']!.post!.requestBody);
  });

  it('is found at the extra path by the browsable API and the metrics view names', () => {
    expect(locate(registry, '/api/legacy/widgets/', ['legacy', 'shop'])).toEqual({
      kind: 'list',
      app: 'legacy',
      model: widget,
    });
    expect(locate(registry, '/api/legacy/widgets/3/', ['legacy', 'shop'])).toMatchObject({
      kind: 'detail',
      model: widget,
      id: '3',
    });
    expect(viewName('/api/legacy/widgets/', registry)).toBe('legacy-api:widget-list');
    expect(viewName('/api/shop/widgets/:id/', registry)).toBe('shop-api:widget-detail');
  });
});
