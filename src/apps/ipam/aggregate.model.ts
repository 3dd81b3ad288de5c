/** Aggregates (reference 3.3): the top of the IP space, allocated by a RIR; they never overlap. */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { covers, parseIp } from '../../core/net/ip.js';
import { comments, description, fk, tenantField } from '../fields.js';
import { familyField, setFamily } from './common.js';
import { colOf, familyFilter, netFilter, networkSearch } from './network-filters.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';

export const aggregate = defineModel({
  name: 'ipam.aggregate',
  path: 'aggregates',
  verboseName: 'aggregate',
  fields: {
    family: familyField(),
    prefix: { kind: 'ipprefix', required: true },
    rir: fk('ipam.rir', { required: true, nullable: false, onDelete: 'protect', label: 'RIR' }),
    tenant: tenantField(),
    date_added: { kind: 'date', nullable: true },
    description: description(),
    comments: comments(),
  },
  display: (row) => String(row.prefix),
  filters: {
    ...tenancyFilters(),
    family: familyFilter('prefix'),
    prefix: netFilter(colOf('prefix'), '='),
    q: networkSearch('prefix', ['description']),
  },
  hooks: {
    async validate({ rc, data, earlier }) {
      // NetBox 3.4: an aggregate may neither sit inside nor cover another one
      const p = data.prefix as string;
      const mine = parseIp(p)!;
      for (const e of earlier) {
        const other = parseIp(String(e.prefix));
        if (!other || !(covers(other, mine) || covers(mine, other))) continue;
        return {
          prefix: [`Aggregates cannot overlap. ${p} overlaps ${String(e.prefix)}, written earlier in this request.`],
        };
      }
      const res = await sql<{
        prefix: string;
        covering: boolean;
      }>`select prefix::text as prefix, prefix >>= ${p}::cidr as covering
        from ipam_aggregate where (prefix >>= ${p}::cidr or prefix << ${p}::cidr) and id is distinct from ${data.id ?? null}
        order by covering desc, prefix limit 1`.execute(rc.q);
      const other = res.rows[0];
      if (!other) return;
      return {
        prefix: [
          other.covering
            ? `Aggregates cannot overlap. ${p} is already covered by an existing aggregate (${other.prefix}).`
            : `Aggregates cannot overlap. ${p} covers an existing aggregate (${other.prefix}).`,
        ],
      };
    },
    represent(rc, rows, out, { mode }) {
      setFamily(rows, out, 'prefix', mode, rc.dialect);
    },
  },
  ui: {
    columns: ['prefix', 'rir', 'tenant', 'date_added', 'description'],
    clone: ['rir', 'tenant', 'date_added', 'description'],
    groups: [
      { title: 'Aggregate', fields: ['prefix', 'rir', 'date_added', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  brief: ['family', 'prefix'],
  ordering: ['prefix'],
  search: ['prefix', 'description'],
});
