/**
 * A write's error body as one row's errors by import column: field keys are the columns' names,
 * a custom field's messages go under `cf_<name>` (also when worded within the row's), and what names no field (`__all__`,
 * `non_field_errors`, `detail`) under '' (the row as a whole).
 */
const ROW_WIDE = new Set(['__all__', 'non_field_errors', 'detail']);
/** NetBox words a custom field's error within the row's (`__all__`); it goes under that field's column */
const CUSTOM_FIELD = /^Invalid value for custom field '([^']+)'/;

function messagesOf(v: unknown): string[] {
  if (Array.isArray(v)) return v.flatMap(messagesOf);
  if (v !== null && typeof v === 'object') return Object.values(v).flatMap(messagesOf);
  return v === undefined || v === null ? [] : [String(v)];
}

export function rowErrorsFrom(body: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (column: string, messages: string[]) => {
    if (messages.length) out.set(column, [...(out.get(column) ?? []), ...messages]);
  };
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    add('', messagesOf(body));
    return out;
  }
  for (const [key, v] of Object.entries(body)) {
    if (key === 'custom_fields' && v !== null && typeof v === 'object' && !Array.isArray(v))
      for (const [name, m] of Object.entries(v)) add(`cf_${name}`, messagesOf(m));
    else if (!ROW_WIDE.has(key)) add(key, messagesOf(v));
    else
      for (const m of messagesOf(v)) {
        const cf = CUSTOM_FIELD.exec(m)?.[1];
        add(cf ? `cf_${cf}` : '', [m]);
      }
  }
  return out;
}

/** a database's refusal of one row (a unique or foreign key constraint, a bad value) as its message, else null */
export function databaseRefusal(err: unknown): string | null {
  const code = (err as { code?: unknown })?.code;
  if (typeof code !== 'string') return null;
  if (code === '23505') return 'An object with these values already exists.';
  if (code === '23503') return 'It conflicts with related objects.';
  if (/^2[23][0-9A-Z]{3}$/.test(code)) return `Invalid value: ${(err as Error).message}`;
  return null;
}
