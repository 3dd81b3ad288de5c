/** Tunnel groups (NetBox 3.7 vpn.TunnelGroup): an administrative grouping of tunnels (a mesh). */
import { defineModel } from '../../core/model/define-model.js';
import { description, name, slug } from '../fields.js';

export const tunnelGroup = defineModel({
  name: 'vpn.tunnelgroup',
  path: 'tunnel-groups',
  verboseName: 'tunnel group',
  fields: {
    name: name(100, { unique: true }),
    slug: slug(100, { unique: true }),
    description: description(),
  },
  counts: { tunnel_count: { model: 'vpn.tunnel', via: 'group' } },
  ui: {
    columns: ['name', 'tunnel_count', 'description'],
    groups: [{ title: 'Tunnel Group', fields: ['name', 'slug', 'description'] }],
    related: [{ model: 'vpn.tunnel', param: 'group_id' }],
  },
  // NetBox 3.7 NestedTunnelGroupSerializer
  brief: ['name', 'slug', 'tunnel_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'slug', 'description', 'tunnel_count'] },
  ordering: ['name'],
  search: ['name', 'slug', 'description'],
});
