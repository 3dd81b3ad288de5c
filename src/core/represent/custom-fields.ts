import type { CustomFieldDef, RequestContext } from '../context.js';
import type { Row } from '../model/types.js';

/** NetBox 3.4: every custom field of the model is a key; unset values are null; object types render nested. */
export function renderCustomFields(
  _rc: RequestContext,
  cfs: CustomFieldDef[],
  data: Row | null,
  objects: Map<string, Map<number, Row>>,
): Row {
  const out: Row = {};
  for (const cf of cfs) {
    const v = data?.[cf.name] ?? null;
    if (v === null) out[cf.name] = null;
    else if (cf.type === 'object') out[cf.name] = objects.get(cf.name)?.get(Number(v)) ?? null;
    else if (cf.type === 'multiobject') {
      const objs = objects.get(cf.name);
      out[cf.name] = (Array.isArray(v) ? v : []).map((id) => objs?.get(Number(id))).filter(Boolean);
    } else out[cf.name] = v;
  }
  return out;
}
