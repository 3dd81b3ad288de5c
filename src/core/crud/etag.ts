/**
 * `ETag` and `If-Match` (NetBox 4.6, #21356). As NetBox's ETagMixin (netbox/api/viewsets), the tag
 * is weak and made from the object's `last_updated` (its `created` when it has none):
 * `W/"2026-11-29T13:42:17.123456+00:00"`, the timestamp as Python's isoformat writes it, so a tag
 * read from NetBox and from this service look alike. It is free: the timestamp is a column of the
 * row every read and write already has, where a hash of the representation would cost a
 * serialization per answer and differ per dialect and form. Weak, because the representation can
 * change while the object does not (a related object renamed); every write of the object moves
 * `last_updated`, and that is what If-Match guards. A model without timestamps has no ETag, and
 * If-Match does not hold its writes back (NetBox: no tag, no check).
 *
 * If-Match: `*` matches any object; otherwise a comma-separated list, and the object's current tag
 * must be one of them, compared as strings (NetBox does; the weak prefix included). Checked on a
 * single PUT, PATCH and DELETE under the row's lock, before anything is written; a mismatch is 412
 * `{"detail": "Precondition failed."}` carrying the current ETag. Bulk writes ignore it, as NetBox's.
 */
import type { FastifyRequest } from 'fastify';
import { Errors } from '../errors.js';
import type { ModelDef, Row } from '../model/types.js';

/** The column an object's tag is made from, or null when its model keeps no timestamp. */
export function etagColumn(model: ModelDef): 'last_updated' | 'created' | null {
  if (model.timestamps) return 'last_updated';
  const created = model.fields.created;
  return created?.kind === 'datetime' ? 'created' : null;
}

/**
 * A row's timestamp (db/type-parsers.ts: "2026-11-29T13:42:17.12345Z", trailing zeros trimmed as
 * PostgreSQL prints them) as Python's datetime.isoformat: six fraction digits, or none when zero;
 * `+00:00` for UTC.
 */
function isoformat(ts: string): string {
  const m = /^(.*?)(?:\.(\d{1,6}))?Z$/.exec(ts);
  if (!m) return ts;
  const fraction = m[2] ? `.${m[2].padEnd(6, '0')}` : '';
  return `${m[1]}${fraction}+00:00`;
}

/** The ETag of a stored row of a model, or null when it has none. */
export function etagOf(model: ModelDef, row: Row | undefined): string | null {
  const column = etagColumn(model);
  if (!column || !row) return null;
  const ts = row[column] ?? (column === 'last_updated' ? row.created : null);
  return typeof ts === 'string' ? `W/"${isoformat(ts)}"` : null;
}

/** The tags an If-Match header lists, or null when it holds any object (absent, empty or `*`). */
export function ifMatchOf(request: FastifyRequest): string[] | null {
  const raw = request.headers['if-match'];
  if (raw === undefined || raw.trim() === '' || raw.trim() === '*') return null;
  return raw.split(',').map((t) => t.trim());
}

/** Throws 412 when a row's current tag is not one the If-Match header lists. */
export function assertIfMatch(model: ModelDef, row: Row, ifMatch: string[] | null | undefined): void {
  if (!ifMatch) return;
  const current = etagOf(model, row);
  if (current && !ifMatch.includes(current)) throw Errors.preconditionFailed(current);
}
