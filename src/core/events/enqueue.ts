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
import { servedIn } from '../model/dialect.js';
import type { RequestContext } from '../context.js';
import type { ModelDef, Row } from '../model/types.js';
import { render } from '../represent/render.js';
import { insertRows } from '../../db/bulk-insert.js';
import { activeRules } from './active-rules.js';

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
  if (rules.length === 0) return;
  const relevant = changes.filter((c) => rules.some((r) => r[`type_${c.action}`]));
  // data: the REST representation, as the API renders it (on delete: the last state), in the
  // deployment's dialect: a receiver gets one shape whichever dialect the writing client spoke (a
  // model only another dialect serves, in that one: it has no other shape)
  const dialect = servedIn(model, rc.app.config.apiDialect) ? rc.app.config.apiDialect : model.dialect!;
  const data = await render(
    rc.dialect === dialect ? rc : { ...rc, dialect },
    model,
    relevant.map((c) => c.row),
    'full',
  );
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
      .map((r) => ({
        event_id: Number(events[i]!.id),
        rule_id: Number(r.id),
        webhook_id: Number(r.webhook_id),
        object_key: `${model.name}:${c.row.id}`,
      })),
  );
  await insertRows(rc.q, 'core_delivery', deliveries);
  const wake = rc.app.wakeEventWorker;
  if (wake) (rc.afterCommit ??= []).push(wake);
}
