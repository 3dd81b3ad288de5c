/**
 * Tunnels (NetBox 3.7 vpn.Tunnel): a GRE, IP-in-IP or IPsec tunnel, optionally grouped, protected
 * by an IPSec profile and owned by a tenant. Its ends are tunnel terminations.
 */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name, tenantField } from '../fields.js';
import { TunnelEncapsulation, TunnelStatus } from './choices.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';

export const tunnel = defineModel({
  name: 'vpn.tunnel',
  path: 'tunnels',
  verboseName: 'tunnel',
  fields: {
    name: name(100, { unique: true }),
    status: { kind: 'choice', choices: TunnelStatus, default: 'active' },
    group: fk('vpn.tunnelgroup', { onDelete: 'protect' }),
    encapsulation: { kind: 'choice', choices: TunnelEncapsulation, required: true },
    ipsec_profile: fk('vpn.ipsecprofile', { onDelete: 'protect', label: 'IPSec profile' }),
    tenant: tenantField(),
    tunnel_id: { kind: 'integer', nullable: true, min: 0, label: 'tunnel ID' },
    description: description(),
    comments: comments(),
  },
  filters: tenancyFilters(),
  ui: {
    columns: ['name', 'group', 'status', 'encapsulation', 'tenant'],
    clone: ['status', 'encapsulation', 'ipsec_profile', 'tenant'],
    groups: [
      { title: 'Tunnel', fields: ['name', 'status', 'group', 'encapsulation', 'description', 'tunnel_id'] },
      { title: 'Security', fields: ['ipsec_profile'] },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
  },
  brief: ['name'],
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
