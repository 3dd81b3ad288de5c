/**
 * Q-in-Q (IEEE 802.1ad, NetBox 4.2 #9102) on VLANs, shown in the 4.4 dialect only:
 *
 * - `qinq_role`: a service VLAN (svlan) or a customer VLAN (cvlan), or neither (null).
 * - `qinq_svlan`: a customer VLAN's service VLAN. A customer VLAN must name one, and only a
 *   customer VLAN may (NetBox's VLAN.clean()). A customer VLAN's VID and name are unique per
 *   service VLAN (its constraints; uniqueTogether in vlan.model.ts).
 * - stricter than NetBox, whose API takes any VLAN here (only its forms offer service VLANs): the
 *   VLAN named must be a service VLAN, and a service VLAN something points at keeps its role
 *   (docs/api-differences.md, "Strict input"). Interfaces' `qinq_svlan` follows the same rule
 *   (dcim/interface-qinq.ts).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { lookupOne } from '../../core/crud/row-by-id.js';
import type { CustomFilter, FieldDef, Row } from '../../core/model/types.js';
import { parseIds } from '../../core/query/filter-blocks.js';
import { fk } from '../fields.js';
import { VlanQinQRole } from './netbox4-choices.js';

const SERVICE = 'svlan';
const CUSTOMER = 'cvlan';

/** the fields a VLAN gains, in NetBox 4.4's place (after `description`) */
export function vlanQinQFields(): Record<string, FieldDef> {
  return {
    qinq_role: { kind: 'choice', choices: VlanQinQRole, nullable: true, label: 'Q-in-Q role', dialect: '4.4' },
    // NetBox 4.2: PROTECT, a service VLAN with customer VLANs cannot be deleted
    qinq_svlan: fk('ipam.vlan', { onDelete: 'protect', label: 'Q-in-Q SVLAN', dialect: '4.4' }),
  };
}

/** the errors of a `qinq_svlan` naming a VLAN that is not a service VLAN (none when it is one, or none) */
export async function checkServiceVlan(
  rc: RequestContext,
  id: unknown,
  field: string,
): Promise<Record<string, string[]>> {
  if (id == null) return {};
  const svlan = await lookupOne(rc, sql<Row>`select name, vid, qinq_role from ipam_vlan where id = ${Number(id)}`);
  if (!svlan || svlan.qinq_role === SERVICE) return {};
  return { [field]: [`VLAN ${String(svlan.name)} (${String(svlan.vid)}) is not a Q-in-Q service VLAN.`] };
}

/** NetBox 4.2 VLAN.clean(): the Q-in-Q rules, the first broken one reported as NetBox does */
export async function validateVlanQinQ(
  rc: RequestContext,
  data: Row,
  before: Row | null,
): Promise<Record<string, string[]>> {
  if (data.qinq_svlan_id != null && data.qinq_role !== CUSTOMER)
    return { qinq_svlan: ['Only Q-in-Q customer VLANs maybe assigned to a service VLAN.'] };
  if (data.qinq_role === CUSTOMER && data.qinq_svlan_id == null)
    return { qinq_role: ['A Q-in-Q customer VLAN must be assigned to a service VLAN.'] };
  const errors = await checkServiceVlan(rc, data.qinq_svlan_id, 'qinq_svlan');
  if (before?.qinq_role === SERVICE && data.qinq_role !== SERVICE) {
    const users = await serviceVlanUsers(rc, Number(before.id));
    if (users) errors.qinq_role = [`This service VLAN is in use (${users}); it must stay a service VLAN.`];
  }
  return errors;
}

/** what names a service VLAN as theirs, as a message says it ("2 customer VLANs, 1 interface"), or '' */
async function serviceVlanUsers(rc: RequestContext, id: number): Promise<string> {
  const res = await sql<{ cvlans: number; interfaces: number }>`select
    (select count(*) from ipam_vlan where qinq_svlan_id = ${id})::int as cvlans,
    ((select count(*) from dcim_interface where qinq_svlan_id = ${id})
      + (select count(*) from virtualization_vminterface where qinq_svlan_id = ${id}))::int as interfaces`.execute(
    rc.q,
  );
  const { cvlans, interfaces } = res.rows[0]!;
  const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;
  return [
    ...(cvlans ? [plural(cvlans, 'customer VLAN')] : []),
    ...(interfaces ? [plural(interfaces, 'interface')] : []),
  ].join(', ');
}

/**
 * NetBox 4.2 `qinq_svlan_vid`: VLANs whose service VLAN has one of these VIDs (`__n`: none of them,
 * VLANs without a service VLAN included, as Django's exclude() has it; `__lt` ... `__gte`).
 */
export const qinqSvlanVidFilter: CustomFilter = {
  type: 'integer',
  lookups: ['n', 'lt', 'lte', 'gt', 'gte'],
  async build(values, lookup, { alias, param }) {
    const vids = parseIds(param, values);
    const column = sql.ref(`${alias}.qinq_svlan_id`);
    const op = { lt: '<', lte: '<=', gt: '>', gte: '>=' }[lookup];
    // several bounds OR (django-filter): the widest of them
    const bound = lookup.startsWith('l') ? Math.max(...vids) : Math.min(...vids);
    const match = op ? sql`s.vid ${sql.raw(op)} ${bound}` : sql`s.vid = any(${vids}::int[])`;
    const cond = sql`${column} in (select s.id from ipam_vlan s where ${match})`;
    return lookup === 'n' ? sql`(${column} is null or not ${cond})` : cond;
  },
};
