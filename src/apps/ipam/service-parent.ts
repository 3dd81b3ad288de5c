/**
 * A service's parent (NetBox 4.3): a generic relation to a device, a virtual machine or an FHRP
 * group, shown in the 4.4 dialect, where `device` and `virtual_machine` are hidden. NetBox 3.4's
 * two fields stay stored and shown in 3.4, set when the parent is a device or a VM (a service of
 * an FHRP group has neither there: lossy, as 3.4 cannot say it).
 *
 * Writes take either shape in both dialects: a parent sets device / virtual_machine; a device or
 * VM that differs from the stored one sets the parent (both written back unchanged, as a 3.4 PUT
 * does, leave an FHRP group parent alone). When both shapes are sent the parent wins.
 */
import { sql } from 'kysely';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import { idSetFilter } from '../../core/query/id-set-filter.js';

/** NetBox 4.4 SERVICE_ASSIGNMENT_MODELS */
const PARENT_TYPES = ['dcim.device', 'virtualization.virtualmachine', 'ipam.fhrpgroup'];

const COLUMN: Record<string, string> = {
  'dcim.device': 'device_id',
  'virtualization.virtualmachine': 'virtual_machine_id',
};

/** parent_object_type, parent_object_id and the read-only parent, shown in 4.4 */
export function parentFields(): Record<string, FieldDef> {
  return {
    parent_object_type: { kind: 'contenttype', types: PARENT_TYPES, dialect: '4.4' },
    parent_object_id: { kind: 'integer', min: 0, dialect: '4.4' },
    parent: { kind: 'generic', generic: { type: 'parent_object_type', id: 'parent_object_id' }, dialect: '4.4' },
  };
}

const same = (a: unknown, b: unknown) => (a == null ? null : Number(a)) === (b == null ? null : Number(b));

/**
 * Puts the parent and device / virtual_machine of `data` in step (module comment), in place: the
 * validate hook's merged object, or the values the prepare hook stores.
 */
export function syncParent(data: Row, before: Row | null, sent: ReadonlySet<string>): void {
  const merged = { ...(before ?? {}), ...data };
  if (sent.has('parent_object_type') || sent.has('parent_object_id')) {
    for (const [type, column] of Object.entries(COLUMN))
      data[column] = merged.parent_object_type === type ? (merged.parent_object_id ?? null) : null;
    return;
  }
  if (!sent.has('device') && !sent.has('virtual_machine')) return;
  if (before && same(before.device_id, merged.device_id) && same(before.virtual_machine_id, merged.virtual_machine_id))
    return;
  // both set is refused by the validate hook (NetBox 3.4's message); the device is taken meanwhile
  const [type, id] =
    merged.device_id != null
      ? ['dcim.device', merged.device_id]
      : merged.virtual_machine_id != null
        ? ['virtualization.virtualmachine', merged.virtual_machine_id]
        : [null, null];
  data.parent_object_type = type;
  data.parent_object_id = id;
}

/** NetBox 4.4 ServiceFilterSet `fhrpgroup` (by name) and `fhrpgroup_id` */
export function fhrpGroupFilters(): Record<string, CustomFilter> {
  const match = (ids: import('../../core/query/lookups.js').Cond, { alias }: { alias: string }) =>
    sql`(${sql.ref(`${alias}.parent_object_type`)} = 'ipam.fhrpgroup' and ${sql.ref(`${alias}.parent_object_id`)} in ${ids})`;
  return {
    fhrpgroup: idSetFilter({ param: 'fhrpgroup', target: 'ipam.fhrpgroup', key: 'name', match }),
    fhrpgroup_id: idSetFilter({ param: 'fhrpgroup_id', target: 'ipam.fhrpgroup', byId: true, match }),
  };
}
