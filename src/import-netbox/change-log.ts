/**
 * The source's change log, copied record for record with its ids, times, users and request ids,
 * after the objects (its records name them, and its users must be there). NetBox's API does not
 * show a record's related object (a device for its interface's change); it is found again from
 * the record's data, as the write path finds it (changelog.ts relatedOf), so an object's change
 * log page lists its components' changes as it did at the source.
 */
import { sql } from 'kysely';
import type { RequestContext } from '../core/context.js';
import { relatedOf } from '../core/crud/changelog.js';
import { inTransaction } from '../core/crud/routes.js';
import type { Row } from '../core/model/types.js';
import { insertRows } from '../db/bulk-insert.js';
import type { Rep, Source } from './source.js';
import { choiceValue } from './to-input.js';

/** NetBox 4.1 moved the list to core (#16388); earlier releases have it in extras */
const PATHS = ['api/core/object-changes/', 'api/extras/object-changes/'];

const BATCH = 1000;

function related(rc: RequestContext, type: string, data: Row | null) {
  const model = rc.app.registry.find(type);
  if (!model || !data) return { related_object_type: null, related_object_id: null };
  // a snapshot names a reference by its field (`device`), the row by its column (`device_id`)
  const row: Row = { ...data };
  for (const [k, v] of Object.entries(data)) if (!(`${k}_id` in row)) row[`${k}_id`] = v;
  return relatedOf(rc, model)(row);
}

export async function copyChangeLog(
  rc: RequestContext,
  source: Source,
  say: (line: string) => void,
): Promise<{ copied: number; present: number } | null> {
  let path: string | null = null;
  for (const p of PATHS) if (!path && (await source.count(p)) !== null) path = p;
  if (!path) {
    say('Change log: the source shows none (no object-changes list); not copied');
    return null;
  }
  const users = new Set(
    (await sql<{ id: number }>`select id from users_user`.execute(rc.q)).rows.map((r) => Number(r.id)),
  );
  let copied = 0;
  let present = 0;
  await inTransaction(rc, async (trx) => {
    for await (const page of source.pages(path)) {
      const ids = page.map((r) => Number(r.id));
      const have = new Set(
        (
          await sql<{ id: number }>`select id from extras_objectchange where id = any(${ids}::bigint[])`.execute(trx.q)
        ).rows.map((r) => Number(r.id)),
      );
      present += have.size;
      const rows = page
        .filter((r) => !have.has(Number(r.id)))
        .map((r) => {
          const type = String(r.changed_object_type ?? '');
          const user = r.user && typeof r.user === 'object' ? Number((r.user as Rep).id) : null;
          const pre = (r.prechange_data as Row | null) ?? null;
          const post = (r.postchange_data as Row | null) ?? null;
          return {
            id: Number(r.id),
            time: r.time,
            user_id: user !== null && users.has(user) ? user : null,
            user_name: String(r.user_name ?? '').slice(0, 150),
            request_id: r.request_id,
            action: choiceValue(r.action),
            changed_object_type: type,
            changed_object_id: Number(r.changed_object_id),
            // this service shows the related object; NetBox does not, and it is found from the data
            ...('related_object_type' in r
              ? { related_object_type: r.related_object_type ?? null, related_object_id: r.related_object_id ?? null }
              : related(trx, type, post ?? pre)),
            // the text stored when it was written; NetBox shows the object as it is now instead,
            // or, once deleted, only its data
            object_repr: String(
              r.object_repr ?? (r.changed_object as Rep | null)?.display ?? (post ?? pre)?.name ?? '',
            ).slice(0, 200),
            prechange_data: pre,
            postchange_data: post,
            message: String(r.message ?? '').slice(0, 200),
          };
        });
      for (let i = 0; i < rows.length; i += BATCH)
        await insertRows(trx.q, 'extras_objectchange', rows.slice(i, i + BATCH));
      copied += rows.length;
    }
    await sql`select setval(pg_get_serial_sequence('extras_objectchange', 'id'), coalesce((select max(id) from extras_objectchange), 0) + 1, false)`.execute(
      trx.q,
    );
  });
  say(`Change log: ${copied} records copied${present ? `, ${present} already here` : ''}`);
  return { copied, present };
}
