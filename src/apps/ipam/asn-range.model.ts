/**
 * ASN ranges (NetBox 3.5+ ASNRange): a block of AS numbers of one RIR from which ASNs are handed
 * out (`available-asns`, allocation.routes.ts). `asn_count` is the ASNs that fall inside the range.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { description, fk, name, slug, tenantField } from '../fields.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';

const ASN = { kind: 'integer', required: true, min: 1, max: 4294967295 } as const;

export const asnRange = defineModel({
  name: 'ipam.asnrange',
  path: 'asn-ranges',
  verboseName: 'ASN range',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    rir: fk('ipam.rir', { required: true, nullable: false, onDelete: 'protect', label: 'RIR' }),
    start: { ...ASN },
    end: { ...ASN },
    tenant: tenantField(),
    description: description(),
    asn_count: { kind: 'computed', readOnly: true, shape: { type: 'integer' } },
  },
  filters: tenancyFilters(),
  hooks: {
    async validate({ data, before }) {
      const { start, end } = { ...before, ...data };
      // NetBox 3.7 ASNRange.clean()
      if (start != null && end != null && Number(end) <= Number(start)) {
        return { __all__: [`Starting ASN (${String(start)}) must be lower than ending ASN (${String(end)}).`] };
      }
    },
    async represent(rc, rows, out, { mode }) {
      if (mode !== 'full' || !rows.length) return;
      // ASNs are not linked to a range: count those whose number falls inside it (NetBox annotate_asn_counts)
      const res = await sql<{
        id: number;
        n: number;
      }>`select r.id, (select count(*) from ipam_asn a where a.asn between r.start and r."end")::int as n
        from ipam_asnrange r where r.id = any(${rows.map((r) => Number(r.id))}::bigint[])`.execute(rc.q);
      const counts = new Map(res.rows.map((r) => [Number(r.id), r.n]));
      rows.forEach((r, i) => (out[i]!.asn_count = counts.get(Number(r.id)) ?? 0));
    },
  },
  // NetBox: "name (start-end)"
  display: (row) => `${String(row.name)} (${String(row.start)}-${String(row.end)})`,
  ui: {
    columns: ['name', 'rir', 'start', 'end', 'tenant', 'asn_count', 'description'],
    groups: [
      { title: 'ASN Range', fields: ['name', 'slug', 'rir', 'start', 'end', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
