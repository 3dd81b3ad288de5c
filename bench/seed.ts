/**
 * Seeds the data set the scenarios read, through the REST API with bulk POSTs (lists of up to
 * 1,000 objects per request), and reports the seeding throughput in objects/s. Going through the
 * API rather than SQL measures the real write path (validation, related-object resolution,
 * uniqueness checks, change log) and proves the bulk endpoints work at this size.
 *
 * Data: 10 tenant groups, 100 tenants (10 per group), 20 tags, 50 regions (10 top-level with 4
 * children each), and --sites sites (default 10,000), each with a tenant, a region, a status from
 * active/planned/staging and 1-3 tags, chosen by a seeded PRNG so every run gets the same data.
 *
 * Standalone: node --import tsx bench/seed.ts --url http://127.0.0.1:8000 --token KEY [--sites N]
 */
import { resolve } from 'node:path';
import { type Api, call } from './http.js';

export const BULK = 1000;
export const STATUSES = ['active', 'planned', 'staging'] as const;

export interface SeedStep {
  what: string;
  objects: number;
  requests: number;
  seconds: number;
  objectsPerSec: number;
}

export interface Seeded {
  siteIds: number[];
  tenantIds: number[];
  /** the tenant used by the filtered-list scenario, and how many of its sites are active */
  filterTenant: { id: number; activeSites: number };
  steps: SeedStep[];
}

/** mulberry32: small deterministic PRNG, so runs seed identical data */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Obj = Record<string, unknown> & { id: number };

/**
 * Creates objects in bulk requests of up to BULK, `concurrency` requests in flight (the chunks
 * must not depend on each other); returns the created objects in input order.
 */
export async function bulkCreate(
  api: Api,
  path: string,
  objects: Array<Record<string, unknown>>,
  what: string,
  steps: SeedStep[],
  concurrency = 1,
  chunk = BULK,
): Promise<Obj[]> {
  const chunks: Obj[][] = [];
  const t0 = performance.now();
  let requests = 0;
  let nextChunk = 0;
  const worker = async () => {
    for (let c = nextChunk++; c * chunk < objects.length; c = nextChunk++) {
      chunks[c] = await call<Obj[]>(api, 'POST', path, objects.slice(c * chunk, (c + 1) * chunk));
      requests++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const out = chunks.flat();
  const seconds = (performance.now() - t0) / 1000;
  if (out.length !== objects.length) throw new Error(`${what}: created ${out.length} of ${objects.length}`);
  steps.push({ what, objects: out.length, requests, seconds, objectsPerSec: out.length / seconds });
  return out;
}

export const pad = (n: number, w = 5) => String(n).padStart(w, '0');

export async function seed(api: Api, sites: number, log: (s: string) => void = console.log): Promise<Seeded> {
  const rnd = prng(42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(rnd() * list.length)]!;
  const steps: SeedStep[] = [];

  const groups = await bulkCreate(
    api,
    '/api/tenancy/tenant-groups/',
    Array.from({ length: 10 }, (_, i) => ({ name: `Bench Group ${i}`, slug: `bench-group-${i}` })),
    'tenant groups',
    steps,
  );
  const tenants = await bulkCreate(
    api,
    '/api/tenancy/tenants/',
    Array.from({ length: 100 }, (_, i) => ({
      name: `Bench Tenant ${pad(i, 3)}`,
      slug: `bench-tenant-${i}`,
      group: groups[i % 10]!.id,
    })),
    'tenants',
    steps,
  );
  const tags = await bulkCreate(
    api,
    '/api/extras/tags/',
    Array.from({ length: 20 }, (_, i) => ({ name: `bench-tag-${i}`, slug: `bench-tag-${i}`, color: 'aa1409' })),
    'tags',
    steps,
  );
  const topRegions = await bulkCreate(
    api,
    '/api/dcim/regions/',
    Array.from({ length: 10 }, (_, i) => ({ name: `Region ${i}`, slug: `region-${i}` })),
    'regions (top level)',
    steps,
  );
  const subRegions = await bulkCreate(
    api,
    '/api/dcim/regions/',
    Array.from({ length: 40 }, (_, i) => ({
      name: `Region ${i % 10}.${Math.floor(i / 10)}`,
      slug: `region-${i % 10}-${Math.floor(i / 10)}`,
      parent: topRegions[i % 10]!.id,
    })),
    'regions (children)',
    steps,
  );
  const regions = [...topRegions, ...subRegions];

  const activeByTenant = new Map<number, number>();
  const siteObjs = Array.from({ length: sites }, (_, i) => {
    const tenant = pick(tenants).id;
    const status = pick(STATUSES);
    if (status === 'active') activeByTenant.set(tenant, (activeByTenant.get(tenant) ?? 0) + 1);
    const nTags = 1 + Math.floor(rnd() * 3);
    const tagIds = new Set<number>();
    while (tagIds.size < nTags) tagIds.add(pick(tags).id);
    return {
      name: `Site ${pad(i, 6)}`,
      slug: `site-${i}`,
      status,
      tenant,
      region: pick(regions).id,
      facility: `DC-${i % 97}`,
      description: `Benchmark site ${i}`,
      tags: [...tagIds],
    };
  });
  const created = await bulkCreate(api, '/api/dcim/sites/', siteObjs, 'sites', steps);
  for (const s of steps)
    log(
      `  seeded ${s.what.padEnd(20)} ${String(s.objects).padStart(6)} objects in ${s.requests} request(s), ${s.seconds.toFixed(2)} s = ${Math.round(s.objectsPerSec)} objects/s`,
    );

  // the tenant with the most active sites, so the filtered page is a full page when possible
  const [filterTenantId, activeSites] = [...activeByTenant].sort((a, b) => b[1] - a[1])[0] ?? [tenants[0]!.id, 0];
  return {
    siteIds: created.map((s) => s.id),
    tenantIds: tenants.map((t) => t.id),
    filterTenant: { id: filterTenantId, activeSites },
    steps,
  };
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const argv = process.argv.slice(2);
  const get = (n: string) => (argv.includes(n) ? argv[argv.indexOf(n) + 1] : undefined);
  const api = { base: get('--url') ?? 'http://127.0.0.1:8000', token: get('--token') ?? process.env.ADMIN_TOKEN ?? '' };
  seed(api, Number(get('--sites') ?? 10_000)).catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
