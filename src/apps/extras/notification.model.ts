/**
 * Notifications (NetBox 4.1): a message to a user about an object (the generic `object`) and the
 * event that touched it, read once `read` is set; and subscriptions, a user's wish to hear of an
 * object's changes. Served in the 4.4 dialect only. Neither is change-logged (NetBox: plain
 * models), and each object has at most one of each per user. The outbox worker writes
 * notifications (core/events/notify.ts): for an object's subscribers when it is updated or
 * deleted, and for the members of an event rule's notification group; the web pages under /user/
 * show each user their own (web/own/).
 */
import { defineChoices } from '../../core/model/choices.js';
import { defineModel } from '../../core/model/define-model.js';
import type { FieldDef, ModelDef, Row, WriteHookArgs } from '../../core/model/types.js';
import { fetchRowsById } from '../../core/represent/load-related.js';
import { objectTypeIdFilter } from './object-type-id-filter.js';

// NetBox 4.1 core/events.py: the registered event types
const EventType = defineChoices([
  ['object_created', 'Object created'],
  ['object_updated', 'Object updated'],
  ['object_deleted', 'Object deleted'],
  ['job_started', 'Job started'],
  ['job_completed', 'Job completed'],
  ['job_failed', 'Job failed'],
  ['job_errored', 'Job errored'],
]);

/** object_type, object_id, object, user, created: what a notification and a subscription share */
const aboutAnObject = (): Record<string, FieldDef> => ({
  object_type: { kind: 'contenttype', required: true },
  object_id: { kind: 'integer', required: true, min: 0 },
  object: { kind: 'generic', generic: { type: 'object_type', id: 'object_id' } },
  user: { kind: 'fk', to: 'users.user', required: true, onDelete: 'cascade' },
  created: { kind: 'datetime', readOnly: true },
});

const plain = {
  tags: false,
  customFields: false,
  changelog: false,
  timestamps: false,
} as const;

/** the object's display, as NetBox keeps it in object_repr (str(obj), 200 characters at most) */
async function objectRepr({ rc, data, before }: WriteHookArgs): Promise<void> {
  const all = { ...before, ...data };
  const m: ModelDef | undefined = rc.app.registry.find(String(all.object_type));
  if (!m) return;
  const [row] = await fetchRowsById(rc, m, [Number(all.object_id)]);
  if (row) data.object_repr = m.display(row).slice(0, 200);
}

export const notification = defineModel({
  name: 'extras.notification',
  path: 'notifications',
  verboseName: 'notification',
  dialect: '4.4',
  fields: {
    ...aboutAnObject(),
    // NetBox 4.1: no model names notifications in a GenericRelation, so they outlive their object
    // (a deletion's own notification is written after it: core/events/notify.ts)
    object: { kind: 'generic', generic: { type: 'object_type', id: 'object_id' }, onDelete: 'keep' },
    read: { kind: 'datetime', nullable: true },
    event_type: { kind: 'choice', choices: EventType, required: true },
  },
  ...plain,
  uniqueTogether: [{ fields: ['object_type', 'object_id', 'user'] }],
  filters: { object_type_id: objectTypeIdFilter('object_type') },
  hooks: { prepare: objectRepr },
  representReads: ['object_repr'],
  display: (row) => String(row.object_repr ?? ''),
  ui: {
    columns: ['object_type', 'object', 'user', 'event_type', 'created', 'read'],
    groups: [{ title: 'Notification', fields: ['object_type', 'object_id', 'user', 'event_type', 'read'] }],
  },
  brief: ['object_type', 'object_id', 'user', 'read', 'event_type'],
  ordering: ['-created', 'id'],
  search: ['object_repr'],
});

export const subscription = defineModel({
  name: 'extras.subscription',
  path: 'subscriptions',
  verboseName: 'subscription',
  dialect: '4.4',
  fields: aboutAnObject(),
  ...plain,
  uniqueTogether: [{ fields: ['object_type', 'object_id', 'user'] }],
  filters: { object_type_id: objectTypeIdFilter('object_type') },
  hooks: {
    // NetBox 4.1: a subscription reads as its object, in every form (brief and nested ones read it here)
    async represent(rc, rows, out) {
      const byType = new Map<string, number[]>();
      rows.forEach((r, i) => {
        if (!('display' in out[i]!) || (out[i]!.object as Row | undefined)?.display) return;
        const list = byType.get(String(r.object_type)) ?? [];
        byType.set(String(r.object_type), [...list, Number(r.object_id)]);
      });
      const shown = new Map<string, string>();
      for (const [type, ids] of byType) {
        const m = rc.app.registry.find(type);
        if (m) for (const row of await fetchRowsById(rc, m, ids)) shown.set(`${type}:${row.id}`, m.display(row));
      }
      rows.forEach((r, i) => {
        const obj = out[i]!.object as Row | null | undefined;
        const display = (obj?.display as string | undefined) ?? shown.get(`${r.object_type}:${r.object_id}`);
        if ('display' in out[i]! && display) out[i]!.display = display;
      });
    },
  },
  display: (row) => `${row.object_type} ${row.object_id}`,
  ui: {
    columns: ['object_type', 'object', 'user', 'created'],
    groups: [{ title: 'Subscription', fields: ['object_type', 'object_id', 'user'] }],
  },
  brief: ['object_type', 'object_id', 'user'],
  ordering: ['-created', 'user'],
  search: [],
});
