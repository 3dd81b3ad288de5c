/**
 * Module types (NetBox 3.4 ModuleType): a make and model of line card or other installable part,
 * carrying the modular component templates its modules get. Unique per manufacturer; displayed by
 * model. NetBox 3.4 renders no template counts on module types (3.7 neither).
 */
import { sql } from 'kysely';
import { defineModel } from '../../core/model/define-model.js';
import { comments, description, fk } from '../fields.js';
import { WeightUnit } from './choices.js';
import { ModuleAirflow } from './netbox4-choices.js';
import { booleanFilter } from '../../core/query/filter-blocks.js';
import { attributeErrors, prepareAttributes } from './module-type-attributes.js';
import { templateTabs } from './templates/template-tabs.js';

/** NetBox ModuleTypeFilterSet / DeviceTypeFilterSet: "has templates of this kind" booleans */
export function hasTemplates(column: 'module_type_id' | 'device_type_id', kinds: Record<string, string[]>) {
  return Object.fromEntries(
    Object.entries(kinds).map(([name, tables]) => [
      name,
      booleanFilter(
        (t) =>
          sql`(${sql.join(
            tables.map(
              (tbl) =>
                sql`exists (select 1 from ${sql.table(tbl)} x where ${sql.ref(`x.${column}`)} = ${sql.ref(`${t}.id`)})`,
            ),
            sql` or `,
          )})`,
      ),
    ]),
  );
}

/** the filters module types and device types share */
export const MODULAR_TEMPLATE_FILTERS: Record<string, string[]> = {
  console_ports: ['dcim_consoleporttemplate'],
  console_server_ports: ['dcim_consoleserverporttemplate'],
  power_ports: ['dcim_powerporttemplate'],
  power_outlets: ['dcim_poweroutlettemplate'],
  interfaces: ['dcim_interfacetemplate'],
  pass_through_ports: ['dcim_frontporttemplate', 'dcim_rearporttemplate'],
};

export const moduleType = defineModel({
  name: 'dcim.moduletype',
  path: 'module-types',
  verboseName: 'module type',
  fields: {
    // NetBox 4.3, shown in the 4.4 dialect only (module-type-attributes.ts)
    profile: fk('dcim.moduletypeprofile', { onDelete: 'protect', dialect: '4.4' }),
    manufacturer: fk('dcim.manufacturer', { required: true, nullable: false, onDelete: 'protect' }),
    model: { kind: 'string', required: true, maxLength: 100 },
    part_number: { kind: 'string', maxLength: 50, help: 'Discrete part number (optional)' },
    // NetBox 4.1, shown in the 4.4 dialect only
    airflow: { kind: 'choice', choices: ModuleAirflow, blank: true, dialect: '4.4' },
    weight: { kind: 'decimal', nullable: true, min: 0, decimalPlaces: 2 },
    weight_unit: { kind: 'choice', choices: WeightUnit, blank: true },
    description: description(),
    attributes: { kind: 'json', nullable: true, dialect: '4.4' },
    comments: comments(),
  },
  uniqueTogether: [
    { fields: ['manufacturer', 'model'], message: 'Module type with this Manufacturer and Model already exists.' },
  ],
  filters: hasTemplates('module_type_id', MODULAR_TEMPLATE_FILTERS),
  hooks: {
    async validate({ rc, data, before, sent }) {
      // NetBox 3.4 WeightMixin.clean()
      if (data.weight != null && !data.weight_unit)
        return { weight_unit: ['Must specify a unit when setting a weight'] };
      return attributeErrors(rc, data, before, sent);
    },
    async prepare({ rc, data, before, sent }) {
      await prepareAttributes(rc, data, before, sent);
    },
  },
  // the `module_type` filter of modules names a module type by its model (NetBox ModuleFilterSet)
  naturalKey: 'model',
  display: (row) => String(row.model),
  ui: {
    columns: ['model', 'manufacturer', 'part_number'],
    tabs: templateTabs('moduletype_id', false),
    clone: ['manufacturer', 'weight', 'weight_unit'],
    groups: [
      { title: 'Module Type', fields: ['manufacturer', 'model', 'part_number', 'description'] },
      // NetBox 4.4's groups: the airflow with the hardware, the profile and its attributes last
      { title: 'Hardware', fields: ['airflow', 'weight', 'weight_unit'] },
      { title: 'Profile & Attributes', fields: ['profile', 'attributes'] },
    ],
    related: [{ model: 'dcim.module', param: 'module_type_id' }],
  },
  brief: ['manufacturer', 'model'],
  // NetBox 4.3: the profile opens the brief form
  netbox44: { brief: ['profile', 'manufacturer', 'model', 'description'] },
  ordering: ['manufacturer', 'model'],
  search: ['model', 'part_number', 'description', 'comments'],
});
