/**
 * Which devices are joined to which, and by how many cables or wireless links: the edges of a
 * topology drawing (web/object-views/site-topology.view.ts). One statement for any number of
 * devices: each cable end's device found through its termination's table (the component kinds
 * that belong to a device), A ends paired with B ends of the same cable, grouped per device pair;
 * wireless links the same through their two interfaces. Only cables and links the user may view
 * count (their view scopes as conditions), and only pairs with both devices among `deviceIds`.
 */
import { sql } from 'kysely';
import { hasPermission, requirePermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';

export interface DeviceLink {
  a: number;
  b: number;
  /** cables and wireless links between the two */
  count: number;
  /** one of the cables' colours (`rrggbb`), when any has one */
  color: string | null;
  /** at least one is a wireless link */
  wireless: boolean;
}

/** the component kinds a cable may end on that belong to a device, by their tables */
const DEVICE_PORT_TABLES: Record<string, string> = {
  'dcim.interface': 'dcim_interface',
  'dcim.frontport': 'dcim_frontport',
  'dcim.rearport': 'dcim_rearport',
  'dcim.consoleport': 'dcim_consoleport',
  'dcim.consoleserverport': 'dcim_consoleserverport',
  'dcim.powerport': 'dcim_powerport',
  'dcim.poweroutlet': 'dcim_poweroutlet',
};

export async function deviceLinks(rc: RequestContext, deviceIds: number[]): Promise<DeviceLink[]> {
  if (!deviceIds.length) return [];
  const registry = rc.app.registry;
  const cable = registry.find('dcim.cable');
  const radio = registry.find('wireless.wirelesslink');
  const parts = [];
  if (cable && (await hasPermission(rc, cable, 'view'))) {
    const scope = await requirePermission(rc, cable, 'view');
    const ports = sql.join(
      Object.entries(DEVICE_PORT_TABLES).map(
        ([type, table]) =>
          sql`select ct.cable_id, ct.cable_end, p.device_id from dcim_cabletermination ct
            join ${sql.table(table)} p on p.id = ct.termination_id
            where ct.termination_type = ${type} and p.device_id = any(${deviceIds}::bigint[])`,
      ),
      sql` union all `,
    );
    parts.push(sql`select a.device_id as a, b.device_id as b, t.color, false as wireless
      from (${ports}) a join (${ports}) b on b.cable_id = a.cable_id and a.cable_end = 'A' and b.cable_end = 'B'
      join dcim_cable t on t.id = a.cable_id ${scope ? sql`where ${scope}` : sql``}`);
  }
  if (radio && (await hasPermission(rc, radio, 'view'))) {
    const scope = await requirePermission(rc, radio, 'view');
    parts.push(sql`select ia.device_id as a, ib.device_id as b, null as color, true as wireless
      from wireless_wirelesslink t join dcim_interface ia on ia.id = t.interface_a_id join dcim_interface ib on ib.id = t.interface_b_id
      where ia.device_id = any(${deviceIds}::bigint[]) and ib.device_id = any(${deviceIds}::bigint[]) ${scope ? sql`and ${scope}` : sql``}`);
  }
  if (!parts.length) return [];
  // a pair once, whichever way round its cables run
  const res = await sql<{ a: string; b: string; n: number; color: string | null; wireless: boolean }>`
    select least(e.a, e.b) as a, greatest(e.a, e.b) as b, count(*)::int as n,
      max(nullif(e.color, '')) as color, bool_or(e.wireless) as wireless
    from (${sql.join(parts, sql` union all `)}) e group by 1, 2`.execute(rc.q);
  return res.rows.map((r) => ({
    a: Number(r.a),
    b: Number(r.b),
    count: Number(r.n),
    color: r.color,
    wireless: r.wireless,
  }));
}
