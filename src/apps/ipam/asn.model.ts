/** Autonomous system numbers (reference 3.3), 32-bit, each from a RIR. */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, tenantField } from '../fields.js';
import { asnCounts, asnSiteFilters } from './asn-relations.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';

/** NetBox 3.4: "AS65000"; 4-byte numbers add their asdot form, "AS4200000000 (64086.59904)" */
function asnDisplay(row: Record<string, unknown>): string {
  const n = Number(row.asn);
  return n > 65535 ? `AS${n} (${Math.floor(n / 65536)}.${n % 65536})` : `AS${n}`;
}

export const asn = defineModel({
  name: 'ipam.asn',
  path: 'asns',
  verboseName: 'ASN',
  fields: {
    asn: { kind: 'integer', required: true, unique: true, min: 1, max: 4294967295, label: 'ASN' },
    rir: fk('ipam.rir', { required: true, nullable: false, onDelete: 'protect', label: 'RIR' }),
    tenant: tenantField(),
    description: description(),
    comments: comments(),
  },
  display: asnDisplay,
  counts: asnCounts,
  filters: { ...tenancyFilters(), ...asnSiteFilters },
  ui: {
    columns: ['asn', 'rir', 'site_count', 'provider_count', 'description', 'tenant'],
    groups: [
      { title: 'ASN', fields: ['asn', 'rir', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    related: [
      { model: 'dcim.site', param: 'asn_id' },
      { model: 'circuits.provider', param: 'asn_id' },
    ],
  },
  brief: ['asn'],
  ordering: ['asn'],
  search: ['asn', 'description'],
});
