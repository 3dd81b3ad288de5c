/**
 * What every device component shares (NetBox 3.4 ComponentModel): the device it belongs to, a name
 * unique on that device, a label and a description; the filters that reach the device's site, rack,
 * role and type; "name (label)" as its display; ordered by device, then name in natural order.
 * A component never moves to another device (NetBox: "Components cannot be moved to a different
 * device"), which `componentHooks` enforces on update.
 */
import type { CustomFilter, FieldDef, ModelHooks, Row } from '../../../core/model/types.js';
import { fk } from '../../fields.js';
import { siteScope, viaPair } from '../../../core/query/filter-blocks.js';

/** device, name, label (the module link arrives with modules) */
export function componentFields(): Record<string, FieldDef> {
  return {
    // NetBox's ComponentModel: related_name '%(class)ss' (a device's `consoleports`)
    device: fk('dcim.device', { required: true, nullable: false, onDelete: 'cascade', relatedName: '%(class)ss' }),
    name: { kind: 'string', required: true, maxLength: 64, natural: true },
    label: { kind: 'string', maxLength: 64, help: 'Physical label' },
  };
}

/** NetBox 3.4 DeviceComponentFilterSet: the device's place, role, type and virtual chassis */
export function componentFilters(): Record<string, CustomFilter> {
  return {
    ...viaPair('site', ['device', 'site']),
    ...siteScope(['device', 'site']),
    ...viaPair('location', ['device', 'location']),
    ...viaPair('rack', ['device', 'rack']),
    ...viaPair('role', ['device', 'role']),
    ...viaPair('device_role', ['device', 'device_role']),
    ...viaPair('device_type', ['device', 'device_type']),
    ...viaPair('virtual_chassis', ['device', 'virtual_chassis']),
  };
}

/** `<Verbose name> with this Device and Name already exists.` (Django unique_together wording) */
export const uniqueOnDevice = (verboseName: string) => [
  {
    fields: ['device', 'name'],
    message: `${verboseName[0]!.toUpperCase()}${verboseName.slice(1)} with this Device and Name already exists.`,
  },
];

/** NetBox: a component with a label is shown as "name (label)" */
export function labelDisplay(rows: Row[], out: Row[]): void {
  rows.forEach((r, i) => {
    if (r.label) out[i]!.display = `${String(r.name)} (${String(r.label)})`;
  });
}

/** the validate step every component runs first: it stays on its device */
export const stayOnDevice: NonNullable<ModelHooks['validate']> = async ({ data, before }) => {
  if (before && data.device_id != null && Number(data.device_id) !== Number(before.device_id)) {
    return { device: ['Components cannot be moved to a different device.'] };
  }
};
