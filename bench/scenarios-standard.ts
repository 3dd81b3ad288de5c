/**
 * Scenarios of the standard data set (`--dataset standard`, seeded by seed-standard.ts): the rows
 * of the reference table (docs/performance.md), which gives NetBox 3.7.8's figures for the same
 * requests on the same data (gunicorn 3 x 3, PostgreSQL 15, 2 cores, 16 connections). Run with `--no-response-cache` to
 * measure what that table measures: every read rendered.
 */
import type { Scenario } from './scenarios.js';
import type { SeededStandard } from './seed-standard.js';

/** NetBox 3.7.8's req/s on the standard data set: what the ratios are taken against (docs/performance.md) */
export const NETBOX_REQ_PER_SEC: Record<string, number> = {
  sites: 35.4,
  'ip-addresses': 11.7,
  'ip-search': 6.5,
  'ip-parent': 6.7,
  'device-detail': 21.4,
  'prefixes-brief-1000': 16.7,
  'device-interfaces': 11.2,
  'device-interfaces-one': 11.2,
  'ip-create': 34.6,
};

/** NetBox 3.7.8's bulk load, objects/s (lists of 100, 2 clients) */
export const NETBOX_BULK_OBJECTS_PER_SEC = 37;

export const STANDARD_PAGE_PROBES: Array<{ name: string; path: (limit: number) => string }> = [
  { name: 'sites', path: (l) => `/api/dcim/sites/?limit=${l}` },
  { name: 'ip-addresses', path: (l) => `/api/ipam/ip-addresses/?limit=${l}` },
  { name: 'prefixes, brief', path: (l) => `/api/ipam/prefixes/?brief=1&limit=${l}` },
];

/**
 * `extra`: the requests the internet data set is compared on besides the table's (docs/scale.md):
 * a page at an offset, the free addresses of a /24 that holds addresses, a page of prefixes
 */
export function buildStandardScenarios(
  seeded: SeededStandard,
  connections: number,
  extra?: { availablePrefixId: number },
): Scenario[] {
  const { deviceIds, searchQ, parent16 } = seeded;
  // a walk over the ids with a stride coprime with their count: each is hit evenly
  const walk = (ids: number[]) => {
    let next = 0;
    const stride = 7919 % ids.length || 1;
    return () => ids[(next = (next + stride) % ids.length)]!;
  };
  const device = walk(deviceIds);
  const interfacesOf = walk(deviceIds);
  const list = (name: string, title: string, path: string, timeout = 60): Scenario => ({
    name,
    title,
    connections,
    timeout,
    requests: () => [{ method: 'GET', path }],
    probe: () => ({ method: 'GET', path }),
  });
  const random = (name: string, title: string, path: () => string): Scenario => ({
    name,
    title,
    connections,
    timeout: 60,
    requests: () => [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path() }) }],
    probe: () => ({ method: 'GET', path: path() }),
  });
  // one new /32 per request, from 172.16.0.0/12 (the data set holds only 10.x addresses)
  let n = 0;
  const newAddress = () => {
    const k = n++;
    return JSON.stringify({
      address: `172.${16 + ((k >> 16) & 15)}.${(k >> 8) & 255}.${k & 255}/32`,
      status: 'active',
    });
  };
  const extras = extra
    ? [
        list('ip-offset', 'ip-addresses/?limit=50&offset=10000', '/api/ipam/ip-addresses/?limit=50&offset=10000'),
        list(
          'available-ips',
          'prefixes/<a /24>/available-ips/',
          `/api/ipam/prefixes/${extra.availablePrefixId}/available-ips/`,
        ),
        list('prefixes-50', 'prefixes/?limit=50', '/api/ipam/prefixes/?limit=50'),
      ]
    : [];
  return [
    ...extras,
    list('sites', 'sites/?limit=50', '/api/dcim/sites/?limit=50'),
    list('ip-addresses', 'ip-addresses/?limit=50', '/api/ipam/ip-addresses/?limit=50'),
    list(
      'ip-search',
      `ip-addresses/?limit=50&q=${searchQ}`,
      `/api/ipam/ip-addresses/?limit=50&q=${encodeURIComponent(searchQ)}`,
    ),
    list(
      'ip-parent',
      `ip-addresses/?limit=50&parent=${parent16}`,
      `/api/ipam/ip-addresses/?limit=50&parent=${encodeURIComponent(parent16)}`,
    ),
    random('device-detail', 'devices/<id>/, random id', () => `/api/dcim/devices/${device()}/`),
    list('prefixes-brief-1000', 'prefixes/?brief=1&limit=1000', '/api/ipam/prefixes/?brief=1&limit=1000', 120),
    random(
      'device-interfaces',
      'interfaces/?device_id=<id>, random device',
      () => `/api/dcim/interfaces/?device_id=${interfacesOf()}`,
    ),
    // what an outside benchmark asks: one device's interfaces, again and again
    list(
      'device-interfaces-one',
      'interfaces/?device_id=<id>, one device',
      `/api/dcim/interfaces/?device_id=${deviceIds[0]}`,
    ),
    {
      name: 'ip-create',
      title: 'POST ip-addresses/ (one /32 each)',
      connections,
      objectsPerRequest: 1,
      timeout: 60,
      requests: () => [
        {
          method: 'POST',
          path: '/api/ipam/ip-addresses/',
          headers: { 'Content-Type': 'application/json' },
          setupRequest: (req) => ({ ...req, body: newAddress() }),
        },
      ],
      probe: () => ({ method: 'POST', path: '/api/ipam/ip-addresses/', body: newAddress() }),
    },
  ];
}
