/** A 4xx body in NetBox's shapes as lines for a page (`field: message`, `[1].field: message` in bulk). */
import { isPlainObject } from '../core/crud/parse-field.js';

export function errorLines(body: unknown, prefix = ''): string[] {
  if (typeof body === 'string') return [prefix ? `${prefix}: ${body}` : body];
  if (Array.isArray(body))
    return body.flatMap((v, i) =>
      isPlainObject(v) || Array.isArray(v)
        ? errorLines(v, prefix ? `${prefix}[${i}]` : `[${i}]`)
        : errorLines(v, prefix),
    );
  if (isPlainObject(body)) {
    return Object.entries(body).flatMap(([k, v]) =>
      errorLines(
        v,
        k === 'detail' || k === 'non_field_errors' || k === '__all__' ? prefix : prefix ? `${prefix}.${k}` : k,
      ),
    );
  }
  return body === undefined || body === null ? [] : [String(body)];
}
