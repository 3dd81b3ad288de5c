/**
 * Devices (reference 3.2; spec: Site, device and other models). Two spec/NetBox-version twists:
 * - the role is written and rendered both as `device_role` (NetBox 3.4) and `role` (3.6+). One
 *   column stores it (role_id); device_role_id is a generated mirror, so reads, filters and
 *   ordering work under both names. Writes of device_role are moved to role before storing.
 * - `display_name` sits beside `display` in the full, brief and nested forms (spec: Representations).
 * `cluster` points at virtualization clusters (foreign key added by 0040_virtualization.sql);
 * `config_context` is rendered from the config contexts (extras/config-context-render.ts);
 * config_template (NetBox 3.5+): the device's own config template (render-config: extras/render-config.routes.ts).
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, localContextData } from '../fields.js';
import { Airflow, DeviceFace, DeviceStatus } from './choices.js';
import { renderPrimaryIp, validatePrimaryIps } from './device-primary-ip.js';
import { preloadDeviceRules, typeOf, unnamedDisplays, validateDevice } from './device-rules.js';
import { DEVICE_SUBJECT, renderConfigContexts } from '../extras/config-context-render.js';
import type { CustomFilter } from '../../core/model/types.js';
import { holdingBaysSql, parentDevices } from './device-parent.js';
import { relatedFilter } from '../../core/query/related-filter.js';
import { contactFilters } from '../tenancy/contact-filters.js';
import { instantiateDeviceComponents } from './instantiate/device-components.js';
import {
  booleanFilter,
  iexact,
  interfaceMacFilter,
  parseIds,
  siteScope,
  viaPair,
} from '../../core/query/filter-blocks.js';
import { DEVICE_UI } from './device-ui.js';

const ROLE_REQUIRED = { device_role: ['This field is required.'] };

/** the role a write asks for: `role` wins over `device_role` when both are sent */
function writtenRole(data: Record<string, unknown>, sent: Set<string>): unknown {
  if (sent.has('role')) return data.role_id;
  if (sent.has('device_role')) return data.device_role_id;
  return data.role_id;
}

/** devices having a row in one of `tables` */
function hasComponents(...tables: string[]): CustomFilter {
  return booleanFilter(
    (t) =>
      sql`(${sql.join(
        tables.map(
          (table) => sql`exists (select 1 from ${sql.table(table)} c where c.device_id = ${sql.ref(`${t}.id`)})`,
        ),
        sql` or `,
      )})`,
  );
}

const parentDeviceFilter: CustomFilter = {
  type: 'integer',
  lookups: ['n'],
  async build(values, lookup, { alias, param }) {
    const inBay = sql`${sql.ref(`${alias}.id`)} in (select installed_device_id from dcim_devicebay
      where installed_device_id is not null and device_id = any(${parseIds(param, values)}::bigint[]))`;
    return lookup === 'n' ? sql`not ${inBay}` : inBay;
  },
};

// a union with null (core/openapi/shapes.ts resolveShape), of the nested device plus its bay
const PARENT_DEVICE = {
  nullable: true,
  allOf: [{ $model: 'dcim.device' }],
  properties: { device_bay: { $model: 'dcim.devicebay' } },
} as const;

export const device = defineModel({
  name: 'dcim.device',
  path: 'devices',
  verboseName: 'device',
  fields: {
    name: { kind: 'string', maxLength: 64, nullable: true, natural: true },
    device_type: fk('dcim.devicetype', {
      required: true,
      nullable: false,
      onDelete: 'protect',
      relatedName: 'instances',
    }),
    // the stored role (NetBox 3.6+ name); PROTECT as NetBox
    // NetBox 4.3: roles and platforms are trees, and a device's filters by them take descendants too
    role: {
      ...fk('dcim.devicerole', { nullable: false, onDelete: 'protect', treeFilter: '4.4' }),
      requiredIn: ['4.4'],
    },
    // NetBox 3.4 name of the same role (generated column); role_id carries the protection
    device_role: { ...fk('dcim.devicerole', { nullable: false, onDelete: 'set_null' }), requiredIn: ['3.4'] },
    tenant: fk('tenancy.tenant', { onDelete: 'protect' }),
    platform: fk('dcim.platform', { onDelete: 'set_null', treeFilter: '4.4' }),
    serial: { kind: 'string', maxLength: 50, label: 'serial number' },
    asset_tag: { kind: 'string', maxLength: 50, nullable: true, unique: true },
    site: fk('dcim.site', { required: true, nullable: false, onDelete: 'protect' }),
    location: fk('dcim.location', { onDelete: 'protect', treeFilter: true }),
    rack: fk('dcim.rack', { onDelete: 'protect' }),
    position: { kind: 'decimal', nullable: true, min: 1, max: 99.5, decimalPlaces: 1, label: 'position (U)' },
    face: { kind: 'choice', choices: DeviceFace, blank: true, label: 'rack face' },
    // NetBox 3.4: the nested device whose bay holds this one, with the bay (device-parent.ts)
    parent_device: { kind: 'computed', readOnly: true, shape: PARENT_DEVICE },
    status: { kind: 'choice', choices: DeviceStatus, default: 'active' },
    airflow: { kind: 'choice', choices: Airflow, blank: true },
    primary_ip: { kind: 'computed', readOnly: true, shape: { $model: 'ipam.ipaddress', nullable: true } },
    primary_ip4: fk('ipam.ipaddress', { onDelete: 'set_null', label: 'primary IPv4' }),
    primary_ip6: fk('ipam.ipaddress', { onDelete: 'set_null', label: 'primary IPv6' }),
    // NetBox 3.4: SET_NULL; the cluster's site must be the device's (device-rules.ts)
    cluster: fk('virtualization.cluster', { onDelete: 'set_null' }),
    virtual_chassis: fk('dcim.virtualchassis', { onDelete: 'set_null', relatedName: 'members' }),
    vc_position: { kind: 'integer', nullable: true, min: 0, max: 255 },
    vc_priority: { kind: 'integer', nullable: true, min: 0, max: 255 },
    description: description(),
    comments: comments(),
    config_template: fk('extras.configtemplate', { onDelete: 'protect' }),
    local_context_data: localContextData(),
    // config contexts merged with local_context_data (extras/config-context-render.ts); full form only
    config_context: {
      kind: 'computed',
      readOnly: true,
      excludable: true,
      shape: { type: 'object', additionalProperties: true },
    },
    display_name: { kind: 'computed', readOnly: true, shape: { type: 'string' } },
  },
  uniqueTogether: [
    // NetBox 3.4: an expression constraint (Lower('name'), site, tenant) without a message of its
    // own, so Django 4.1 names the constraint (BaseConstraint.violation_error_message)
    {
      fields: ['site', 'tenant', 'name'],
      ci: true,
      message: 'Constraint “dcim_device_unique_name_site_tenant” is violated.',
    },
    { fields: ['site', 'name'], ci: true, whenNull: ['tenant'], message: 'Device name must be unique per site.' },
    { fields: ['virtual_chassis', 'vc_position'] },
  ],
  filters: {
    ...contactFilters(),
    name: iexact('name'),
    serial: iexact('serial'),
    ...viaPair('manufacturer', ['device_type', 'manufacturer']),
    model: relatedFilter(['device_type']),
    ...siteScope(['site']),
    ...viaPair('tenant_group', ['tenant', 'group']),
    mac_address: interfaceMacFilter('dcim_interface', 'device_id'),
    has_primary_ip: booleanFilter(
      (t) => sql`(${sql.ref(`${t}.primary_ip4_id`)} is not null or ${sql.ref(`${t}.primary_ip6_id`)} is not null)`,
    ),
    virtual_chassis_member: booleanFilter((t) => sql`${sql.ref(`${t}.virtual_chassis_id`)} is not null`),
    local_context_data: booleanFilter((t) => sql`${sql.ref(`${t}.local_context_data`)} is not null`),
    interfaces: hasComponents('dcim_interface'),
    // NetBox 3.4 DeviceFilterSet: has at least one of a kind of component
    console_ports: hasComponents('dcim_consoleport'),
    console_server_ports: hasComponents('dcim_consoleserverport'),
    power_ports: hasComponents('dcim_powerport'),
    power_outlets: hasComponents('dcim_poweroutlet'),
    device_bays: hasComponents('dcim_devicebay'),
    module_bays: hasComponents('dcim_modulebay'),
    pass_through_ports: hasComponents('dcim_frontport', 'dcim_rearport'),
    // the device whose bay this device is installed in
    parent_device_id: parentDeviceFilter,
  },
  hooks: {
    async beforeValidate({ rc, items }) {
      await preloadDeviceRules(rc, items);
    },
    async validate({ rc, data, before, sent, earlier }) {
      if (sent.has('role') && sent.has('device_role') && data.role_id !== data.device_role_id) {
        return { role: ['role and device_role name different roles; send one of them.'] };
      }
      if (writtenRole(data, sent) == null) return before ? undefined : ROLE_REQUIRED;
      const errors = await validateDevice(rc, { ...data, role_id: writtenRole(data, sent) }, earlier);
      // a new device has no interfaces, so it cannot have a primary address yet
      return { ...errors, ...(await validatePrimaryIps(rc, data, before?.id ?? null)) };
    },
    async prepare({ rc, data, before, sent }) {
      // NetBox 3.6 Device.save(): a new device without a platform takes its type's default platform
      if (!before && data.platform_id == null && data.device_type_id != null) {
        // as validation read it (device-rules.ts): for a bulk create, one statement for every type
        const type = await typeOf(rc, data.device_type_id);
        if (type?.default_platform_id != null) data.platform_id = type.default_platform_id;
      }
      const role = writtenRole(data, sent);
      if (role != null) data.role_id = role;
      // the generated mirror column cannot be written
      delete data.device_role_id;
      // NetBox stores a blank name or asset tag as null (both are unique)
      if (data.name === '') data.name = null;
      if (data.asset_tag === '') data.asset_tag = null;
    },
    // NetBox Device.save(): a new device gets its type's components (instantiate/)
    afterCreate: instantiateDeviceComponents,
    async represent(rc, rows, out, { mode, readRows }) {
      const unnamed = await unnamedDisplays(rc, rows);
      const parents =
        mode === 'full'
          ? await parentDevices(rc, await readRows('holding_bays'))
          : new Map<number, Record<string, unknown>>();
      rows.forEach((r, i) => {
        const o = out[i]!;
        o.display = unnamed.get(Number(r.id)) ?? o.display;
        // spec: display_name beside display, in every form; NetBox 4 has none (display says it)
        if (rc.dialect === '3.4') o.display_name = o.display;
        if (mode === 'full') o.parent_device = parents.get(Number(r.id)) ?? null;
        renderPrimaryIp(o);
      });
      await renderConfigContexts(rc, DEVICE_SUBJECT, rows, out);
    },
  },
  // NetBox 3.6+ DeviceSerializer: how many of each component the device has; kept per device
  // (migration 0150): ten counts per row were ten sub-plans of every device statement
  counts: {
    console_port_count: { model: 'dcim.consoleport', via: 'device', kept: true },
    console_server_port_count: { model: 'dcim.consoleserverport', via: 'device', kept: true },
    power_port_count: { model: 'dcim.powerport', via: 'device', kept: true },
    power_outlet_count: { model: 'dcim.poweroutlet', via: 'device', kept: true },
    interface_count: { model: 'dcim.interface', via: 'device', kept: true },
    front_port_count: { model: 'dcim.frontport', via: 'device', kept: true },
    rear_port_count: { model: 'dcim.rearport', via: 'device', kept: true },
    device_bay_count: { model: 'dcim.devicebay', via: 'device', kept: true },
    module_bay_count: { model: 'dcim.modulebay', via: 'device', kept: true },
    inventory_item_count: { model: 'dcim.inventoryitem', via: 'device', kept: true },
  },
  display: (row) =>
    row.name ? (row.asset_tag ? `${row.name} (${row.asset_tag})` : String(row.name)) : `Device ${row.id}`,
  // the bays holding a page's devices (parent_device), read with the page
  representRows: { holding_bays: { model: 'dcim.devicebay', select: holdingBaysSql } },
  // brief and nested: an unnamed device's display is looked up by id; the rest of the hook is the full form's
  representReads: [],
  ui: DEVICE_UI,
  brief: ['name', 'display_name'],
  netbox44: {
    // NetBox 4.0: no display_name in the brief form (display says it), description instead
    brief: ['name', 'description'],
    // NetBox 4.0 removed device_role, which 3.6 had kept beside role (#15099); writes still take it.
    // display_name was never NetBox 4's (nor 3.7's): display says it
    hidden: ['device_role', 'display_name'],
  },
  ordering: ['name', 'id'],
  search: ['name', 'serial', 'asset_tag', 'description', 'comments'],
});
