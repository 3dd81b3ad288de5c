/** Wireless LANs (NetBox 3.4 WirelessLAN): an SSID, its security and VLAN, joined by interfaces (`wireless_lans`). */
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk } from '../fields.js';
import { authFields } from './auth-fields.js';
import { WirelessLANStatus } from './choices.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';
import { scopeFields, scopeFilters } from '../dcim/scope.js';

export const wirelessLan = defineModel({
  name: 'wireless.wirelesslan',
  path: 'wireless-lans',
  verboseName: 'wireless LAN',
  fields: {
    ssid: { kind: 'string', required: true, maxLength: 32, label: 'SSID' },
    description: description(),
    group: fk('wireless.wirelesslangroup', { onDelete: 'set_null', treeFilter: true }),
    status: { kind: 'choice', choices: WirelessLANStatus, default: 'active' },
    vlan: fk('ipam.vlan', { onDelete: 'protect', label: 'VLAN', relatedName: 'wirelesslan_set' }),
    // NetBox 4.2 (dcim/scope.ts); 3.4 shows no place for a wireless LAN
    ...scopeFields(),
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    ...authFields(),
    comments: comments(),
  },
  filters: { ...tenancyFilters(), ...scopeFilters() },
  display: (row) => String(row.ssid),
  ui: {
    columns: ['ssid', 'group', 'status', 'description', 'vlan', 'auth_type'],
    clone: ['ssid', 'group', 'tenant', 'description'],
    groups: [
      { title: 'Wireless LAN', fields: ['ssid', 'group', 'vlan', 'status', 'description'] },
      { title: 'Scope', fields: ['scope_type', 'scope_id', 'scope'] },
      { title: 'Tenancy', fields: ['tenant'] },
      { title: 'Authentication', fields: ['auth_type', 'auth_cipher', 'auth_psk'] },
    ],
  },
  brief: ['ssid'],
  ordering: ['ssid', 'id'],
  search: ['ssid', 'description'],
});
