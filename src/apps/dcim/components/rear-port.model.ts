/**
 * Rear ports (NetBox 3.4 RearPort): the back of a patch panel or a trunk connector. A rear port
 * with N positions carries N front ports; it is cabled but not a path endpoint (paths run through it).
 */
import { sql } from 'kysely';
import { defineModel } from '../../../core/model/define-model.js';
import { color, description } from '../../fields.js';
import { cabledFields, cabledFilters, occupiedField, representCabled } from '../cabled-fields.js';
import { PortType } from '../component-choices.js';
import { componentFields, componentFilters, labelDisplay, stayOnDevice, uniqueOnDevice } from './component.js';
import { moduleLink } from '../module-link.js';
import { rearPortPathHooks } from '../paths/port-hooks.js';

export const rearPort = defineModel({
  name: 'dcim.rearport',
  path: 'rear-ports',
  verboseName: 'rear port',
  fields: {
    ...componentFields(),
    module: moduleLink(),
    type: { kind: 'choice', choices: PortType, required: true },
    color: { ...color(''), label: 'color' },
    positions: { kind: 'integer', default: 1, min: 1, max: 1024, help: 'Number of front ports which may be mapped' },
    description: description(),
    ...cabledFields(),
    _occupied: occupiedField(),
  },
  uniqueTogether: uniqueOnDevice('rear port'),
  relatedObject: 'device',
  filters: { ...componentFilters(), ...cabledFilters(false) },
  hooks: {
    // stored cable paths through the port follow its changes (paths/port-hooks.ts)
    ...rearPortPathHooks,
    async validate(args) {
      const moved = await stayOnDevice(args);
      if (moved) return moved;
      // NetBox 3.4 RearPort.clean(): never fewer positions than mapped front ports
      if (!args.before || args.data.positions == null) return;
      const res = await sql<{
        n: number;
      }>`select count(*)::int as n from dcim_frontport where rear_port_id = ${Number(args.before.id)}`.execute(
        args.rc.q,
      );
      const mapped = res.rows[0]!.n;
      if (Number(args.data.positions) < mapped) {
        return {
          positions: [`The number of positions cannot be less than the number of mapped front ports (${mapped})`],
        };
      }
    },
    async represent(rc, rows, out, { mode }) {
      await representCabled(rc, 'dcim.rearport', rows, out, mode, false);
      labelDisplay(rows, out);
    },
  },
  ui: {
    columns: ['name', 'device', 'label', 'type', 'color', 'description'],
    groups: [
      {
        title: '',
        fields: ['device', 'module', 'name', 'label', 'type', 'color', 'positions', 'mark_connected', 'description'],
      },
    ],
    clone: ['device', 'type', 'color', 'positions'],
    pickerFilters: { module: { device_id: 'device' } },
  },
  brief: ['device', 'name', 'cable', '_occupied'],
  // NetBox 4.0: the brief form gains description, before the counts (#15238)
  netbox44: { brief: ['device', 'name', 'description', 'cable', '_occupied'] },
  ordering: ['device', 'name'],
  search: ['name', 'label', 'description'],
});
