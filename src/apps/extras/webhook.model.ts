/**
 * Webhooks: HTTP targets of event rules (NetBox 3.7 shape, reference 12.3), and also NetBox 3.4's
 * webhook, which carried its own triggers (content_types, type_create/update/delete, enabled,
 * conditions): clients such as the Ansible `netbox_webhook` module send that shape, since the
 * service reports 3.4. Those fields are a view of the webhook's own event rule (the first rule
 * that names it): writing them creates or updates that rule through the write path, and reading
 * them reads it, so /api/extras/webhooks/ and /api/extras/event-rules/ always agree. The webhook
 * row keeps them as last written, for its change records (as a cable keeps its ends).
 *
 * Templates (URL, headers, body) are user-submitted code run by the sandboxed renderer
 * (core/events/templates.ts); only users granted the webhook permissions may write them.
 */
import { contentTypesFiltersOf } from './content-type-filters.js';
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { createObjects, updateObjects } from '../../core/crud/write-service.js';
import { conditionErrors } from '../../core/events/conditions.js';
import { defineModel } from '../../core/model/define-model.js';
import type { Row } from '../../core/model/types.js';
import { description } from '../fields.js';
import { ACTION_FLAGS, eventContentTypeErrors } from './event-rule.model.js';

const HTTP_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** NetBox 3.4's trigger fields */
export const LEGACY_FIELDS = ['content_types', ...ACTION_FLAGS, 'enabled', 'conditions'] as const;

/** `Name: Value` lines (rendered first as a template, so only the shape of plain lines is checked) */
function headerLinesError(v: unknown): string | undefined {
  for (const line of String(v).split(/\r?\n/)) {
    if (!line.trim() || line.includes('{')) continue;
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/.test(line))
      return `Invalid header line: "${line}". Use one "Name: Value" per line.`;
  }
  return undefined;
}

/** The webhook's own event rule: the first one that names it. */
async function ownRules(rc: RequestContext, webhookIds: number[]): Promise<Map<number, Row>> {
  const res = await sql<Row>`select distinct on (action_object_id) * from extras_eventrule
    where action_object_type = 'extras.webhook' and action_object_id = any(${webhookIds}::bigint[])
    order by action_object_id, id`.execute(rc.q);
  return new Map(res.rows.map((r) => [Number(r.action_object_id), r]));
}

export const webhook = defineModel({
  name: 'extras.webhook',
  path: 'webhooks',
  verboseName: 'webhook',
  fields: {
    name: { kind: 'string', required: true, maxLength: 150, unique: true },
    description: description(),
    content_types: { kind: 'strings' },
    type_create: { kind: 'boolean', default: false },
    type_update: { kind: 'boolean', default: false },
    type_delete: { kind: 'boolean', default: false },
    payload_url: { kind: 'string', required: true, maxLength: 500, label: 'URL' },
    enabled: { kind: 'boolean', default: true },
    http_method: {
      kind: 'string',
      maxLength: 30,
      default: 'POST',
      validate: (v) => (HTTP_METHODS.has(String(v)) ? undefined : `"${String(v)}" is not a valid choice.`),
    },
    http_content_type: { kind: 'string', maxLength: 100, default: 'application/json' },
    additional_headers: { kind: 'text', validate: headerLinesError },
    body_template: { kind: 'text' },
    // kept out of change records: a signing secret is a credential
    secret: { kind: 'string', maxLength: 255, noChangelog: true },
    conditions: { kind: 'json', nullable: true, validate: (v) => conditionErrors(v)[0] },
    ssl_verification: { kind: 'boolean', default: true },
    ca_file_path: { kind: 'string', maxLength: 4096, nullable: true },
  },
  // the content types a webhook shows are its own rule's (ownRules): filter on those, not on the
  // row's copy as last written through this endpoint (a rule edited at /event-rules/ moves them)
  filters: {
    ...contentTypesFiltersOf(
      (alias) => sql`coalesce((select r.content_types from extras_eventrule r
        where r.action_object_type = 'extras.webhook' and r.action_object_id = ${sql.ref(`${alias}.id`)}
        order by r.id limit 1), '{}')`,
    ),
  },
  hooks: {
    async validate({ rc, data, sent }) {
      const errors: Record<string, string[]> = {};
      // NetBox 3.4's rules apply to a client that speaks 3.4 (sends its trigger fields)
      if (LEGACY_FIELDS.some((f) => sent.has(f))) {
        if (sent.has('content_types')) {
          const ct = eventContentTypeErrors(rc.app.registry, data.content_types);
          if (ct.length) errors.content_types = ct;
        }
        if (ACTION_FLAGS.some((f) => sent.has(f)) && !ACTION_FLAGS.some((f) => data[f])) {
          errors.type_create = ['You must select at least one type: create, update, and/or delete.'];
        }
      }
      if (data.ca_file_path && data.ssl_verification === false) {
        errors.ca_file_path = ['Do not specify a CA certificate file if SSL verification is disabled.'];
      }
      return errors;
    },
    async afterWrite({ rc, data, row, sent }) {
      if (!LEGACY_FIELDS.some((f) => sent.has(f))) return;
      const id = Number(row.id);
      const own = (await ownRules(rc, [id])).get(id);
      const triggers: Record<string, unknown> = {};
      for (const f of LEGACY_FIELDS) triggers[f] = data[f] ?? row[f];
      if (own) {
        const changed = LEGACY_FIELDS.filter((f) => JSON.stringify(own[f]) !== JSON.stringify(triggers[f]));
        if (changed.length)
          await updateObjects(
            rc,
            rc.app.registry.get('extras.eventrule'),
            [{ id: Number(own.id), ...Object.fromEntries(changed.map((f) => [f, triggers[f]])) }],
            'update',
            false,
            { followUp: true },
          );
        return;
      }
      if (!(triggers.content_types as string[]).length) return;
      const taken = await sql`select 1 from extras_eventrule where name = ${String(row.name)}`.execute(rc.q);
      await createObjects(
        rc,
        rc.app.registry.get('extras.eventrule'),
        [
          {
            ...triggers,
            name: taken.rows.length ? `${String(row.name)} (webhook ${id})` : row.name,
            action_type: 'webhook',
            action_object_type: 'extras.webhook',
            action_object_id: id,
          },
        ],
        false,
      );
    },
    async represent(rc, rows, out, { mode }) {
      // 4.4 shows none of the 3.4 triggers (netbox44.hidden)
      if (mode !== 'full' || rows.length === 0 || rc.dialect !== '3.4') return;
      const own = await ownRules(
        rc,
        rows.map((r) => Number(r.id)),
      );
      rows.forEach((r, i) => {
        const rule = own.get(Number(r.id));
        for (const f of LEGACY_FIELDS) {
          if (rule) out[i]![f] = rule[f];
          else out[i]![f] = f === 'content_types' ? [] : f === 'enabled' ? false : f === 'conditions' ? null : false;
        }
      });
    },
  },
  ui: {
    columns: ['name', 'http_method', 'payload_url', 'description'],
    groups: [
      { title: 'Webhook', fields: ['name', 'description'] },
      {
        title: 'HTTP Request',
        fields: ['payload_url', 'http_method', 'http_content_type', 'additional_headers', 'body_template', 'secret'],
      },
      { title: 'SSL', fields: ['ssl_verification', 'ca_file_path'] },
    ],
  },
  brief: ['name'],
  // NetBox 3.7 moved a webhook's triggers to its event rules; 4.4 shows none of them
  netbox44: { brief: ['name', 'description'], hidden: [...LEGACY_FIELDS] },
  ordering: ['name'],
  search: ['name', 'description', 'payload_url'],
});
