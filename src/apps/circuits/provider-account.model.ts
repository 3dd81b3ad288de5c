/** Provider accounts (NetBox 3.5+ ProviderAccount): an account number held with a provider, named on circuits. */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk } from '../fields.js';

export const providerAccount = defineModel({
  name: 'circuits.provideraccount',
  path: 'provider-accounts',
  verboseName: 'provider account',
  fields: {
    provider: fk('circuits.provider', {
      required: true,
      nullable: false,
      onDelete: 'protect',
      relatedName: 'accounts',
    }),
    name: { kind: 'string', maxLength: 100 },
    account: { kind: 'string', required: true, maxLength: 100, label: 'account ID' },
    description: description(),
    comments: comments(),
  },
  uniqueTogether: [
    { fields: ['provider', 'account'], message: 'Provider account with this Provider and Account ID already exists.' },
    // NetBox 3.7: a name, when given, is unique per provider too
    { fields: ['provider', 'name'], message: 'Provider account with this Provider and Name already exists.' },
  ],
  // NetBox: "account (name)", or the account alone
  display: (row) => (row.name ? `${String(row.account)} (${String(row.name)})` : String(row.account)),
  ui: {
    columns: ['account', 'name', 'provider'],
    clone: ['provider'],
    groups: [{ title: '', fields: ['provider', 'name', 'account', 'description'] }],
    related: [{ model: 'circuits.circuit', param: 'provider_account_id' }],
  },
  brief: ['name', 'account'],
  ordering: ['provider', 'account'],
  search: ['account', 'name', 'description', 'comments'],
});
