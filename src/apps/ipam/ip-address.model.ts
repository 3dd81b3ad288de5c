/**
 * IP addresses (reference 3.3; spec: IP address table): an address with its mask, optionally
 * assigned to a device or VM interface (generic relation) and NAT-linked to another address.
 * `nat_outside` is the one address whose `nat_inside` points here, or null (spec); in the 4.4 dialect
 * the list of every such address, as NetBox shows it.
 */
import { type RawBuilder, sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { type Ids, idIn } from '../../core/represent/load-related.js';
import { render } from '../../core/represent/render.js';
import { comments, description, fk, tenantField } from '../fields.js';
import { IP_ASSIGNMENT_TYPES, IPAddressRole, IPAddressStatus, NON_UNIQUE_ROLES } from './choices.js';
import { familyField, familyOf, sameVrfId, setFamily, uniquenessScope } from './common.js';
import { addressFilter, familyFilter, hostWithinFilter, maskLengthFilter, networkSearch } from './network-filters.js';
import {
  assignedFilter,
  assignedToInterfaceFilter,
  DEVICE_INTERFACES,
  interfaceFilter,
  parentFilter,
  presentInVrfFilter,
  VM_INTERFACES,
} from './relation-filters.js';
import { tenancyFilters } from '../../core/query/filter-blocks.js';
import type { Row } from '../../core/model/types.js';

/** the address part of a stored (normalised) address with its mask */
const hostPart = (address: unknown) => String(address).split('/')[0];

/** the addresses whose NAT inside is one of `ids` (a page's, as a sub-select or a list) */
function natOutsideSql(ids: Ids): RawBuilder<unknown> {
  return sql`select * from ipam_ipaddress where ${idIn(sql.ref('nat_inside_id'), ids)}`;
}

// NetBox 3.4 DNSValidator: labels of letters, digits, '-' and '_', or a leading wildcard
const DNS_NAME = /^([0-9A-Za-z_-]+|\*)(\.[0-9A-Za-z_-]+)*\.?$/;

export const ipAddress = defineModel({
  name: 'ipam.ipaddress',
  path: 'ip-addresses',
  verboseName: 'IP address',
  verboseNamePlural: 'IP addresses',
  fields: {
    family: familyField(),
    address: { kind: 'ipaddress', required: true },
    vrf: fk('ipam.vrf', { onDelete: 'protect', label: 'VRF' }),
    tenant: tenantField(),
    status: { kind: 'choice', choices: IPAddressStatus, default: 'active' },
    role: { kind: 'choice', choices: IPAddressRole, blank: true },
    assigned_object_type: { kind: 'contenttype', nullable: true, types: IP_ASSIGNMENT_TYPES },
    assigned_object_id: { kind: 'integer', nullable: true, min: 0 },
    assigned_object: { kind: 'generic', generic: { type: 'assigned_object_type', id: 'assigned_object_id' } },
    nat_inside: fk('ipam.ipaddress', { onDelete: 'set_null', label: 'NAT (inside)' }),
    nat_outside: {
      kind: 'computed',
      shape: { $model: 'ipam.ipaddress', nullable: true },
      // NetBox's own shape: every address whose NAT inside this is
      shapeInDialect: { '4.4': { type: 'array', items: { $model: 'ipam.ipaddress' } } },
    },
    dns_name: {
      kind: 'string',
      maxLength: 255,
      label: 'DNS name',
      pattern: {
        regex: DNS_NAME,
        message: 'Only alphanumeric characters, asterisks, hyphens, periods, and underscores are allowed in DNS names',
      },
    },
    description: description(),
    comments: comments(),
  },
  display: (row) => String(row.address),
  filters: {
    ...tenancyFilters(),
    family: familyFilter('address'),
    parent: hostWithinFilter('ipam_ipaddress', 'address'),
    address: addressFilter('address'),
    mask_length: maskLengthFilter('address'),
    present_in_vrf_id: presentInVrfFilter(true),
    present_in_vrf: presentInVrfFilter(false),
    assigned_to_interface: assignedToInterfaceFilter,
    assigned: assignedFilter,
    device_id: parentFilter(DEVICE_INTERFACES, 'device_id', true),
    device: parentFilter(DEVICE_INTERFACES, 'device', false),
    virtual_machine_id: parentFilter(VM_INTERFACES, 'virtual_machine_id', true),
    virtual_machine: parentFilter(VM_INTERFACES, 'virtual_machine', false),
    interface_id: interfaceFilter(DEVICE_INTERFACES, 'interface_id', true),
    interface: interfaceFilter(DEVICE_INTERFACES, 'interface', false),
    vminterface_id: interfaceFilter(VM_INTERFACES, 'vminterface_id', true),
    vminterface: interfaceFilter(VM_INTERFACES, 'vminterface', false),
    // NetBox 3.4: dns_name and description contain, the address starts with
    q: networkSearch('address', ['dns_name', 'description'], { startsWith: true }),
  },
  hooks: {
    async validate({ rc, data, earlier }) {
      const errors: Record<string, string[]> = {};
      if (data.status === 'slaac' && familyOf(data.address) !== 6)
        errors.status = ['Only IPv6 addresses can be assigned SLAAC status'];
      const scope = await uniquenessScope(rc, data.vrf_id);
      if (scope) {
        // twins of the same host (any mask) are tolerated only when all of them share a non-unique role
        const stored = await sql<{ address: string; role: string }>`select address, role from ipam_ipaddress
          where host(address)::inet = host(${data.address}::inet)::inet and vrf_id is not distinct from ${data.vrf_id ?? null}::bigint
            and id is distinct from ${data.id ?? null}::bigint order by id`.execute(rc.q);
        // and the addresses written before this one in the same request
        const written = earlier.filter(
          (e) => sameVrfId(e.vrf_id, data.vrf_id) && hostPart(e.address) === hostPart(data.address),
        );
        const dups = [...stored.rows, ...written.map((e) => ({ address: String(e.address), role: String(e.role) }))];
        const shared = NON_UNIQUE_ROLES.has(String(data.role)) && dups.every((d) => NON_UNIQUE_ROLES.has(d.role));
        if (dups.length && !shared) errors.address = [`Duplicate IP address found in ${scope}: ${dups[0]!.address}`];
      }
      return errors;
    },
    prepare({ data }) {
      // NetBox 3.4 stores DNS names lower-cased
      if (typeof data.dns_name === 'string') data.dns_name = data.dns_name.toLowerCase();
    },
    async represent(rc, rows, out, { mode, created, readRows }) {
      setFamily(rows, out, 'address', mode, rc.dialect);
      if (mode !== 'full') return;
      const ids = rows.map((r) => Number(r.id));
      // addresses this request just created can only be pointed at by others it created with them
      // (nobody else knew their ids): those are in hand, and a create reads nothing more
      const outside = created
        ? rows
            .filter((r) => r.nat_inside_id != null && ids.includes(Number(r.nat_inside_id)))
            .sort((a, b) => Number(a.id) - Number(b.id))
        : [...(await readRows('nat_outside'))].sort((a, b) => Number(a.id) - Number(b.id));
      const model = rc.app.registry.get('ipam.ipaddress');
      if (rc.dialect === '4.4') {
        // NetBox 4.4 (as NetBox always did): the list of every address whose NAT inside this is
        const all = await render(rc, model, outside, 'nested');
        out.forEach((o, i) => {
          const id = Number(rows[i]!.id);
          o.nat_outside = all.filter((_n, j) => Number(outside[j]!.nat_inside_id) === id);
        });
        return;
      }
      const byInside = new Map<number, Row>();
      for (const r of outside) if (!byInside.has(Number(r.nat_inside_id))) byInside.set(Number(r.nat_inside_id), r);
      const nested = await render(rc, model, [...byInside.values()], 'nested');
      const nestedById = new Map(nested.map((n) => [Number(n.id), n]));
      out.forEach((o, i) => {
        const twin = byInside.get(Number(rows[i]!.id));
        o.nat_outside = twin ? (nestedById.get(Number(twin.id)) ?? null) : null;
      });
    },
  },
  // the addresses whose NAT inside a page's addresses are, read with the page
  representRows: { nat_outside: { model: 'ipam.ipaddress', select: natOutsideSql } },
  // the hook reads `address` (for family), which both forms show
  representReads: [],
  ui: {
    columns: ['address', 'vrf', 'status', 'role', 'tenant', 'dns_name', 'description'],
    clone: ['vrf', 'tenant', 'status', 'role', 'dns_name', 'description'],
    groups: [
      { title: 'IP Address', fields: ['address', 'status', 'role', 'vrf', 'dns_name', 'description'] },
      { title: 'Tenancy', fields: ['tenant'] },
      { title: 'Assignment', fields: ['assigned_object_type', 'assigned_object_id', 'assigned_object'] },
      { title: 'NAT IP (Inside)', fields: ['nat_inside'] },
    ],
  },
  brief: ['family', 'address'],
  ordering: ['address'],
  search: ['address', 'dns_name', 'description'],
});
