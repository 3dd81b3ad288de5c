/**
 * Virtual device contexts (NetBox 3.4 VirtualDeviceContext): a device partitioned into logical
 * devices (Nexus VDCs, Junos logical systems), each with its own interfaces (interface `vdcs`) and
 * primary addresses on its device's interfaces. `status` is rendered {value, label} as NetBox 3.7
 * does (3.4 gave the bare value; clients read both).
 */
import { defineModel } from '../../core/model/define-model.js';
import { defineChoices } from '../../core/model/choices.js';
import { comments, description, fk } from '../fields.js';
import { addressesOnOwner, renderPrimaryIp } from './device-primary-ip.js';
import { DEVICE_INTERFACES } from '../ipam/relation-filters.js';
import { sql } from 'kysely';
import { booleanFilter, tenancyFilters } from '../../core/query/filter-blocks.js';

const VirtualDeviceContextStatus = defineChoices([
  ['active', 'Active'],
  ['planned', 'Planned'],
  ['offline', 'Offline'],
]);

export const virtualDeviceContext = defineModel({
  name: 'dcim.virtualdevicecontext',
  path: 'virtual-device-contexts',
  verboseName: 'virtual device context',
  fields: {
    name: { kind: 'string', required: true, maxLength: 64 },
    device: fk('dcim.device', { required: true, nullable: false, onDelete: 'cascade', relatedName: 'vdcs' }),
    identifier: {
      kind: 'integer',
      nullable: true,
      min: 0,
      max: 32767,
      help: 'Numeric identifier unique to the parent device',
    },
    tenant: fk('tenancy.tenant', { onDelete: 'protect', relatedName: 'vdcs' }),
    primary_ip: { kind: 'computed', readOnly: true, shape: { $model: 'ipam.ipaddress', nullable: true } },
    primary_ip4: fk('ipam.ipaddress', { onDelete: 'set_null', label: 'primary IPv4' }),
    primary_ip6: fk('ipam.ipaddress', { onDelete: 'set_null', label: 'primary IPv6' }),
    status: { kind: 'choice', choices: VirtualDeviceContextStatus, required: true },
    description: description(),
    comments: comments(),
  },
  counts: {
    interface_count: {
      model: 'dcim.interface',
      through: { table: 'dcim_interface_vdcs', column: 'virtualdevicecontext_id' },
    },
  },
  uniqueTogether: [
    {
      fields: ['device', 'identifier'],
      message: 'Virtual device context with this Device and Identifier already exists.',
    },
    { fields: ['device', 'name'], message: 'Virtual device context with this Device and Name already exists.' },
  ],
  filters: {
    ...tenancyFilters(),
    has_primary_ip: booleanFilter(
      (t) => sql`(${sql.ref(`${t}.primary_ip4_id`)} is not null or ${sql.ref(`${t}.primary_ip6_id`)} is not null)`,
    ),
  },
  hooks: {
    async validate({ rc, data }) {
      // NetBox 3.7 VirtualDeviceContext.clean(): primaries of the right family, on the device's own interfaces
      const errors: Record<string, string[]> = {};
      for (const family of [4, 6] as const) {
        const id = data[`primary_ip${family}_id`];
        if (id == null) continue;
        const [ip] = await addressesOnOwner(rc, [Number(id)], DEVICE_INTERFACES, data.device_id);
        if (!ip) continue;
        if (Number(ip.family) !== family)
          errors[`primary_ip${family}`] = [`${ip.address} is not an IPv${family} address.`];
        else if (!ip.on_owner)
          errors[`primary_ip${family}`] = ['Primary IP address must belong to an interface on the assigned device.'];
      }
      return errors;
    },
    represent(_rc, _rows, out) {
      for (const o of out) renderPrimaryIp(o);
    },
  },
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { primary_ip4: 'address', primary_ip6: 'address' },
    columns: ['name', 'identifier', 'status', 'tenant', 'primary_ip'],
    groups: [
      {
        title: 'Virtual Device Context',
        fields: ['device', 'name', 'status', 'identifier', 'primary_ip4', 'primary_ip6'],
      },
      { title: 'Tenancy', fields: ['tenant'] },
    ],
    pickerFilters: { primary_ip4: { device_id: 'device' }, primary_ip6: { device_id: 'device' } },
    related: [{ model: 'dcim.interface', param: 'vdc_id' }],
  },
  brief: ['name', 'identifier', 'device'],
  // NetBox 4.0: in the full form's order, description last
  netbox44: { brief: ['name', 'device', 'identifier', 'description'] },
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
