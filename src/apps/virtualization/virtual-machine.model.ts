/**
 * Virtual machines (reference 3.5): in a site and/or a cluster (taking the cluster's site),
 * optionally pinned to a host device of that cluster, with a VM role, primary addresses on its own
 * interfaces and local config context data. Rules in vm-rules.ts. config_context: the rendered config contexts.
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import type { ModelHooks } from '../../core/model/types.js';
import { renderPrimaryIp } from '../dcim/device-primary-ip.js';
import { renderConfigContexts, VM_SUBJECT } from '../extras/config-context-render.js';
import { comments, description, fk, localContextData } from '../fields.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { VirtualMachineStatus } from './choices.js';
import { diskTotal, siteFromCluster, validateVirtualMachine } from './vm-rules.js';
import { booleanFilter, interfaceMacFilter, siteScope, viaPair } from '../../core/query/filter-blocks.js';

const MAX_INT = 2_147_483_647;

/**
 * NetBox: primary_ip is the IPv6 primary when set, else the IPv4 one (PREFER_IPV4 off); the full
 * form renders config_context (extras/config-context-render.ts)
 */
const representVirtualMachines: NonNullable<ModelHooks['represent']> = async (rc, rows, out) => {
  for (const o of out) renderPrimaryIp(o);
  await renderConfigContexts(rc, VM_SUBJECT, rows, out);
};

export const virtualMachine = defineModel({
  name: 'virtualization.virtualmachine',
  path: 'virtual-machines',
  verboseName: 'virtual machine',
  fields: {
    name: { kind: 'string', required: true, maxLength: 64, natural: true },
    status: { kind: 'choice', choices: VirtualMachineStatus, default: 'active' },
    // NetBox 3.4: site, cluster, device, role and tenant PROTECT; platform SET_NULL
    site: fk('dcim.site', { onDelete: 'protect' }),
    cluster: fk('virtualization.cluster', { onDelete: 'protect' }),
    device: fk('dcim.device', { onDelete: 'protect' }),
    // NetBox 4.3: role and platform filters take descendants too (trees since then)
    role: fk('dcim.devicerole', { onDelete: 'protect', treeFilter: '4.4' }),
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    platform: fk('dcim.platform', { onDelete: 'set_null', treeFilter: '4.4' }),
    primary_ip: { kind: 'computed', readOnly: true, shape: { $model: 'ipam.ipaddress', nullable: true } },
    primary_ip4: fk('ipam.ipaddress', { onDelete: 'set_null', label: 'primary IPv4' }),
    primary_ip6: fk('ipam.ipaddress', { onDelete: 'set_null', label: 'primary IPv6' }),
    vcpus: { kind: 'decimal', nullable: true, min: 0.01, max: 9999.99, decimalPlaces: 2, label: 'vCPUs' },
    memory: { kind: 'integer', nullable: true, min: 0, max: MAX_INT, label: 'memory (MB)' },
    // stored in MB (NetBox 4.1, #14692); NetBox 3.4's API shows and takes GB
    disk: {
      kind: 'integer',
      nullable: true,
      min: 0,
      max: MAX_INT,
      label: 'disk',
      help: 'GB in the NetBox 3.4 API, MB in the 4.4 API',
      scaleIn: { '3.4': 1000 },
    },
    // NetBox 4.1, shown in the 4.4 dialect only
    serial: { kind: 'string', maxLength: 50, label: 'serial number', dialect: '4.4' },
    description: description(),
    comments: comments(),
    // NetBox 3.5+ (render-config: extras/render-config.routes.ts)
    config_template: fk('extras.configtemplate', { onDelete: 'protect', relatedName: 'virtualmachines' }),
    local_context_data: localContextData(),
    // config contexts merged with local_context_data; full form only, `?exclude=config_context` drops it
    config_context: {
      kind: 'computed',
      readOnly: true,
      excludable: true,
      shape: { type: 'object', additionalProperties: true },
    },
  },
  uniqueTogether: [
    // NetBox 3.4: an expression constraint without a message of its own (Django 4.1 names it)
    {
      fields: ['cluster', 'tenant', 'name'],
      ci: true,
      message: 'Constraint “virtualization_virtualmachine_unique_name_cluster_tenant” is violated.',
    },
    {
      fields: ['cluster', 'name'],
      ci: true,
      whenNull: ['tenant'],
      message: 'Virtual machine name must be unique per cluster.',
    },
  ],
  filters: {
    ...viaPair('cluster_group', ['cluster', 'group']),
    ...viaPair('cluster_type', ['cluster', 'type']),
    ...siteScope(['site']),
    ...viaPair('tenant_group', ['tenant', 'group']),
    ...contactFilters(),
    mac_address: interfaceMacFilter('virtualization_vminterface', 'virtual_machine_id'),
    has_primary_ip: booleanFilter(
      (t) => sql`(${sql.ref(`${t}.primary_ip4_id`)} is not null or ${sql.ref(`${t}.primary_ip6_id`)} is not null)`,
    ),
    local_context_data: booleanFilter((t) => sql`${sql.ref(`${t}.local_context_data`)} is not null`),
  },
  hooks: {
    validate: ({ rc, data, before }) => validateVirtualMachine(rc, data, before),
    async prepare({ rc, data, before }) {
      // NetBox 3.7: a machine with virtual disks and no disk size given takes their total
      if (before && 'disk' in data && data.disk == null) data.disk = await diskTotal(rc, before.id);
      await siteFromCluster(rc, data, before);
    },
    represent: representVirtualMachines,
  },
  ui: {
    columns: ['name', 'status', 'site', 'cluster', 'role', 'tenant', 'vcpus', 'memory', 'disk', 'primary_ip'],
    clone: ['site', 'cluster', 'device', 'tenant', 'platform', 'status', 'role', 'vcpus', 'memory', 'disk'],
    components: ['virtualization.vminterface'],
    tabs: [
      {
        slug: 'interfaces',
        model: 'virtualization.vminterface',
        param: 'virtual_machine_id',
        columns: [
          'name',
          'enabled',
          'parent',
          'mtu',
          'mode',
          'untagged_vlan',
          'tagged_vlans',
          'mac_address',
          'description',
        ],
      },
      {
        slug: 'disks',
        model: 'virtualization.virtualdisk',
        param: 'virtual_machine_id',
        label: 'Virtual disks',
        columns: ['name', 'size', 'description'],
      },
    ],
    groups: [
      { title: 'Virtual Machine', fields: ['name', 'role', 'status', 'description'] },
      { title: 'Site/Cluster', fields: ['site', 'cluster', 'device'] },
      { title: 'Tenancy', fields: ['tenant'] },
      { title: 'Management', fields: ['platform', 'primary_ip4', 'primary_ip6', 'config_template'] },
      { title: 'Resources', fields: ['vcpus', 'memory', 'disk'] },
      { title: 'Config Context', fields: ['local_context_data'] },
    ],
    pickerFilters: { cluster: { site_id: 'site' }, device: { cluster_id: 'cluster', site_id: 'site' } },
  },
  brief: ['name'],
  ordering: ['name', 'id'],
  search: ['name', 'description', 'comments'],
});
