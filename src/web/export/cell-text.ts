/**
 * A table cell as text, for `?export=table`: what the list's table shows (components/cells.ts),
 * without the markup. Related objects by their display name, choices by their label, lists
 * (tags, members) joined by commas, timestamps as the table writes them. Booleans are `True` /
 * `False`, as NetBox 4.4's BooleanColumn exports them, which spreadsheets read as booleans.
 */

type Represented = Record<string, unknown>;

function isChoice(v: object): v is { value: unknown; label: unknown } {
  return 'value' in v && 'label' in v && Object.keys(v).length === 2;
}

function text(key: string, v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (Array.isArray(v)) return v.map((x) => text(key, x)).join(',');
  if (typeof v === 'object') {
    if (isChoice(v)) return v.value === null || v.value === '' ? '' : String(v.label);
    const o = v as Represented;
    if ('id' in o && ('display' in o || 'url' in o)) return String(o.display ?? o.name ?? o.id);
    if (key === 'tags' && 'name' in o) return String(o.name);
    return JSON.stringify(v);
  }
  if ((key === 'created' || key === 'last_updated') && typeof v === 'string')
    return v
      .replace('T', ' ')
      .replace(/\.\d+/, '')
      .replace(/(Z|\+00:00)$/, '');
  return String(v);
}

/** the value a column shows for a row: a custom field's (`cf_<name>`), the object's name (`display`), or the field's */
export function cellText(row: Represented, key: string): string {
  if (key.startsWith('cf_')) return text(key, (row.custom_fields as Represented | undefined)?.[key.slice(3)]);
  return text(key, row[key]);
}
