/**
 * Virtual circuits (NetBox 4.2, fields as in 4.4): a connection across a provider network between
 * two or more interfaces (its terminations, virtual-circuit-termination.model.ts). `cid` is unique
 * per network and per account. Served in the 4.4 dialect only.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { CustomFilter, Row } from '../../core/model/types.js';
import type { Cond } from '../../core/query/lookups.js';
import { tenancyFilters, viaPair } from '../../core/query/filter-blocks.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';
import { comments, description, fk, tenantField } from '../fields.js';
import { CircuitStatus } from './choices.js';

/** NetBox 4.2 `provider_account`: accounts named by their account number, matched as `match` says */
export const accountFilter = (match: (ids: Cond, alias: string) => Cond): CustomFilter =>
  idSetFilter({
    param: 'provider_account',
    target: 'circuits.provideraccount',
    key: 'account',
    match: (ids, { alias }) => match(ids, alias),
  });

export const virtualCircuit = defineModel({
  name: 'circuits.virtualcircuit',
  path: 'virtual-circuits',
  verboseName: 'virtual circuit',
  dialect: '4.4',
  fields: {
    cid: { kind: 'string', required: true, maxLength: 100, label: 'circuit ID', help: 'Unique circuit ID' },
    provider_network: fk('circuits.providernetwork', { required: true, nullable: false, onDelete: 'protect' }),
    provider_account: fk('circuits.provideraccount', { onDelete: 'protect' }),
    type: fk('circuits.virtualcircuittype', { required: true, nullable: false, onDelete: 'protect' }),
    status: { kind: 'choice', choices: CircuitStatus, default: 'active' },
    tenant: tenantField(),
    description: description(),
    comments: comments(),
  },
  uniqueTogether: [{ fields: ['provider_network', 'cid'] }, { fields: ['provider_account', 'cid'] }],
  filters: {
    ...viaPair('provider', ['provider_network', 'provider']),
    provider_account: accountFilter((ids, alias) => sql`${sql.ref(`${alias}.provider_account_id`)} in ${ids}`),
    ...tenancyFilters(),
  },
  hooks: {
    async validate({ rc, data }) {
      // NetBox 4.2 VirtualCircuit.clean()
      if (data.provider_account_id == null) return;
      const res = await sql<Row>`select
          (select provider_id from circuits_provideraccount where id = ${Number(data.provider_account_id)}) as account,
          (select provider_id from circuits_providernetwork where id = ${Number(data.provider_network_id)}) as network`.execute(
        rc.q,
      );
      const { account, network } = res.rows[0] ?? {};
      if (account != null && network != null && Number(account) !== Number(network))
        return { provider_account: ['The assigned account must belong to the provider of the assigned network.'] };
    },
  },
  display: (row) => String(row.cid),
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { provider_account: 'account' },
    columns: ['cid', 'provider_network', 'type', 'status', 'tenant', 'description'],
    clone: ['provider_network', 'provider_account', 'status', 'tenant', 'description'],
    groups: [
      {
        title: 'Virtual Circuit',
        fields: ['provider_network', 'provider_account', 'cid', 'type', 'status', 'description'],
      },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    related: [{ model: 'circuits.virtualcircuittermination', param: 'virtual_circuit_id', label: 'Terminations' }],
  },
  brief: ['provider_network', 'cid', 'description'],
  ordering: ['provider_network', 'provider_account', 'cid'],
  search: ['cid', 'description', 'comments'],
});
