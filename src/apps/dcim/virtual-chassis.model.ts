/**
 * Virtual chassis (reference 3.2): devices managed as one (a stack). Members point at the chassis
 * (device.virtual_chassis, vc_position); the master must be one of them, and the master named when
 * creating a chassis joins it at position 1.
 */
import { sql } from 'kysely';
import { updateObjects } from '../../core/crud/write-service.js';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk, name } from '../fields.js';
import { siteScope, viaPair } from '../../core/query/filter-blocks.js';

export const virtualChassis = defineModel({
  name: 'dcim.virtualchassis',
  path: 'virtual-chassis',
  verboseName: 'virtual chassis',
  verboseNamePlural: 'virtual chassis',
  fields: {
    name: name(64),
    domain: { kind: 'string', maxLength: 30 },
    master: fk('dcim.device', { onDelete: 'set_null' }),
    description: description(),
    comments: comments(),
  },
  counts: { member_count: { model: 'dcim.device', via: 'virtual_chassis' } },
  filters: {
    ...viaPair('site', ['master', 'site']),
    ...siteScope(['master', 'site']),
    ...viaPair('tenant', ['master', 'tenant']),
  },
  hooks: {
    async validate({ rc, data, before }) {
      if (data.master_id == null || !before) return;
      const m = await sql<{
        vc: number | null;
      }>`select virtual_chassis_id as vc from dcim_device where id = ${data.master_id}`.execute(rc.q);
      // NetBox 3.4 VirtualChassis.clean(): an existing chassis' master is one of its members
      if (Number(m.rows[0]?.vc) !== Number(before.id)) {
        return { master: ['The selected master is not assigned to this virtual chassis.'] };
      }
    },
    async afterWrite({ rc, row, before }) {
      // NetBox 3.4 (signal on create): the master of a new chassis becomes its member at position 1;
      // through the one write path, so the device is validated and gets its change record
      if (before || row.master_id == null) return;
      const member = { id: row.master_id, virtual_chassis: row.id, vc_position: 1 };
      await updateObjects(rc, rc.app.registry.get('dcim.device'), [member], 'update', false, { followUp: true });
    },
  },
  ui: {
    columns: ['name', 'domain', 'master', 'member_count'],
    groups: [{ title: 'Virtual Chassis', fields: ['name', 'domain', 'description', 'master'] }],
  },
  brief: ['name', 'master', 'member_count'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['name', 'master', 'description', 'member_count'] },
  ordering: ['name'],
  search: ['name', 'domain', 'description', 'comments'],
});
