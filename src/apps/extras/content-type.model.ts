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

export async function syncContentTypes(q: Kdb, registry: Registry): Promise<void> {
  const models = registry.all();
  await sql`insert into extras_contenttype (app_label, model)
    select * from unnest(${models.map((m) => m.app)}::text[], ${models.map((m) => m.model)}::text[])
    on conflict (app_label, model) do nothing`.execute(q);
}
