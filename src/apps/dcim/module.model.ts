/**
 * Modules (NetBox 3.4 Module): a module type installed in a module bay of a device (the bay's own
 * device; one module per bay). Installing one creates its components (instantiate/); removing it
 * removes them (their `module` cascades, each deletion logged). Displayed as NetBox's
 * "<bay name>: <module type> (<id>)".
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk } from '../fields.js';
import { installErrors, installModuleComponents } from './instantiate/module-components.js';
import { ModuleStatus } from './module-choices.js';
import { iexact, viaPair } from '../../core/query/filter-blocks.js';
import type { Row } from '../../core/model/types.js';

export const moduleModel = defineModel({
  name: 'dcim.module',
  path: 'modules',
  verboseName: 'module',
  fields: {
    device: fk('dcim.device', { required: true, nullable: false, onDelete: 'cascade' }),
    module_bay: fk('dcim.modulebay', { required: true, nullable: false, onDelete: 'cascade', unique: true }),
    module_type: fk('dcim.moduletype', {
      required: true,
      nullable: false,
      onDelete: 'protect',
      relatedName: 'instances',
    }),
    status: { kind: 'choice', choices: ModuleStatus, default: 'active' },
    serial: { kind: 'string', maxLength: 50, label: 'serial number' },
    asset_tag: {
      kind: 'string',
      maxLength: 50,
      nullable: true,
      unique: true,
      help: 'A unique tag used to identify this device',
    },
    description: description(),
    comments: comments(),
    // read by the install (NetBox 3.4 ModuleCommonForm fields), never stored
    replicate_components: {
      kind: 'boolean',
      default: true,
      writeOnly: true,
      notStored: true,
      noFilter: true,
      help: 'Automatically populate components associated with this module type',
    },
    adopt_components: {
      kind: 'boolean',
      default: false,
      writeOnly: true,
      notStored: true,
      noFilter: true,
      help: 'Adopt already existing components',
    },
  },
  filters: {
    ...viaPair('manufacturer', ['module_type', 'manufacturer']),
    serial: iexact('serial'),
  },
  hooks: {
    async validate({ rc, data, before }) {
      // NetBox 3.4 Module.clean()
      const bay = await sql<{
        device_id: number;
      }>`select device_id from dcim_modulebay where id = ${Number(data.module_bay_id)}`.execute(rc.q);
      if (bay.rows[0] && Number(bay.rows[0].device_id) !== Number(data.device_id)) {
        const dev = await sql<{
          name: string | null;
        }>`select name from dcim_device where id = ${Number(data.device_id)}`.execute(rc.q);
        return {
          __all__: [
            `Module must be installed within a module bay belonging to the assigned device (${dev.rows[0]?.name ?? data.device_id}).`,
          ],
        };
      }
      if (before) return;
      const clash = await installErrors(rc, data);
      if (clash.length) return { __all__: clash };
    },
    prepare({ data }) {
      // NetBox stores a blank asset tag as null (it is unique)
      if (data.asset_tag === '') data.asset_tag = null;
    },
    afterCreate: installModuleComponents,
    async represent(rc, rows, out) {
      const ids = rows.map((r) => Number(r.id));
      if (!ids.length) return;
      const res =
        await sql<Row>`select m.id, b.name as bay, t.model from dcim_module m join dcim_modulebay b on b.id = m.module_bay_id
        join dcim_moduletype t on t.id = m.module_type_id where m.id = any(${ids}::bigint[])`.execute(rc.q);
      const names = new Map(
        res.rows.map((r) => [Number(r.id), `${String(r.bay)}: ${String(r.model)} (${String(r.id)})`]),
      );
      rows.forEach((r, i) => (out[i]!.display = names.get(Number(r.id)) ?? out[i]!.display));
    },
  },
  relatedObject: 'device',
  display: (row) => `Module ${String(row.id)}`,
  ui: {
    // NetBox 4.4's import form names these by another attribute than the name
    importRefs: { module_type: 'model' },
    columns: ['id', 'device', 'module_bay', 'module_type', 'status', 'serial', 'asset_tag'],
    clone: ['device', 'module_type', 'status'],
    groups: [
      { title: 'Module', fields: ['device', 'module_bay', 'module_type', 'status', 'description'] },
      { title: 'Hardware', fields: ['serial', 'asset_tag', 'replicate_components', 'adopt_components'] },
    ],
    pickerFilters: { module_bay: { device_id: 'device' } },
    related: [
      { model: 'dcim.consoleport', param: 'module_id' },
      { model: 'dcim.consoleserverport', param: 'module_id' },
      { model: 'dcim.powerport', param: 'module_id' },
      { model: 'dcim.poweroutlet', param: 'module_id' },
      { model: 'dcim.interface', param: 'module_id' },
      { model: 'dcim.frontport', param: 'module_id' },
      { model: 'dcim.rearport', param: 'module_id' },
    ],
  },
  brief: ['device', 'module_bay', 'module_type'],
  ordering: ['module_bay', 'id'],
  search: ['serial', 'asset_tag', 'description', 'comments'],
});
