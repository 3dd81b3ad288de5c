/**
 * Label values of the metrics that dashboards filter on: NetBox's view names for every model's
 * routes (http/metrics/view-names.ts), and the Django exception names of database errors
 * (http/metrics/db-metrics.ts).
 */
import { describe, expect, it } from 'vitest';
import { registerAllModels } from '../../src/apps/index.js';
import { Registry } from '../../src/core/model/registry.js';
import { errorType } from '../../src/http/metrics/db-metrics.js';
import { viewName } from '../../src/http/metrics/view-names.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();

describe('viewName', () => {
  it('names the list and detail routes of every model as a DRF router would', () => {
    for (const m of registry.all()) {
      expect(viewName(`/api/${m.app}/${m.path}/`, registry)).toMatch(/^[a-z]+-api:[a-z0-9]+-list$/);
      expect(viewName(`/api/${m.app}/${m.path}/:id/`, registry)).toMatch(/^[a-z]+-api:[a-z0-9]+-detail$/);
    }
  });

  it('gives the names NetBox 3.4 gives', () => {
    const names: Record<string, string> = {
      '/api/dcim/sites/': 'dcim-api:site-list',
      '/api/ipam/ip-addresses/:id/': 'ipam-api:ipaddress-detail',
      '/api/virtualization/interfaces/': 'virtualization-api:vminterface-list',
      '/api/users/permissions/': 'users-api:objectpermission-list',
      '/api/extras/object-changes/': 'extras-api:objectchange-list',
      '/api/dcim/virtual-chassis/:id/': 'dcim-api:virtualchassis-detail',
      '/api/ipam/vlan-groups/:id/available-vlans/': 'ipam-api:vlangroup-available-vlans',
      '/api/users/tokens/provision/': 'users-api:token_provision',
      '/api/tenancy/': 'tenancy-api:api-root',
      '/api/': 'api-root',
      '/metrics': 'prometheus-django-metrics',
    };
    for (const [url, view] of Object.entries(names)) expect(viewName(url, registry), url).toBe(view);
  });

  it('labels a route it cannot name by its URL template', () => {
    expect(viewName('/api/dcim/no-such-things/', registry)).toBe('/api/dcim/no-such-things/');
    expect(viewName('/api/dcim/sites/:id/:other/', registry)).toBe('/api/dcim/sites/:id/:other/');
    expect(viewName('/static/*', registry)).toBe('/static/*');
  });
});

describe('errorType', () => {
  it('maps SQLSTATE classes to the exception Django raises', () => {
    expect(errorType({ code: '23505' })).toBe('IntegrityError');
    expect(errorType({ code: '22012' })).toBe('DataError');
    expect(errorType({ code: '42P01' })).toBe('ProgrammingError');
    expect(errorType({ code: '40001' })).toBe('OperationalError');
    expect(errorType({ code: 'P0001' })).toBe('DatabaseError');
    expect(errorType(new TypeError('x'))).toBe('TypeError');
    expect(errorType(null)).toBe('Error');
  });
});
