/**
 * The ASNs assigned to sites (reference 3.1) and providers (reference 3.4): the two m2m fields,
 * written as lists of ASN ids (or attribute objects) and rendered nested, the filters on both sides
 * (netbox-filters: sites and providers `asn` / `asn_id`, ASNs `site` / `site_id`), the ASN's
 * `site_count` / `provider_count`, and the site search that also matches an exact AS number.
 * The join tables are in migration 0050; deleting an ASN drops its assignments there, as Django
 * clears the m2m rows of a deleted object.
 */
import { sql } from 'kysely';
import type { CountDef, CustomFilter, FieldDef } from '../../core/model/types.js';
import { searchTerm, textSearchConditions } from '../../core/query/filter-conditions.js';
import { throughFilter } from '../../core/query/filter-blocks.js';

interface AsnJoin {
  table: string;
  /** column pointing at the site or provider */
  from: string;
}

const SITE_ASNS: AsnJoin = { table: 'dcim_site_asns', from: 'site_id' };
const PROVIDER_ASNS: AsnJoin = { table: 'circuits_provider_asns', from: 'provider_id' };

function asnsField(j: AsnJoin): FieldDef {
  return { kind: 'm2m', to: 'ipam.asn', label: 'ASNs', through: { table: j.table, from: j.from, to: 'asn_id' } };
}

/** `asn_id` (ASN ids) and `asn` (AS numbers), each with `__n`; unknown values are a 400 (model-choice filters) */
function asnFilters(j: AsnJoin): Record<string, CustomFilter> {
  const through = { table: j.table, own: j.from, other: 'asn_id' };
  return {
    asn_id: throughFilter('asn_id', through, { table: 'ipam_asn', key: 'id' }),
    asn: throughFilter('asn', through, { table: 'ipam_asn', key: 'asn' }),
  };
}

export const siteAsns = { field: asnsField(SITE_ASNS), filters: asnFilters(SITE_ASNS) };
export const providerAsns = { field: asnsField(PROVIDER_ASNS), filters: asnFilters(PROVIDER_ASNS) };

/** ASN side: sites by id or slug (netbox-filters lists `site` and `site_id` for ASNs) */
export const asnSiteFilters: Record<string, CustomFilter> = {
  site_id: throughFilter(
    'site_id',
    { table: SITE_ASNS.table, own: 'asn_id', other: 'site_id' },
    { table: 'dcim_site', key: 'id' },
  ),
  site: throughFilter(
    'site',
    { table: SITE_ASNS.table, own: 'asn_id', other: 'site_id' },
    { table: 'dcim_site', key: 'slug' },
  ),
};

/** reference 3.3: read-only counts of the sites and providers an ASN is assigned to */
export const asnCounts: Record<string, CountDef> = {
  site_count: { through: { table: SITE_ASNS.table, column: 'asn_id' } },
  provider_count: { through: { table: PROVIDER_ASNS.table, column: 'asn_id' } },
};

/**
 * Site `q=`: the declared search fields (case-insensitive contains), or a site holding that exact
 * AS number (reference 5: "Site adds ... exact ASN"). Replaces the generic search for sites only.
 */
export function siteSearch(fields: string[]): CustomFilter {
  return {
    type: 'string',
    async build(values, _lookup, { alias }) {
      const q = searchTerm(values);
      if (!q) return null;
      const parts = textSearchConditions(alias, fields, q);
      // NetBox 3.4 tries int(q); AS numbers are at most 32 bits, so longer digit runs cannot match
      if (/^\d{1,10}$/.test(q)) {
        parts.push(sql`${sql.ref(`${alias}.id`)} in (select sa.site_id from dcim_site_asns sa
          join ipam_asn a on a.id = sa.asn_id where a.asn = ${Number(q)})`);
      }
      return sql`(${sql.join(parts, sql` or `)})`;
    },
  };
}
