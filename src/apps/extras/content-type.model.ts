/**
 * Content types: one row per registered model, kept in step with the registry at start-up
 * (syncContentTypes), read-only through the API.
 */
import { sql } from 'kysely';
import type { Kdb } from '../../db/client.js';
import type { Registry } from '../../core/model/registry.js';
import { defineModel } from '../../core/model/define-model.js';
import { APP_LABELS } from './choices.js';

export const contentType = defineModel({
  name: 'extras.contenttype',
  path: 'content-types',
  verboseName: 'content type',
  fields: {
    app_label: { kind: 'string', maxLength: 100, readOnly: true },
    model: { kind: 'string', maxLength: 100, readOnly: true },
  },
  readOnly: true,
  tags: false,
  customFields: false,
  changelog: false,
  timestamps: false,
  display: (row) => `${APP_LABELS[row.app_label as string] ?? row.app_label} | ${row.model}`,
  hooks: {
    represent(rc, rows, out) {
      // NetBox shows the model's verbose name: "Tenancy | tenant group"
      rows.forEach((row, i) => {
        const m = rc.app.registry.find(`${row.app_label}.${row.model}`);
        if (m) out[i]!.display = `${APP_LABELS[m.app] ?? m.app} | ${m.verboseName}`;
      });
    },
  },
  brief: ['app_label', 'model'],
  ordering: ['app_label', 'model'],
  search: ['app_label', 'model'],
});

/**
 * Inserts the content types the registry has and the table lacks, in registry order. Only the
 * missing rows reach the insert: PostgreSQL draws a sequence value for every row an INSERT tries,
 * `on conflict do nothing` included, so inserting all of them at each start moved
 * extras_contenttype_id_seq by the model count per restart (and a data directory copied from the
 * PGlite snapshot would not match a cold start). The `on conflict` stays for two processes
 * starting at once on one PostgreSQL database.
 */
export async function syncContentTypes(q: Kdb, registry: Registry): Promise<void> {
  const models = registry.all();
  await sql`insert into extras_contenttype (app_label, model)
    select t.app_label, t.model
    from unnest(${models.map((m) => m.app)}::text[], ${models.map((m) => m.model)}::text[]) with ordinality as t(app_label, model, n)
    where not exists (select 1 from extras_contenttype c where c.app_label = t.app_label and c.model = t.model)
    order by t.n
    on conflict (app_label, model) do nothing`.execute(q);
}
