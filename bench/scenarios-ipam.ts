/**
 * Scenarios of the IPAM data set (`--dataset ipam`, seeded by seed-ipam.ts): what IPAM automation
 * reads most. Pages of prefixes and addresses, the address filters clients use to find things
 * (`parent=` a /16 with 5,000 addresses; `q=` an address prefix), the detail GET, the next free
 * addresses of a /24 (available-ips), and the big pages inventory tools pull (`limit=1000` of
 * interfaces and devices, the devices with and without their merged config contexts). Each is one
 * autocannon run bounded by --duration, like scenarios.ts, whose runner they share.
 */
import type { Scenario } from './scenarios.js';
import type { SeededIpam } from './seed-ipam.js';

/** list paths whose SQL statements per request --trace-sql compares at two page sizes */
export const IPAM_PAGE_PROBES: Array<{ name: string; path: (limit: number) => string }> = [
  { name: 'prefixes', path: (l) => `/api/ipam/prefixes/?limit=${l}` },
  { name: 'ip-addresses', path: (l) => `/api/ipam/ip-addresses/?limit=${l}` },
  { name: 'interfaces', path: (l) => `/api/dcim/interfaces/?limit=${l}` },
  { name: 'devices', path: (l) => `/api/dcim/devices/?limit=${l}` },
  { name: 'devices, exclude=config_context', path: (l) => `/api/dcim/devices/?limit=${l}&exclude=config_context` },
];

export function buildIpamScenarios(seeded: SeededIpam, connections: number): Scenario[] {
  const { ipIds, parent16, availablePrefix, searchQ, contexts } = seeded;
  let next = 0;
  // a shuffled walk over the ids (stride coprime with the count) so each id is hit evenly
  const stride = 7919 % ipIds.length || 1;
  const randomIp = () => `/api/ipam/ip-addresses/${ipIds[(next = (next + stride) % ipIds.length)]}/`;
  const list = (name: string, title: string, path: string, timeout = 60): Scenario => ({
    name,
    title,
    connections,
    timeout,
    requests: () => [{ method: 'GET', path }],
    probe: () => ({ method: 'GET', path }),
  });
  const cc = contexts === null ? 'no config contexts seeded' : `${contexts} contexts merged per device`;
  return [
    list('prefixes', 'prefix list, page of 50', '/api/ipam/prefixes/?limit=50'),
    list('ip-addresses', 'IP address list, page of 50', '/api/ipam/ip-addresses/?limit=50'),
    list(
      'ip-parent',
      `IP addresses ?parent=${parent16}, page of 50`,
      `/api/ipam/ip-addresses/?parent=${encodeURIComponent(parent16)}&limit=50`,
    ),
    list(
      'ip-search',
      `IP addresses ?q=${searchQ}, page of 50`,
      `/api/ipam/ip-addresses/?q=${encodeURIComponent(searchQ)}&limit=50`,
    ),
    {
      name: 'ip-detail',
      title: 'IP address detail GET, random id',
      connections,
      timeout: 60,
      requests: () => [{ method: 'GET', setupRequest: (req) => ({ ...req, path: randomIp() }) }],
      probe: () => ({ method: 'GET', path: randomIp() }),
    },
    list(
      'available-ips',
      `available-ips of ${availablePrefix.prefix} (first 50 free)`,
      `/api/ipam/prefixes/${availablePrefix.id}/available-ips/`,
    ),
    list('interfaces-1000', 'interface list, limit=1000', '/api/dcim/interfaces/?limit=1000', 120),
    list('devices-1000', `device list, limit=1000 (${cc})`, '/api/dcim/devices/?limit=1000', 120),
    list(
      'devices-1000-no-cc',
      'device list, limit=1000&exclude=config_context',
      '/api/dcim/devices/?limit=1000&exclude=config_context',
      120,
    ),
  ];
}
