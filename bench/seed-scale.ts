/**
 * Seeds the scale data set (`--dataset scale`; docs/performance.md): the standard data set's shape
 * (seed-standard.ts) 50 times over, written in bulk SQL (seed-scale-sql.ts) into the database the
 * service has just migrated, since 1.7 million objects through the API would take the better part
 * of an hour. PostgreSQL only: PGlite is the small, zero-setup engine.
 *
 * - 25 regions, 1,000 sites (40 per region), 5,000 racks (5 per site), 10 manufacturers, 20 device
 *   types, 5 roles (the catalogue is not scaled);
 * - 50,000 devices (10 per rack), 500,000 interfaces (10 per device);
 * - 2,500 VLAN groups (2 or 3 per site, as in the standard set), 100,000 VLANs (40 per group:
 *   a group holds at most 4,094, so the groups grow, not the VLANs per group);
 * - 100,000 prefixes: 400 /16s of 250 /24s each, 10.0-255.y.0/24 then 11.0-143.y.0/24 (10/8
 *   holds only 65,536 /24s), each with a site and a VLAN of that site;
 * - 1,000,000 addresses: 10 per /24, 2 per interface, each with a DNS name.
 * What the scenarios' filters match, the same count as in the standard set: `parent=10.1.0.0/16`
 * and `q=10.1.` both select the 2,500 addresses of 10.1.0.0/16 (q matches the start of the
 * address text, and "10.1." appears in no DNS name), now among 1,000,000 rather than 20,000.
 * `--small` seeds a tenth of the devices, interfaces, prefixes and addresses.
 */
import pg from 'pg';
import type { Api } from './http.js';
import type { SeedStep } from './seed.js';
import { verifyCounts } from './seed-ipam.js';
import { scaleCounts, scaleSeedStatements, sequenceStatements } from './seed-scale-sql.js';
import type { SeededStandard, StandardSizes } from './seed-standard.js';

export const SCALE_FULL: StandardSizes = {
  regions: 25,
  sitesPerRegion: 40,
  racksPerSite: 5,
  devicesPerRack: 10,
  interfacesPerDevice: 10,
  vlanGroups: 2500,
  vlansPerGroup: 40,
  slash16s: 400,
  per16: 250,
  addressesPer24: 10,
};
export const SCALE_SMALL: StandardSizes = { ...SCALE_FULL, devicesPerRack: 1, vlansPerGroup: 4, per16: 25 };

/** the channel the service's change watch listens on (src/db/change-watch.ts) */
const CHANGE_CHANNEL = 'inventory_data_changed';

/** `dbUrl`: the service's own database, already migrated by it */
export async function seedScale(
  api: Api,
  dbUrl: string,
  size: StandardSizes,
  log: (s: string) => void = console.log,
): Promise<SeededStandard> {
  const steps: SeedStep[] = [];
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    await client.query('set statement_timeout = 0');
    for (const step of scaleSeedStatements(size)) {
      const t0 = performance.now();
      await client.query(step.sql);
      const seconds = (performance.now() - t0) / 1000;
      steps.push({
        what: step.what,
        objects: step.objects,
        requests: 1,
        seconds,
        objectsPerSec: step.objects / seconds,
      });
      log(
        `  seeded ${step.what.padEnd(16)} ${step.objects.toLocaleString('en').padStart(9)} rows in ${seconds.toFixed(2)} s (one insert ... select)`,
      );
    }
    for (const s of sequenceStatements()) await client.query(s);
    // the service caches counts and responses under a data generation that moves with its own
    // writes or with this notification; rows written behind its back must move it too
    await client.query(`notify ${CHANGE_CHANNEL}, 'bench-seed-scale'`);
    const ids = await client.query<{ id: string }>('select id from dcim_device order by id');
    const n = scaleCounts(size);
    await verifyCounts(api, {
      'dcim/devices': n.devices,
      'dcim/interfaces': n.interfaces,
      'ipam/vlans': n.vlans,
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
    log(
      `  SQL load: ${total.toLocaleString('en')} rows in ${seconds.toFixed(1)} s = ${Math.round(total / seconds).toLocaleString('en')} rows/s`,
    );
    return {
      steps,
      deviceIds: ids.rows.map((r) => Number(r.id)),
      searchQ: '10.1.',
      parent16: '10.1.0.0/16',
      summary:
        `${n.sites.toLocaleString('en')} sites, ${n.racks.toLocaleString('en')} racks, ${n.devices.toLocaleString('en')} devices, ${n.interfaces.toLocaleString('en')} interfaces, ` +
        `${n.vlans.toLocaleString('en')} VLANs, ${n.prefixes.toLocaleString('en')} prefixes, ${n.addresses.toLocaleString('en')} IP addresses; bulk SQL`,
    };
  } finally {
    await client.end();
  }
}
