/** Provider networks (NetBox 3.4 ProviderNetwork): a provider's cloud a circuit can end in. */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';

export const providerNetwork = defineModel({
  name: 'circuits.providernetwork',
  path: 'provider-networks',
  verboseName: 'provider network',
  fields: {
    provider: fk('circuits.provider', {
      required: true,
      nullable: false,
      onDelete: 'protect',
      relatedName: 'networks',
    }),
    name: name(100),
    service_id: { kind: 'string', maxLength: 100, label: 'service ID' },
    description: description(),
    comments: comments(),
  },
  uniqueTogether: [{ fields: ['provider', 'name'] }],
  ui: {
    columns: ['name', 'provider', 'service_id', 'description'],
    groups: [{ title: '', fields: ['provider', 'name', 'service_id', 'description'] }],
    related: [
      { model: 'circuits.circuit', param: 'provider_network_id' },
      { model: 'circuits.circuittermination', param: 'provider_network_id' },
    ],
  },
  brief: ['name'],
  ordering: ['provider', 'name'],
  search: ['name', 'service_id', 'description', 'comments'],
});
