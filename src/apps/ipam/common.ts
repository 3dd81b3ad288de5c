/** Pieces shared by the IPAM models: address family, VRF uniqueness, locking. */
import type { Dialect } from '../../core/model/dialect.js';
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import type { FieldDef, Row } from '../../core/model/types.js';
import { covers, parseIp } from '../../core/net/ip.js';
import { IPAddressFamily } from './choices.js';

/** 4 or 6, from an address or network as PostgreSQL prints it */
export const familyOf = (text: unknown): 4 | 6 => (String(text).includes(':') ? 6 : 4);

/** spec: `family` is {value, label} in the full form, the bare integer in brief and nested forms */
/**
 * `family`: `{value, label}` in the full form, the bare integer in the brief and nested forms
 * (spec: the prefix brief form carries family as an integer); filled by setFamily.
 */
export const familyField = (): FieldDef => ({
  kind: 'computed',
  shape: {
    type: 'object',
    properties: { value: { type: 'integer', enum: [4, 6] }, label: { type: 'string', enum: ['IPv4', 'IPv6'] } },
    required: ['value', 'label'],
    additionalProperties: false,
  },
  shapeIn: { brief: { type: 'integer', enum: [4, 6] }, nested: { type: 'integer', enum: [4, 6] } },
});

export function setFamily(
  rows: Row[],
  out: Row[],
  column: string,
  mode: 'full' | 'brief' | 'nested',
  dialect: Dialect,
): void {
  // NetBox 3.4's nested serializers show the bare number; its full forms, and every form of 4.4, the pair
  const pair = mode === 'full' || dialect !== '3.4';
  rows.forEach((r, i) => {
    const o = out[i]!;
    if (!('family' in o)) return;
    const family = familyOf(r[column]);
    o.family = pair ? { value: family, label: IPAddressFamily.labels.get(family)! } : family;
  });
}

/**
 * NetBox 3.4: duplicates are refused inside a VRF with enforce_unique, and in the global table
 * when ENFORCE_GLOBAL_UNIQUE is set. Returns where to look ("VRF x" / "global table") or null.
 */
export async function uniquenessScope(rc: RequestContext, vrfId: unknown): Promise<string | null> {
  if (vrfId == null) return rc.app.config.enforceGlobalUnique ? 'global table' : null;
  const res = await sql<{ name: string; rd: string | null; enforce_unique: boolean }>`select name, rd, enforce_unique
    from ipam_vrf where id = ${vrfId}`.execute(rc.q);
  const vrf = res.rows[0];
  if (!vrf?.enforce_unique) return null;
  return `VRF ${vrfDisplay(vrf)}`;
}

/** whether two written or stored networks are the same network */
export function sameNetwork(a: unknown, b: unknown): boolean {
  const x = parseIp(String(a));
  const y = parseIp(String(b));
  return !!x && !!y && covers(x, y) && covers(y, x);
}

/** whether two objects (as written) sit in the same VRF, the global table being a VRF of its own */
export const sameVrfId = (a: unknown, b: unknown) => (a == null ? b == null : b != null && Number(a) === Number(b));

export const vrfDisplay = (row: Row) => (row.rd ? `${row.name} (${row.rd})` : String(row.name));

// advisory lock classes (first key of pg_advisory_xact_lock(int, int))
export const LOCK_ADDRESSES = 4_242_101;
export const LOCK_PREFIXES = 4_242_102;
export const LOCK_VLANS = 4_242_103;
/** ASNs are unique across every RIR and range: one lock for all of them */
export const LOCK_ASNS = 4_242_104;

/**
 * Serialises allocations in one address space (a VRF, 0 = global) or one VLAN group until the
 * transaction ends: PostgreSQL advisory locks, so it holds across processes (DESIGN: Scaling out).
 */
export async function lockAllocation(rc: RequestContext, lockClass: number, key: unknown): Promise<void> {
  const k = Number(key ?? 0) % 2_147_483_647;
  await sql`select pg_advisory_xact_lock(${lockClass}::int, ${k}::int)`.execute(rc.q);
}
