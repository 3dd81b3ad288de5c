/**
 * What every component template shares (NetBox 3.4 ComponentTemplateModel and
 * ModularComponentTemplateModel): a device type, or (the modular kinds) a module type but never
 * both; a name unique per parent type, with `{module}` standing for the module bay's position
 * once instantiated on a module; a label and a description; change-logged, without tags or
 * custom fields. Displayed as "name (label)" when labelled, ordered by parent type then natural
 * name. Filters: `devicetype_id` and `moduletype_id` under NetBox's names (netbox-filters.md).
 */
import type { RequestContext } from '../../../core/context.js';
import { defineModel } from '../../../core/model/define-model.js';
import type { CustomFilter, FieldDef, ModelDef, ModelInput } from '../../../core/model/types.js';
import { relatedFilter } from '../../../core/query/related-filter.js';
import { description, fk } from '../../fields.js';

type Errors = Record<string, string[]>;
type Data = Record<string, unknown>;

export interface TemplateSpec {
  name: string;
  path: string;
  verboseName: string;
  /** may belong to a module type (NetBox ModularComponentTemplateModel) */
  modular: boolean;
  /** the kind's own fields, placed between label and description */
  fields: Record<string, FieldDef>;
  filters?: Record<string, CustomFilter>;
  /** the kind's own clean() rules, run once the shared ones pass */
  validate?: (
    rc: RequestContext,
    data: Data,
    before: Data | null,
  ) => Promise<Record<string, string[] | undefined> | undefined>;
  /** adjusts the rendered rows (the inventory item template's bare parent id) */
  represent?: (rows: Data[], out: Data[]) => void;
  /** anything else of the declaration (brief, ordering, represent hook...) */
  extra?: Partial<ModelInput>;
}

const capitalised = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** NetBox ComponentTemplateModel.__str__ */
export const templateDisplay = (row: Data) =>
  row.label ? `${String(row.name)} (${String(row.label)})` : String(row.name);

/** NetBox 3.4 ModularComponentTemplateModel.clean() and ComponentTemplateModel.clean() */
function parentErrors(modular: boolean, data: Data, before: Data | null): Errors | undefined {
  if (modular && data.device_type_id != null && data.module_type_id != null) {
    return { __all__: ['A component template cannot be associated with both a device type and a module type.'] };
  }
  if (modular && data.device_type_id == null && data.module_type_id == null) {
    return { __all__: ['A component template must be associated with either a device type or a module type.'] };
  }
  if (before && Number(before.device_type_id ?? 0) !== Number(data.device_type_id ?? 0)) {
    return { device_type: ['Component templates cannot be moved to a different device type.'] };
  }
  if (before && Number(before.module_type_id ?? 0) !== Number(data.module_type_id ?? 0)) {
    return { module_type: ['Component templates cannot be moved to a different module type.'] };
  }
}

/** true when both templates hang off the same device type or module type */
export const sameParent = (a: Data, b: Data) =>
  Number(a.device_type_id ?? 0) === Number(b.device_type_id ?? 0) &&
  Number(a.module_type_id ?? 0) === Number(b.module_type_id ?? 0);

/** "device type" or "module type": the parent a template sits on, for messages */
export const parentWord = (data: Data) => (data.device_type_id != null ? 'device type' : 'module type');

export function defineTemplate(spec: TemplateSpec): ModelDef {
  const verbose = capitalised(spec.verboseName);
  const parents: Record<string, FieldDef> = spec.modular
    ? {
        device_type: fk('dcim.devicetype', { onDelete: 'cascade', relatedName: '%(class)ss' }),
        module_type: fk('dcim.moduletype', { onDelete: 'cascade', relatedName: '%(class)ss' }),
      }
    : {
        device_type: fk('dcim.devicetype', {
          required: true,
          nullable: false,
          onDelete: 'cascade',
          relatedName: '%(class)ss',
        }),
      };
  return defineModel({
    name: spec.name,
    path: spec.path,
    verboseName: spec.verboseName,
    fields: {
      ...parents,
      name: {
        kind: 'string',
        required: true,
        maxLength: 64,
        natural: true,
        help: '{module} is accepted as a substitution for the module bay position when attached to a module type.',
      },
      label: { kind: 'string', maxLength: 64, help: 'Physical label' },
      ...spec.fields,
      description: description(),
    },
    // NetBox 3.4: change-logged models, not NetBoxModels (no tags, no custom fields)
    tags: false,
    customFields: false,
    uniqueTogether: [
      { fields: ['device_type', 'name'], message: `${verbose} with this Device type and Name already exists.` },
      ...(spec.modular
        ? [{ fields: ['module_type', 'name'], message: `${verbose} with this Module type and Name already exists.` }]
        : []),
    ],
    // NetBox 3.4 to_objectchange(): the device type is the related object
    relatedObject: 'device_type',
    filters: {
      devicetype_id: relatedFilter(['device_type'], { byId: true }),
      ...(spec.modular ? { moduletype_id: relatedFilter(['module_type'], { byId: true }) } : {}),
      ...spec.filters,
    },
    hooks: {
      async validate({ rc, data, before }) {
        return (
          parentErrors(spec.modular, data, before) ?? ((await spec.validate?.(rc, data, before)) as Errors | undefined)
        );
      },
      ...(spec.represent ? { represent: (_rc, rows, out) => spec.represent!(rows, out) } : {}),
    },
    display: templateDisplay,
    brief: ['name'],
    ordering: spec.modular ? ['device_type', 'module_type', 'name'] : ['device_type', 'name'],
    search: ['name', 'label', 'description'],
    ...spec.extra,
  });
}
