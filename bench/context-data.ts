/**
 * Large config-context documents for the IPAM data set: the kind of per-role and per-site device
 * configuration (NTP, SNMP, syslog, AAA, routing defaults, feature flags) that operators keep in
 * NetBox config contexts and that `devices/?limit=1000` has to merge and render for every device.
 * Deterministic (seeded PRNG), so every run renders the same bytes.
 */
import { prng } from './seed.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const SECTIONS = [
  'ntp',
  'snmp',
  'syslog',
  'aaa',
  'dns',
  'bgp',
  'ospf',
  'isis',
  'lldp',
  'stp',
  'qos',
  'acl',
  'netflow',
  'telemetry',
  'banner',
  'users',
  'interfaces_defaults',
  'vlans_defaults',
  'mgmt',
  'features',
];

/**
 * One context body: 20 sections of 10 keys each (plus the sections themselves, ~220 keys), with
 * strings, numbers, booleans, lists and one more level of nesting. Contexts that share a `seed`
 * family share section names, so merging them by weight overrides keys as NetBox's deep merge does.
 */
export function contextData(seed: number, label: string): Record<string, Json> {
  const rnd = prng(1000 + seed);
  const out: Record<string, Json> = {};
  for (const section of SECTIONS) {
    const body: Record<string, Json> = {};
    for (let k = 0; k < 10; k++) {
      const key = `${section}_${k}`;
      switch (k % 5) {
        case 0:
          body[key] = `${label}-${section}-${Math.floor(rnd() * 1e6).toString(36)}`;
          break;
        case 1:
          body[key] = Math.floor(rnd() * 65535);
          break;
        case 2:
          body[key] = rnd() < 0.5;
          break;
        case 3:
          body[key] = Array.from({ length: 4 }, (_, i) => `10.${seed}.${k}.${i + 1}`);
          break;
        default:
          body[key] = {
            enabled: rnd() < 0.8,
            priority: Math.floor(rnd() * 100),
            tags: [label, section],
            owner: `team-${Math.floor(rnd() * 9)}`,
          };
      }
    }
    out[section] = body;
  }
  return out;
}

export interface ContextPlan {
  name: string;
  weight: number;
  /** indexes into the seeded sites and roles; empty = not restricted on that axis */
  sites: number[];
  roles: number[];
}

/**
 * Five contexts: a global baseline (every device), two site halves and two role groups, so every
 * device matches three of them (baseline + its site half + its role group) with overlapping keys.
 */
export function contextPlans(siteCount: number): ContextPlan[] {
  const half = Math.ceil(siteCount / 2);
  const range = (a: number, b: number) => Array.from({ length: Math.max(0, b - a) }, (_, i) => a + i);
  return [
    { name: 'bench-baseline', weight: 1000, sites: [], roles: [] },
    { name: 'bench-sites-east', weight: 1100, sites: range(0, half), roles: [] },
    { name: 'bench-sites-west', weight: 1100, sites: range(half, siteCount), roles: [] },
    { name: 'bench-roles-fabric', weight: 1200, sites: [], roles: [0, 1] },
    { name: 'bench-roles-edge', weight: 1200, sites: [], roles: [2, 3] },
  ];
}
