/**
 * A rack's rack type (NetBox 4.1, shown in the 4.4 dialect): whenever a rack of a type is written,
 * it takes the type's physical attributes (NetBox 4.4 Rack.copy_racktype_attrs, run by every
 * save), so a rack's own dimensions always match its type's.
 */
import type { RequestContext } from '../../core/context.js';
import { rowById } from '../../core/crud/row-by-id.js';
import type { Row } from '../../core/model/types.js';

/** NetBox 4.4 Rack.RACKTYPE_FIELDS, by the rack's column names (its form factor is 3.4's `type`) */
const COPIED: Record<string, string> = {
  type: 'form_factor',
  width: 'width',
  u_height: 'u_height',
  starting_unit: 'starting_unit',
  desc_units: 'desc_units',
  outer_width: 'outer_width',
  outer_height: 'outer_height',
  outer_depth: 'outer_depth',
  outer_unit: 'outer_unit',
  mounting_depth: 'mounting_depth',
  weight: 'weight',
  weight_unit: 'weight_unit',
  max_weight: 'max_weight',
};

/** the prepare hook's part: the written rack's type's attributes into the row to be stored */
export async function copyRackTypeAttributes(rc: RequestContext, data: Row, before: Row | null): Promise<void> {
  const type = await rowById(rc, 'dcim_racktype', 'rack_type_id' in data ? data.rack_type_id : before?.rack_type_id);
  if (!type) return;
  for (const [column, from] of Object.entries(COPIED)) data[column] = type[from];
}
