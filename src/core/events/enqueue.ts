/**
 * The outbox (spec: Events, Delivery 1): for every logged change of an object that an enabled
 * event rule listens to, one event row (the template context, frozen at the change) and one
 * delivery row per rule, written by recordChanges in the transaction of the change itself. So a
 * change that rolls back leaves no event, and one that commits cannot lose its event; the request
 * returns without waiting for delivery, and the worker is woken after the commit.
 *
 * The rules and the subscriptions (subscribers.ts) come from their caches, read just before the
 * transaction opened (cache/write-preload.ts); a write that did not preload them reads them inside
 * the transaction, one statement each (core/cache/README.md: no version inside a transaction).
 * Subscribers get one more delivery per change, which the worker turns into notifications: the
 * writer never writes a notification itself, so a burst of changes costs it one row per change.
 * Conditions are evaluated by the worker, in the sandbox (their regular expressions are user code).
 */
import { servedIn } from '../model/dialect.js';
import type { RequestContext } from '../context.js';
import type { ModelDef, Row } from '../model/types.js';
import { render } from '../represent/render.js';
import { insertRows } from '../../db/bulk-insert.js';
import { activeRules } from './active-rules.js';
import { subscribers } from './subscribers.js';

type EventAction = 'create' | 'update' | 'delete';

/** NetBox's event names */
const EVENT_NAMES: Record<EventAction, string> = { create: 'created', update: 'updated', delete: 'deleted' };

export interface ChangedObject {
  action: EventAction;
  row: Row;
  pre: Row | null;
  post: Row | null;
}

export async function enqueueEvents(rc: RequestContext, model: ModelDef, changes: ChangedObject[]): Promise<void> {
  if (changes.length === 0) return;
  const actions = new Set(changes.map((c) => c.action));
  const rules = (await activeRules(rc)).filter(
    (r) => r.content_types.includes(model.name) && [...actions].some((a) => r[`type_${a}`]),
  );
  // NetBox 4.1 extras/signals.py notify_object_changed: subscribers hear of updates and deletions,
  // not creations; a map lookup per change, and nothing at all while nobody subscribes
  const subscribed = actions.has('create') && actions.size === 1 ? undefined : await subscribers(rc);
  const watchers = (c: ChangedObject) =>
    c.action === 'create' || !subscribed?.size ? undefined : subscribed.get(`${model.name}:${c.row.id}`);
  const ruled = (c: ChangedObject) => rules.some((r) => r[`type_${c.action}`]);
  const relevant = changes.filter((c) => ruled(c) || watchers(c));
  if (relevant.length === 0) return;
  // data: the REST representation, as the API renders it (on delete: the last state), in the
  // deployment's dialect: a receiver gets one shape whichever dialect the writing client spoke (a
  // model only another dialect serves, in that one: it has no other shape). A change only
  // subscribers hear of keeps its display alone (the notification's object_repr): rendering it
  // would cost the writer statements for nothing.
  const dialect = servedIn(model, rc.app.config.apiDialect) ? rc.app.config.apiDialect : model.dialect!;
  const toRender = relevant.filter(ruled);
  const rendered = toRender.length
    ? await render(
        rc.dialect === dialect ? rc : { ...rc, dialect },
        model,
        toRender.map((c) => c.row),
        'full',
      )
    : [];
  const renderedOf = new Map(toRender.map((c, i) => [c, rendered[i]]));
  const events = await insertRows(
    rc.q,
    'core_event',
    relevant.map((c) => ({
      event: EVENT_NAMES[c.action],
      model: model.name,
      object_id: Number(c.row.id),
      username: rc.user?.username ?? '',
      request_id: rc.requestId,
      data: renderedOf.get(c) ?? { id: Number(c.row.id), display: model.display(c.row) },
      snapshots: { prechange: c.pre, postchange: c.post },
    })),
    true,
  );
  const deliveries = relevant.flatMap((c, i) => {
    const event_id = Number(events[i]!.id);
    // the event's time places the delivery in the partition of its event's day (migration 0219)
    const occurred = events[i]!.occurred;
    const object_key = `${model.name}:${c.row.id}`;
    const users = watchers(c);
    return [
      ...rules
        .filter((r) => r[`type_${c.action}`])
        .map((r) => ({
          event_id,
          occurred,
          rule_id: Number(r.id),
          // a notification group's delivery names no webhook: the worker reads the rule
          webhook_id: r.action_type === 'webhook' ? r.action_object_id : null,
          object_key,
        })),
      ...(users ? [{ event_id, occurred, rule_id: null, webhook_id: null, object_key, notify_user_ids: users }] : []),
    ];
  });
  await insertRows(rc.q, 'core_delivery', deliveries);
  const wake = rc.app.wakeEventWorker;
  if (wake) (rc.afterCommit ??= []).push(wake);
}
