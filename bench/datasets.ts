/**
 * The data sets a run can seed and measure (`--dataset sites|ipam|standard`, default sites): each seeds
 * through the API, checks what it seeded, and names its scenarios and the list paths whose SQL
 * statements per request --trace-sql compares at two page sizes.
 */
import type { BenchArgs } from './args.js';
import type { Api } from './http.js';
import { buildScenarios, type Scenario } from './scenarios.js';
import { buildIpamScenarios, IPAM_PAGE_PROBES } from './scenarios-ipam.js';
import { seed, type SeedStep } from './seed.js';
import { IPAM_FULL, IPAM_SMALL, seedIpam, verifyCounts } from './seed-ipam.js';
import { buildStandardScenarios, STANDARD_PAGE_PROBES } from './scenarios-standard.js';
import { seedStandard, STANDARD_FULL, STANDARD_SMALL } from './seed-standard.js';

export interface PageProbe {
  name: string;
  path(limit: number): string;
}

export interface PreparedDataset {
  name: BenchArgs['dataset'];
  /** what was seeded, one line for the report */
  summary: string;
  steps: SeedStep[];
  scenarios: Scenario[];
  pageProbes: PageProbe[];
}

/** Watchdog budget per engine: seconds for seeding, and how many scenarios a run holds. */
export const BUDGET: Record<BenchArgs['dataset'], { seedSec: number; scenarios: number }> = {
  sites: { seedSec: 300, scenarios: 6 },
  // 126,000 objects through the API; PGlite writes them one statement at a time
  ipam: { seedSec: 1800, scenarios: 9 },
  // about 37,000 objects in lists of 100
  standard: { seedSec: 1200, scenarios: 8 },
};

export async function prepareDataset(args: BenchArgs, api: Api, log: (s: string) => void): Promise<PreparedDataset> {
  if (args.dataset === 'standard') {
    log(`   seeding the standard data set (issue 15)${args.small ? ' (--small)' : ''}, lists of 100, two clients`);
    const seeded = await seedStandard(api, args.small ? STANDARD_SMALL : STANDARD_FULL, log);
    return { name: 'standard', summary: seeded.summary, steps: seeded.steps, scenarios: buildStandardScenarios(seeded, args.connections), pageProbes: STANDARD_PAGE_PROBES };
  }
  if (args.dataset === 'ipam') {
    const size = args.small ? IPAM_SMALL : IPAM_FULL;
    log(`   seeding the IPAM data set${args.small ? ' (--small)' : ''}: ${size.devices} devices x ${size.interfacesPerDevice} interfaces, `
      + `${size.slash16s * (1 + size.childrenPer16)} prefixes, ${size.slash16s * size.filledPer16 * size.hostsPer24} addresses, config contexts`);
    const seeded = await seedIpam(api, size, log);
    return { name: 'ipam', summary: seeded.summary, steps: seeded.steps, scenarios: buildIpamScenarios(seeded, args.connections), pageProbes: IPAM_PAGE_PROBES };
  }
  log(`   seeding ${args.sites} sites`);
  const seeded = await seed(api, args.sites, log);
  await verifyCounts(api, { 'dcim/sites': args.sites });
  return {
    name: 'sites',
    summary: `${args.sites.toLocaleString('en')} sites with tenants, regions and tags`,
    steps: seeded.steps,
    scenarios: buildScenarios(seeded, args.connections, args.bulkConnections),
    pageProbes: [{ name: 'sites', path: (l) => `/api/dcim/sites/?limit=${l}` }],
  };
}
