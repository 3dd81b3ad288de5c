/**
 * Validates written `custom_fields` against the model's custom field definitions (reference 2):
 * create fills omitted keys with defaults, update merges sent keys into stored data. Errors go
 * under `__all__`, with NetBox's wording.
 */
import { sql } from 'kysely';
import type { CustomFieldDef, RequestContext } from '../context.js';
import type { FieldErrors } from '../errors.js';

type Data = Record<string, unknown>;

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const URL_RE = /^(https?|ftps?|mailto|tel|ssh|telnet|xmpp|irc|sftp|rdp|vnc|cifs|nfs|smb):\/?\/?\S+$/i;

function checkValue(cf: CustomFieldDef, v: unknown): string | null {
  const bad = (m: string) => `Invalid value for custom field '${cf.name}': ${m}`;
  switch (cf.type) {
    case 'text':
    case 'longtext':
      if (typeof v !== 'string') return bad('Value must be a string.');
      if (cf.validation_regex && !new RegExp(cf.validation_regex).test(v))
        return bad(`Values must match this regex: '${cf.validation_regex}'`);
      return null;
    case 'url':
      if (typeof v !== 'string' || !URL_RE.test(v)) return bad('Enter a valid URL.');
      if (cf.validation_regex && !new RegExp(cf.validation_regex).test(v))
        return bad(`Values must match this regex: '${cf.validation_regex}'`);
      return null;
    case 'integer':
    case 'decimal': {
      if (typeof v !== 'number' || !Number.isFinite(v) || (cf.type === 'integer' && !Number.isInteger(v))) {
        return bad(cf.type === 'integer' ? 'Value must be an integer.' : 'Value must be a decimal.');
      }
      if (cf.validation_minimum !== null && v < cf.validation_minimum)
        return bad(`Value must be at least ${cf.validation_minimum}`);
      if (cf.validation_maximum !== null && v > cf.validation_maximum)
        return bad(`Value must not exceed ${cf.validation_maximum}`);
      return null;
    }
    case 'boolean':
      return typeof v === 'boolean' ? null : bad('Value must be true or false.');
    case 'date':
      return typeof v === 'string' && DATE_RE.test(v) && !Number.isNaN(Date.parse(v))
        ? null
        : bad('Date values must be in ISO 8601 format (YYYY-MM-DD).');
    case 'select':
      return typeof v === 'string' && (cf.choices ?? []).includes(v)
        ? null
        : bad(`Invalid choice (${String(v)}). Available choices are: ${(cf.choices ?? []).join(', ')}`);
    case 'multiselect':
      if (!Array.isArray(v)) return bad('Value must be a list.');
      for (const x of v)
        if (!(cf.choices ?? []).includes(x as string))
          return bad(`Invalid choice(s) (${String(x)}). Available choices are: ${(cf.choices ?? []).join(', ')}`);
      return null;
    case 'object':
      return Number.isInteger(v) ? null : bad(`Value must be an object ID, not ${typeof v}`);
    case 'multiobject':
      if (!Array.isArray(v) || v.some((x) => !Number.isInteger(x))) return bad('Value must be a list of object IDs');
      return null;
    default:
      return null; // json: anything
  }
}

function normalise(cf: CustomFieldDef, v: unknown): unknown {
  // object types accept {id: n} as well as n
  if (cf.type === 'object' && typeof v === 'object' && v !== null && 'id' in v) return (v as { id: unknown }).id;
  if (cf.type === 'multiobject' && Array.isArray(v))
    return v.map((x) => (typeof x === 'object' && x !== null && 'id' in x ? (x as { id: unknown }).id : x));
  if ((cf.type === 'text' || cf.type === 'longtext' || cf.type === 'url') && v === '') return null;
  return v;
}

/** Returns the custom field data to store, or null when errors were added. */
export function prepareCustomFields(
  cfs: CustomFieldDef[],
  sent: unknown,
  before: Data | null,
  errors: FieldErrors,
): Data | null {
  if (sent !== undefined && (typeof sent !== 'object' || sent === null || Array.isArray(sent))) {
    errors.add(
      'custom_fields',
      'Invalid data format. Custom field data must be passed as a dictionary mapping field names to their values.',
    );
    return null;
  }
  const byName = new Map(cfs.map((c) => [c.name, c]));
  const out: Data = {};
  if (before) {
    for (const cf of cfs) if (before[cf.name] !== undefined) out[cf.name] = before[cf.name];
  } else {
    for (const cf of cfs) out[cf.name] = cf.default ?? null;
  }
  const given = (sent ?? {}) as Data;
  let ok = true;
  for (const [name, raw] of Object.entries(given)) {
    const cf = byName.get(name);
    if (!cf) {
      errors.add('__all__', `Unknown field name '${name}' in custom field data.`);
      ok = false;
      continue;
    }
    const v = normalise(cf, raw);
    if (v !== null) {
      const msg = checkValue(cf, v);
      if (msg) {
        errors.add('__all__', msg);
        ok = false;
        continue;
      }
    }
    out[name] = v;
  }
  for (const cf of cfs) {
    if (!cf.required) continue;
    if (out[cf.name] === null || out[cf.name] === undefined) {
      errors.add(
        '__all__',
        name(cf) in given
          ? `Custom field '${cf.name}': Required field cannot be empty.`
          : `Missing required custom field '${cf.name}'.`,
      );
      ok = false;
    }
  }
  return ok ? out : null;
}

const name = (cf: CustomFieldDef) => cf.name;

/** Object-type custom fields must point at existing objects. */
export async function checkCustomFieldObjects(
  rc: RequestContext,
  cfs: CustomFieldDef[],
  data: Data,
  errors: FieldErrors,
) {
  for (const cf of cfs) {
    if ((cf.type !== 'object' && cf.type !== 'multiobject') || !cf.object_type || data[cf.name] == null) continue;
    const target = rc.app.registry.find(cf.object_type);
    if (!target) continue;
    const ids = (cf.type === 'object' ? [data[cf.name]] : (data[cf.name] as unknown[])).map(Number);
    if (ids.length === 0) continue;
    const found = await sql<{
      id: number;
    }>`select id from ${sql.table(target.table)} where id = any(${ids}::bigint[])`.execute(rc.q);
    const have = new Set(found.rows.map((r) => Number(r.id)));
    const missing = ids.find((i) => !have.has(i));
    if (missing !== undefined)
      errors.add(
        '__all__',
        `Invalid value for custom field '${cf.name}': Related object not found using the provided numeric ID: ${missing}`,
      );
  }
}

/** NetBox's empty custom field values (CUSTOMFIELD_EMPTY_VALUES): never held against uniqueness */
const isEmptyValue = (v: unknown) => v === null || v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

interface CfItem {
  id: number | null;
  data: Data;
  errors: FieldErrors;
}

/**
 * Custom fields marked unique (NetBox 4.1): a value another object of the model holds, or that an
 * earlier item of the same request gives, is refused. One statement per unique field, whatever
 * the number of items.
 */
export async function checkCustomFieldUniqueness(
  rc: RequestContext,
  table: string,
  cfs: CustomFieldDef[],
  items: CfItem[],
) {
  for (const cf of cfs) {
    if (!cf.unique || cf.type === 'boolean') continue;
    const holding = items.filter((it) => !isEmptyValue(it.data[cf.name]));
    if (!holding.length) continue;
    const message = `Custom field '${cf.name}' must have a unique value.`;
    const key = (v: unknown) => JSON.stringify(v);
    const seen = new Set<string>();
    for (const it of holding) {
      const k = key(it.data[cf.name]);
      if (seen.has(k)) it.errors.add('__all__', message);
      seen.add(k);
    }
    const values = [...seen];
    const res = await sql<{ id: string | number; v: unknown }>`select t.id, t.custom_field_data -> ${cf.name} as v
      from ${sql.table(table)} as t where t.custom_field_data -> ${cf.name} = any(${values}::jsonb[])`.execute(rc.q);
    const holders = new Map<string, Set<number>>();
    for (const r of res.rows) {
      const k = key(r.v);
      holders.set(k, (holders.get(k) ?? new Set()).add(Number(r.id)));
    }
    for (const it of holding) {
      const others = [...(holders.get(key(it.data[cf.name])) ?? [])].filter((id) => id !== it.id);
      if (others.length) it.errors.add('__all__', message);
    }
  }
}
