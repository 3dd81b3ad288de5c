/**
 * NetBox 4.4's `mac_address` filter of device and VM interfaces: an interface whose MAC address
 * objects include one matching (InterfaceFilterSet, VMInterfaceFilterSet:
 * `MultiValueMACAddressFilter(field_name='mac_addresses__mac_address')`), not only its primary's
 * address, which is what 3.4's `mac_address` column holds. A negated lookup keeps the interfaces
 * with no matching MAC object (Django's exclude() over the relation); `empty` asks whether it has
 * any. A 4.4 request gets this meaning, a 3.4 one keeps its own (Netbox44.filters).
 */
import { sql } from 'kysely';
import type { CustomFilter } from '../../core/model/types.js';
import { lookupCondition, macValues } from '../../core/query/filter-conditions.js';
import { parseBooleanLookup } from '../../core/query/parse-value.js';

/** each negated lookup and the one it negates */
const NEGATED: Record<string, string> = { n: 'exact', nic: 'ic', nisw: 'isw', niew: 'iew', nie: 'ie' };
const LOOKUPS = ['n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie', 'empty'];

/** the `mac_address` filter of an interface model (`dcim.interface`, `virtualization.vminterface`) */
export function macAddressesFilter(ownerType: string): CustomFilter {
  return {
    lookups: LOOKUPS,
    async build(values, lookup, { param }) {
      const assigned = sql`m.assigned_object_type = ${ownerType} and m.assigned_object_id = t.id`;
      const any = (cond: unknown) =>
        sql`exists (select 1 from dcim_macaddress as m where ${assigned}${cond ? sql` and ${cond}` : sql``})`;
      if (lookup === 'empty') {
        const empty = parseBooleanLookup(param, values[0]!);
        return empty ? sql`not ${any(null)}` : any(null);
      }
      const positive = NEGATED[lookup] ?? lookup;
      const cond = lookupCondition(
        param,
        'string',
        sql.ref('m.mac_address'),
        positive,
        macValues(param, positive, values),
      );
      if (!cond) return null;
      return lookup in NEGATED ? sql`not ${any(cond)}` : any(cond);
    },
  };
}
