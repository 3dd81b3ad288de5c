/**
 * Services (NetBox 3.4): an application listening on a device or a virtual machine (exactly one,
 * Service.clean()), on a protocol and a list of ports, optionally on some of the parent's
 * addresses. Addresses must be assigned to the parent's interfaces (or be the NAT outside address
 * of one): the lead's rule, stricter than NetBox 3.4's API, which only limits its form choices.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { defineModel } from '../../core/model/define-model.js';
import { addressesOnOwner } from '../dcim/device-primary-ip.js';
import { comments, description, fk, name } from '../fields.js';
import { type AssignedTarget, DEVICE_INTERFACES, VM_INTERFACES } from './relation-filters.js';
import { portFilter, portsField, ServiceProtocol, serviceDisplay } from './service-common.js';
import { throughFilter } from '../../core/query/filter-blocks.js';
import type { Row } from '../../core/model/types.js';
import { fhrpGroupFilters, parentFields, syncParent } from './service-parent.js';

const THROUGH = { table: 'ipam_service_ipaddresses', own: 'service_id', other: 'ipaddress_id' };

/** the addresses among `ids` that are not on the parent's interfaces (nor NAT outside of one) */
async function foreignAddresses(
  rc: RequestContext,
  ids: number[],
  target: AssignedTarget,
  parentId: unknown,
): Promise<string[]> {
  return (await addressesOnOwner(rc, ids, target, parentId)).filter((ip) => !ip.on_owner).map((ip) => ip.address);
}

export const service = defineModel({
  name: 'ipam.service',
  path: 'services',
  verboseName: 'service',
  fields: {
    // NetBox 4.3: a parent instead of a device or VM (service-parent.ts), first in 4.4's order
    ...parentFields(),
    device: fk('dcim.device', { onDelete: 'cascade' }),
    virtual_machine: fk('virtualization.virtualmachine', { onDelete: 'cascade' }),
    name: name(100),
    ports: portsField(),
    protocol: { kind: 'choice', choices: ServiceProtocol, required: true },
    ipaddresses: {
      kind: 'm2m',
      to: 'ipam.ipaddress',
      label: 'IP addresses',
      through: { table: THROUGH.table, from: THROUGH.own, to: THROUGH.other },
    },
    description: description(),
    comments: comments(),
  },
  filters: {
    port: portFilter,
    ipaddress_id: throughFilter('ipaddress_id', THROUGH, { table: 'ipam_ipaddress', key: 'id' }),
    ipaddress: throughFilter('ipaddress', THROUGH, { table: 'ipam_ipaddress', key: 'address' }),
    ...fhrpGroupFilters(),
  },
  hooks: {
    async validate({ rc, data, before, sent }): Promise<Record<string, string[]> | undefined> {
      syncParent(data, before, sent);
      // NetBox 3.4 Service.clean(): non-field errors
      if (data.device_id != null && data.virtual_machine_id != null) {
        return { __all__: ['A service cannot be associated with both a device and a virtual machine.'] };
      }
      if (data.parent_object_type == null || data.parent_object_id == null) {
        return { __all__: ['A service must be associated with either a device or a virtual machine.'] };
      }
      // the addresses of an FHRP group's service are not checked (NetBox limits only its form's choices)
      if (data.parent_object_type === 'ipam.fhrpgroup') return;
      // addresses as written, else (a PATCH moving the service) the stored ones
      let ids = data.ipaddresses as number[] | undefined;
      if (ids === undefined && before) {
        const res =
          await sql<Row>`select ipaddress_id from ipam_service_ipaddresses where service_id = ${before.id}`.execute(
            rc.q,
          );
        ids = res.rows.map((r) => Number(r.ipaddress_id));
      }
      if (!ids?.length) return;
      const onDevice = data.device_id != null;
      const target = onDevice ? DEVICE_INTERFACES : VM_INTERFACES;
      const foreign = await foreignAddresses(
        rc,
        ids.map(Number),
        target,
        onDevice ? data.device_id : data.virtual_machine_id,
      );
      const noun = onDevice ? 'device' : 'virtual machine';
      if (foreign.length)
        return { ipaddresses: foreign.map((a) => `IP address ${a} is not assigned to an interface of this ${noun}.`) };
    },
    // the parent and 3.4's device / virtual_machine in step (service-parent.ts)
    prepare: ({ data, before, sent }) => syncParent(data, before, sent),
  },
  display: serviceDisplay,
  netbox44: { brief: ['name', 'protocol', 'ports', 'description'], hidden: ['device', 'virtual_machine'] },
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { ipaddresses: 'address' },
    // NetBox 4.4 shows the parent (device, VM or FHRP group) by default
    columns: ['name', 'device', 'virtual_machine', 'parent', 'protocol', 'ports', 'description'],
    clone: ['protocol', 'ports', 'description', 'device', 'virtual_machine', 'ipaddresses'],
    groups: [
      {
        title: 'Application Service',
        fields: [
          'device',
          'virtual_machine',
          'parent_object_type',
          'parent_object_id',
          'parent',
          'name',
          'protocol',
          'ports',
          'ipaddresses',
          'description',
        ],
      },
    ],
    pickerFilters: { ipaddresses: { device_id: 'device', virtual_machine_id: 'virtual_machine' } },
  },
  brief: ['name', 'protocol', 'ports'],
  // NetBox 3.4: protocol, ports, pk
  ordering: ['protocol', 'ports', 'id'],
  search: ['name', 'description', 'comments'],
});
