/**
 * IP ranges (reference 3.3): an inclusive run of addresses sharing one mask, not overlapping
 * another range of the same VRF, at most 2^32-1 addresses.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import { broadcastOf, formatAddress, parseIp } from '../../core/net/ip.js';
import { comments, description, fk, tenantField } from '../fields.js';
import { BasicStatus } from './choices.js';
import { familyField, sameVrfId, setFamily, vrfDisplay } from './common.js';
import { addressFilter, familyFilter, hostOf, networkSearch } from './network-filters.js';
import { parseNetworks } from '../../core/query/parse-value.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';

const MAX_SIZE = 2 ** 32 - 1;

/** NetBox 3.4 IPRange.name: the shared leading part once, "192.0.2.10-20/24" */
export function rangeName(start: string, end: string): string {
  const [a, len] = start.split('/');
  const b = end.split('/')[0]!;
  const sep = a!.includes(':') ? ':' : '.';
  const x = a!.split(sep);
  const y = b.split(sep);
  let i = 0;
  while (i < x.length - 1 && x[i] === y[i]) i++;
  const base = x.slice(0, i).join(sep);
  return `${base}${i ? sep : ''}${x.slice(i).join(sep)}-${y.slice(i).join(sep)}/${len}`;
}

function sizeOf(row: Row): number {
  const a = parseIp(String(row.start_address));
  const b = parseIp(String(row.end_address));
  return a && b ? Number(b.value - a.value + 1n) : 0;
}

/** ranges that hold the whole of each given address or network */
const containsFilter: CustomFilter = {
  type: 'string',
  async build(values, _lookup, { alias, param }) {
    const nets = parseNetworks(param, values);
    return sql`(${sql.join(
      nets.map((n) => {
        const first = `${formatAddress(n.family, n.value)}/${n.family === 4 ? 32 : 128}`;
        const last = `${formatAddress(n.family, broadcastOf(n))}/${n.family === 4 ? 32 : 128}`;
        return sql`(${hostOf('start_address')(alias)} <= ${first}::inet and ${hostOf('end_address')(alias)} >= ${last}::inet)`;
      }),
      sql` or `,
    )})`;
  },
};

/** 3.7 `parent`: ranges inside each given prefix */
const parentFilter: CustomFilter = {
  type: 'string',
  async build(values, _lookup, { alias, param }) {
    const nets = parseNetworks(param, values).map((n) => `${formatAddress(n.family, n.value)}/${n.prefixLength}`);
    return sql`(${sql.join(
      nets.map(
        (p) =>
          sql`(${hostOf('start_address')(alias)} <<= ${p}::cidr and ${hostOf('end_address')(alias)} <<= ${p}::cidr)`,
      ),
      sql` or `,
    )})`;
  },
};

export const ipRange = defineModel({
  name: 'ipam.iprange',
  path: 'ip-ranges',
  verboseName: 'IP range',
  fields: {
    family: familyField(),
    start_address: { kind: 'ipaddress', required: true },
    end_address: { kind: 'ipaddress', required: true },
    size: { kind: 'computed', shape: { type: 'integer' } },
    vrf: fk('ipam.vrf', { onDelete: 'protect', label: 'VRF' }),
    tenant: tenantField(),
    status: { kind: 'choice', choices: BasicStatus, default: 'active' },
    role: fk('ipam.role', { onDelete: 'set_null' }),
    description: description(),
    // NetBox 4.3: the range counts as fully used (stored and shown in 4.4; not yet acted on here)
    mark_populated: {
      kind: 'boolean',
      default: false,
      help: 'Prevent the creation of IP addresses within this range',
      dialect: '4.4',
    },
    comments: comments(),
  },
  display: (row) => rangeName(String(row.start_address), String(row.end_address)),
  filters: {
    ...tenancyFilters(),
    family: familyFilter('start_address'),
    start_address: addressFilter('start_address'),
    end_address: addressFilter('end_address'),
    contains: containsFilter,
    parent: parentFilter,
    q: networkSearch('start_address', ['description'], { startsWith: true }),
  },
  hooks: {
    async validate({ rc, data, earlier }): Promise<Record<string, string[]> | undefined> {
      const a = parseIp(String(data.start_address))!;
      const b = parseIp(String(data.end_address))!;
      if (a.family !== b.family) {
        return {
          end_address: [`Ending address version (IPv${b.family}) does not match starting address (IPv${a.family})`],
        };
      }
      if (a.prefixLength !== b.prefixLength) {
        return {
          end_address: [
            `Ending address mask (/${b.prefixLength}) does not match starting address mask (/${a.prefixLength})`,
          ],
        };
      }
      if (b.value <= a.value)
        return { end_address: [`Ending address must be greater than the starting address (${data.start_address})`] };
      const overlap = await sql<Row>`select r.start_address, r.end_address, v.name, v.rd from ipam_iprange r
        left join ipam_vrf v on v.id = r.vrf_id
        where r.vrf_id is not distinct from ${data.vrf_id ?? null}::bigint and r.id is distinct from ${data.id ?? null}::bigint
          and family(r.start_address) = family(${data.start_address}::inet)
          and host(r.start_address)::inet <= host(${data.end_address}::inet)::inet
          and host(r.end_address)::inet >= host(${data.start_address}::inet)::inet
        order by r.start_address limit 1`.execute(rc.q);
      for (const e of earlier) {
        const [ea, eb] = [parseIp(String(e.start_address)), parseIp(String(e.end_address))];
        if (
          !ea ||
          !eb ||
          ea.family !== a.family ||
          !sameVrfId(e.vrf_id, data.vrf_id) ||
          ea.value > b.value ||
          eb.value < a.value
        )
          continue;
        return {
          __all__: [
            `Defined addresses overlap with range ${rangeName(String(e.start_address), String(e.end_address))}, written earlier in this request`,
          ],
        };
      }
      const o = overlap.rows[0];
      if (o) {
        const where = o.name ? `VRF ${vrfDisplay(o)}` : 'global table';
        return {
          __all__: [
            `Defined addresses overlap with range ${rangeName(String(o.start_address), String(o.end_address))} in ${where}`,
          ],
        };
      }
      if (b.value - a.value + 1n > BigInt(MAX_SIZE))
        return { __all__: [`Defined range exceeds maximum supported size (${MAX_SIZE})`] };
    },
    represent(rc, rows, out, { mode }) {
      setFamily(rows, out, 'start_address', mode, rc.dialect);
      rows.forEach((r, i) => {
        if ('size' in out[i]!) out[i]!.size = sizeOf(r);
      });
    },
  },
  ui: {
    columns: ['start_address', 'end_address', 'size', 'vrf', 'status', 'role', 'tenant', 'description'],
    clone: ['vrf', 'tenant', 'status', 'role', 'description'],
    groups: [
      { title: 'IP Range', fields: ['vrf', 'start_address', 'end_address', 'role', 'status', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  brief: ['family', 'start_address', 'end_address'],
  ordering: ['vrf', 'start_address'],
  search: ['start_address', 'end_address', 'description'],
});
