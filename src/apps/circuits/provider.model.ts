/**
 * Providers (reference 3.4): who delivers circuits. A provider with circuits (or networks) cannot
 * be deleted (NetBox PROTECT); `circuit_count` is in the brief form.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, name, slug } from '../fields.js';
import { providerAsns } from '../ipam/asn-relations.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { terminationFilters } from './termination-filters.js';

export const provider = defineModel({
  name: 'circuits.provider',
  path: 'providers',
  verboseName: 'provider',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    account: { kind: 'string', maxLength: 30, label: 'account number' },
    description: description(),
    comments: comments(),
    asns: providerAsns.field,
  },
  counts: { circuit_count: { model: 'circuits.circuit', via: 'provider', kept: true } },
  filters: {
    ...terminationFilters(['site', 'region', 'site_group'], 'provider'),
    ...contactFilters(),
    ...providerAsns.filters,
  },
  ui: {
    columns: ['name', 'circuit_count'],
    groups: [{ title: '', fields: ['name', 'slug', 'asns', 'description'] }],
    related: [
      { model: 'circuits.provideraccount', param: 'provider_id' },
      { model: 'circuits.providernetwork', param: 'provider_id' },
      { model: 'circuits.circuit', param: 'provider_id' },
    ],
  },
  brief: ['name', 'slug', 'circuit_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'circuit_count'] },
  ordering: ['name'],
  search: ['name', 'slug', 'account', 'description', 'comments'],
});
