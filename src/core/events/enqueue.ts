/**
 * The outbox (spec: Events, Delivery 1): for every logged change of an object that an enabled
 * event rule listens to, one event row (the template context, frozen at the change) and one
 * delivery row per rule, written by recordChanges in the transaction of the change itself. So a
 * change that rolls back leaves no event, and one that commits cannot lose its event; the request
 * returns without waiting for delivery, and the worker is woken after the commit.
 *
 * The rules are read inside the transaction on each logged write (one indexed statement): a
 * cache could not be trusted there (core/cache/README.md: no version inside a transaction).
 * Conditions are evaluated by the worker, in the sandbox (their regular expressions are user code).
 */
import { sql } from 'kysely';
import type { RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import { render } from '../represent/render.js';
import { insertRows } from '../../db/bulk-insert.js';
import type { Row } from '../represent/load-related.js';

export type EventAction = 'create' | 'update' | 'delete';

/** NetBox's event names */
export const EVENT_NAMES: Record<EventAction, string> = { create: 'created', update: 'updated', delete: 'deleted' };

export interface ChangedObject {
  action: EventAction;
  row: Row;
  pre: Row | null;
  post: Row | null;
}

interface ActiveRule {
  id: number;
  webhook_id: number;
  type_create: boolean;
  type_update: boolean;
  type_delete: boolean;
}

export async function enqueueEvents(rc: RequestContext, model: ModelDef, changes: ChangedObject[]): Promise<void> {
  if (changes.length === 0) return;
  const actions = [...new Set(changes.map((c) => c.action))];
  const rules = (await sql<ActiveRule>`select id, action_object_id as webhook_id, type_create, type_update, type_delete
    from extras_eventrule where enabled and action_type = 'webhook' and action_object_type = 'extras.webhook'
      and content_types @> array[${model.name}]::text[]
      and (${actions.includes('create')} and type_create or ${actions.includes('update')} and type_update or ${actions.includes('delete')} and type_delete)
    order by id`.execute(rc.q)).rows;
  if (rules.length === 0) return;
  const relevant = changes.filter((c) => rules.some((r) => r[`type_${c.action}`]));
  // data: the REST representation, as the API renders it (on delete: the last state)
  const data = await render(rc, model, relevant.map((c) => c.row), 'full');
  const events = await insertRows(
    rc.q,
    'core_event',
    relevant.map((c, i) => ({
      event: EVENT_NAMES[c.action],
      model: model.name,
      object_id: Number(c.row.id),
      username: rc.user?.username ?? '',
      request_id: rc.requestId,
      data: data[i],
      snapshots: { prechange: c.pre, postchange: c.post },
    })),
    true,
  );
  const deliveries = relevant.flatMap((c, i) =>
    rules
      .filter((r) => r[`type_${c.action}`])
      .map((r) => ({ event_id: Number(events[i]!.id), rule_id: Number(r.id), webhook_id: Number(r.webhook_id), object_key: `${model.name}:${c.row.id}` })),
  );
  await insertRows(rc.q, 'core_delivery', deliveries);
  const wake = rc.app.wakeEventWorker;
  if (wake) (rc.afterCommit ??= []).push(wake);
}
