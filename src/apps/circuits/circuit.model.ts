/**
 * Circuits (reference 3.4). `cid` is unique per provider. `termination_a` and `termination_z` are
 * read-only, built from the circuit's terminations with one query per page (plus one batched load
 * per nested parent), not stored on the circuit as NetBox does.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { defineModel } from '../../core/model/define-model.js';
import { relatedFilter } from '../../core/query/related-filter.js';
import { comments, description, fk } from '../fields.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { CircuitStatus } from './choices.js';
import { DistanceUnit } from './netbox4-choices.js';
import { renderTerminationsOf, TERMINATION_SHAPE } from './circuit-terminations-nested.js';
import { terminationFilters } from './termination-filters.js';
import type { Row } from '../../core/model/types.js';

export const circuit = defineModel({
  name: 'circuits.circuit',
  path: 'circuits',
  verboseName: 'circuit',
  fields: {
    cid: { kind: 'string', required: true, maxLength: 100, label: 'circuit ID' },
    provider: fk('circuits.provider', { required: true, nullable: false, onDelete: 'protect' }),
    // NetBox 3.5+
    provider_account: fk('circuits.provideraccount', { onDelete: 'protect' }),
    type: fk('circuits.circuittype', { required: true, nullable: false, onDelete: 'protect' }),
    status: { kind: 'choice', choices: CircuitStatus, default: 'active' },
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    install_date: { kind: 'date', nullable: true, label: 'installed' },
    termination_date: { kind: 'date', nullable: true, label: 'terminates' },
    commit_rate: { kind: 'integer', nullable: true, min: 0, label: 'commit rate (Kbps)' },
    // NetBox 4.2: the circuit's length, with its unit; shown in the 4.4 dialect only
    distance: { kind: 'decimal', nullable: true, min: 0, max: 999999.99, decimalPlaces: 2, dialect: '4.4' },
    distance_unit: { kind: 'choice', choices: DistanceUnit, blank: true, dialect: '4.4' },
    description: description(),
    termination_a: { kind: 'computed', readOnly: true, shape: TERMINATION_SHAPE },
    termination_z: { kind: 'computed', readOnly: true, shape: TERMINATION_SHAPE },
    comments: comments(),
  },
  uniqueTogether: [
    { fields: ['provider', 'cid'], message: 'Circuit with this Provider and Circuit ID already exists.' },
    {
      fields: ['provider_account', 'cid'],
      message: 'Circuit with this Provider account and Circuit ID already exists.',
    },
  ],
  filters: {
    ...terminationFilters(['site', 'region', 'site_group', 'provider_network'], 'circuit'),
    tenant_group: relatedFilter(['tenant', 'group']),
    tenant_group_id: relatedFilter(['tenant', 'group'], { byId: true }),
    ...contactFilters(),
  },
  display: (row) => String(row.cid),
  hooks: {
    async validate({ rc, data, before }): Promise<Record<string, string[]> | undefined> {
      // NetBox 4.2: a distance needs its unit
      if (data.distance != null && Number(data.distance) !== 0 && !data.distance_unit)
        return { distance_unit: ['A distance needs a unit.'] };
      // NetBox 3.7 Circuit.clean()
      const { provider_id: provider, provider_account_id: account } = { ...before, ...data };
      if (account == null) return;
      const res =
        await sql<Row>`select provider_id from circuits_provideraccount where id = ${Number(account)}`.execute(rc.q);
      const owner = res.rows[0]?.provider_id;
      if (owner != null && Number(owner) !== Number(provider))
        return { provider_account: ['The assigned account must belong to the assigned provider.'] };
    },
    prepare({ data }) {
      // NetBox 4.2: no distance, no unit
      if (data.distance == null) data.distance_unit = '';
    },
    async represent(rc: RequestContext, rows: Row[], out: Row[], { mode }) {
      if (mode !== 'full') return;
      const bySide = await renderTerminationsOf(rc, rows);
      rows.forEach((r, i) => {
        out[i]!.termination_a = bySide.get(`${r.id}:A`) ?? null;
        out[i]!.termination_z = bySide.get(`${r.id}:Z`) ?? null;
      });
    },
  },
  ui: {
    columns: ['cid', 'provider', 'type', 'status', 'tenant', 'termination_a', 'termination_z', 'description'],
    clone: [
      'provider',
      'provider_account',
      'type',
      'status',
      'tenant',
      'install_date',
      'termination_date',
      'commit_rate',
      'description',
    ],
    groups: [
      { title: 'Circuit', fields: ['provider', 'provider_account', 'cid', 'type', 'status', 'description'] },
      { title: 'Service Parameters', fields: ['install_date', 'termination_date', 'commit_rate'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    pickerFilters: { provider_account: { provider_id: 'provider' } },
  },
  brief: ['cid'],
  // NetBox 4.1: a circuit's brief form names its provider (#17318)
  netbox44: { brief: ['cid', 'provider', 'description'] },
  ordering: ['provider', 'cid'],
  search: ['cid', 'description', 'comments'],
});
