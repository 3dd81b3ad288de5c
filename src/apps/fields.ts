/** Shorthands for the fields most NetBox models share. */
import type { FieldDef } from '../core/model/types.js';

export const name = (maxLength = 100, extra: Partial<FieldDef> = {}): FieldDef => ({
  kind: 'string',
  required: true,
  maxLength,
  ...extra,
});
export const slug = (maxLength = 100, extra: Partial<FieldDef> = {}): FieldDef => ({
  kind: 'slug',
  required: true,
  maxLength,
  ...extra,
});
export const description = (): FieldDef => ({ kind: 'string', maxLength: 200 });
export const comments = (): FieldDef => ({ kind: 'text' });
export const fk = (to: string, extra: Partial<FieldDef> = {}): FieldDef => ({
  kind: 'fk',
  to,
  nullable: true,
  ...extra,
});
export const color = (dflt = '9e9e9e'): FieldDef => ({
  kind: 'string',
  maxLength: 6,
  default: dflt,
  pattern: { regex: /^[0-9a-f]{6}$/, message: 'Enter a valid hexadecimal RGB color code.' },
});
/** NetBox 3.4 local_context_data (devices, virtual machines): a JSON object or null */
export const localContextData = (): FieldDef => ({
  kind: 'json',
  nullable: true,
  validate: (v) =>
    v !== null && (typeof v !== 'object' || Array.isArray(v)) ? 'JSON data must be in object form.' : undefined,
});
/** NetBox: a tenant in use by an IPAM object, an L2VPN or a tunnel cannot be deleted (their tenant is PROTECT) */
export const tenantField = (): FieldDef => fk('tenancy.tenant', { onDelete: 'protect' });
