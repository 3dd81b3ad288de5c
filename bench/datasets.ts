/**
 * The data sets a run can seed and measure (`--dataset sites|ipam|standard|scale|internet`, default sites):
 * each seeds (through the API; scale in bulk SQL into the service's database), checks what it
 * seeded, and names its scenarios and the list paths whose SQL statements per request --trace-sql
 * compares at two page sizes. scale runs the standard data set's scenarios on 50 times the data;
 * internet (10,000,000 addresses, seed-internet.ts) runs them with three more, which a standard
 * run in the same invocation measures too, for the ratios.
 */
import type { BenchArgs, Dataset } from './args.js';
import { type Api, call } from './http.js';
import { buildScenarios, type Scenario } from './scenarios.js';
import { buildIpamScenarios, IPAM_PAGE_PROBES } from './scenarios-ipam.js';
import { seed, type SeedStep } from './seed.js';
import { IPAM_FULL, IPAM_SMALL, seedIpam, verifyCounts } from './seed-ipam.js';
import { buildStandardScenarios, STANDARD_PAGE_PROBES } from './scenarios-standard.js';
import { seedStandard, STANDARD_FULL, STANDARD_SMALL } from './seed-standard.js';
import { SCALE_FULL, SCALE_SMALL, seedScale } from './seed-scale.js';
import { INTERNET_FULL, INTERNET_SMALL, seedInternet } from './seed-internet.js';
import type { SeededStandard } from './seed-standard.js';
import type { Server } from './server.js';

export interface PageProbe {
  name: string;
  path(limit: number): string;
}

export interface PreparedDataset {
  name: Dataset;
  /** what was seeded, one line for the report */
  summary: string;
  steps: SeedStep[];
  scenarios: Scenario[];
  pageProbes: PageProbe[];
}

/** Watchdog budget per engine: seconds for seeding, and how many scenarios a run holds. */
export const BUDGET: Record<Dataset, { seedSec: number; scenarios: number }> = {
  sites: { seedSec: 300, scenarios: 6 },
  // 126,000 objects through the API; PGlite writes them one statement at a time
  ipam: { seedSec: 1800, scenarios: 9 },
  // about 37,000 objects in lists of 100
  standard: { seedSec: 1200, scenarios: 8 },
  // 1.7 million rows in bulk SQL: about 25 s alone on the 2-core machine, plus counting them
  scale: { seedSec: 900, scenarios: 8 },
  // 10 million addresses and their indexes in bulk SQL: about 15 minutes on the 2-core machine
  internet: { seedSec: 3600, scenarios: 12 },
};

/** the extra scenarios' /24: the first of the `parent=` /16, which holds addresses in both sets */
export async function extraFor(api: Api, seeded: SeededStandard): Promise<{ availablePrefixId: number }> {
  const p24 = seeded.parent16.replace('.0.0/16', '.0.0/24');
  const page = await call<{ results: Array<{ id: number }> }>(
    api,
    'GET',
    `/api/ipam/prefixes/?prefix=${encodeURIComponent(p24)}&vrf_id=null&limit=1`,
  );
  if (!page.results[0]) throw new Error(`no prefix ${p24} in the global table to ask available-ips of`);
  return { availablePrefixId: page.results[0].id };
}

/** the database URL of a PostgreSQL server's own database */
function databaseUrl(pgUrl: string, database: string): string {
  const url = new URL(pgUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export async function prepareDataset(
  dataset: Dataset,
  args: BenchArgs,
  api: Api,
  server: Server,
  log: (s: string) => void,
): Promise<PreparedDataset> {
  const withInternet = args.runs.some((r) => r.dataset === 'internet');
  if (dataset === 'internet') {
    if (!server.database) throw new Error('the internet data set is seeded in SQL: PostgreSQL only');
    log(`   seeding the internet data set${args.small ? ' (--small)' : ''} in bulk SQL`);
    const seeded = await seedInternet(
      api,
      databaseUrl(args.pgUrl, server.database),
      args.small ? INTERNET_SMALL : INTERNET_FULL,
      log,
    );
    return {
      name: 'internet',
      summary: seeded.summary,
      steps: seeded.steps,
      scenarios: buildStandardScenarios(seeded, args.connections, await extraFor(api, seeded)),
      pageProbes: STANDARD_PAGE_PROBES,
    };
  }
  if (dataset === 'scale') {
    if (!server.database) throw new Error('the scale data set is seeded in SQL: PostgreSQL only');
    log(`   seeding the scale data set (50x standard)${args.small ? ' (--small)' : ''} in bulk SQL`);
    const seeded = await seedScale(
      api,
      databaseUrl(args.pgUrl, server.database),
      args.small ? SCALE_SMALL : SCALE_FULL,
      log,
    );
    return {
      name: 'scale',
      summary: seeded.summary,
      steps: seeded.steps,
      scenarios: buildStandardScenarios(seeded, args.connections),
      pageProbes: STANDARD_PAGE_PROBES,
    };
  }
  if (dataset === 'standard') {
    log(`   seeding the standard data set${args.small ? ' (--small)' : ''}, lists of 100, two clients`);
    const seeded = await seedStandard(api, args.small ? STANDARD_SMALL : STANDARD_FULL, log);
    return {
      name: 'standard',
      summary: seeded.summary,
      steps: seeded.steps,
      scenarios: buildStandardScenarios(
        seeded,
        args.connections,
        withInternet ? await extraFor(api, seeded) : undefined,
      ),
      pageProbes: STANDARD_PAGE_PROBES,
    };
  }
  if (dataset === 'ipam') {
    const size = args.small ? IPAM_SMALL : IPAM_FULL;
    log(
      `   seeding the IPAM data set${args.small ? ' (--small)' : ''}: ${size.devices} devices x ${size.interfacesPerDevice} interfaces, ` +
        `${size.slash16s * (1 + size.childrenPer16)} prefixes, ${size.slash16s * size.filledPer16 * size.hostsPer24} addresses, config contexts`,
    );
    const seeded = await seedIpam(api, size, log);
    return {
      name: 'ipam',
      summary: seeded.summary,
      steps: seeded.steps,
      scenarios: buildIpamScenarios(seeded, args.connections),
      pageProbes: IPAM_PAGE_PROBES,
    };
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
