/**
 * Seeds the internet data set (`--dataset internet`; seed-internet-sql.ts says its shape):
 * 10,000,000 addresses in bulk SQL into the database the service has just migrated. The address
 * table's secondary indexes are dropped for the load and built again afterwards from their own
 * definitions (pg_indexes), so the schema is the migrations' and a build sorts once instead of
 * inserting 10 million entries one by one (the trigram indexes most of all). PostgreSQL only.
 */
import pg from 'pg';
import type { Api } from './http.js';
import type { SeedStep } from './seed.js';
import { verifyCounts } from './seed-ipam.js';
import {
  FIRST_PUBLIC_OCTET,
  type InternetSizes,
  INTERNET_SEQUENCE_TABLES,
  internetCounts,
  internetSeedStatements,
} from './seed-internet-sql.js';
import { SEQUENCE_TABLES, sequenceStatements } from './seed-scale-sql.js';
import type { SeededStandard } from './seed-standard.js';
import { SCALE_FULL } from './seed-scale.js';

export const INTERNET_FULL: InternetSizes = {
  dcim: { ...SCALE_FULL, interfacesPerDevice: 20 },
  vrfs: 20,
  global16s: 2000,
  vrf16s: 100,
  per16: 100,
  per24: 25,
  assignedPer10: 3,
};
/** a hundredth of the addresses: 100,000 */
export const INTERNET_SMALL: InternetSizes = {
  ...INTERNET_FULL,
  dcim: { ...SCALE_FULL, devicesPerRack: 1 },
  vrfs: 2,
  global16s: 20,
  vrf16s: 10,
};

/** what the internet run reports besides the steps: the database's size */
export interface SeededInternet extends SeededStandard {
  databaseBytes: number;
}

export async function seedInternet(
  api: Api,
  dbUrl: string,
  size: InternetSizes,
  log: (s: string) => void = console.log,
): Promise<SeededInternet> {
  const steps: SeedStep[] = [];
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  const timed = async (what: string, objects: number, sqls: string[]) => {
    const t0 = performance.now();
    for (const s of sqls) await client.query(s);
    const seconds = (performance.now() - t0) / 1000;
    steps.push({ what, objects, requests: sqls.length, seconds, objectsPerSec: objects / seconds });
    log(`  ${what.padEnd(22)} ${objects.toLocaleString('en').padStart(10)} rows in ${seconds.toFixed(1)} s`);
  };
  try {
    await client.query(`set statement_timeout = 0; set maintenance_work_mem = '512MB'`);
    const indexes = await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where tablename = 'ipam_ipaddress' and indexname <> 'ipam_ipaddress_pkey'`,
    );
    await timed(
      'drop address indexes',
      0,
      indexes.rows.map((i) => `drop index ${i.indexname}`),
    );
    for (const step of internetSeedStatements(size)) await timed(step.what, step.objects, [step.sql]);
    await timed(
      'build address indexes',
      0,
      indexes.rows.map((i) => i.indexdef),
    );
    for (const s of sequenceStatements([...SEQUENCE_TABLES, ...INTERNET_SEQUENCE_TABLES])) await client.query(s);
    // the service's caches move with its own writes or this notification (seed-scale.ts)
    await client.query(`notify inventory_data_changed, 'bench-seed-internet'`);
    const n = internetCounts(size);
    await verifyCounts(api, {
      'dcim/interfaces': n.interfaces,
      'ipam/prefixes': n.prefixes,
      'ipam/ip-addresses': n.addresses,
    });
    const total = steps.reduce((s, x) => s + x.objects, 0);
    const seconds = steps.reduce((s, x) => s + x.seconds, 0);
    steps.push({
      what: 'SQL load, all steps',
      objects: total,
      requests: steps.length,
      seconds,
      objectsPerSec: total / seconds,
    });
    const bytes = Number(
      (await client.query<{ b: string }>('select pg_database_size(current_database()) as b')).rows[0]!.b,
    );
    log(
      `  SQL load: ${total.toLocaleString('en')} rows in ${seconds.toFixed(1)} s; database ${(bytes / 1e9).toFixed(2)} GB`,
    );
    const ids = await client.query<{ id: string }>('select id from dcim_device order by id');
    return {
      steps,
      deviceIds: ids.rows.map((r) => Number(r.id)),
      searchQ: `${FIRST_PUBLIC_OCTET}.1.`,
      parent16: `${FIRST_PUBLIC_OCTET}.1.0.0/16`,
      databaseBytes: bytes,
      summary:
        `${n.addresses.toLocaleString('en')} IP addresses (${n.assigned.toLocaleString('en')} on interfaces), ${n.prefixes.toLocaleString('en')} prefixes ` +
        `(${size.vrfs} VRFs), ${n.aggregates} aggregates, ${ids.rows.length.toLocaleString('en')} devices, ${n.interfaces.toLocaleString('en')} interfaces; bulk SQL, ${(bytes / 1e9).toFixed(1)} GB`,
    };
  } finally {
    await client.end();
  }
}
