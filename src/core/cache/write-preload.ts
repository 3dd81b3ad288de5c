/**
 * What a write reads that rarely changes - custom field definitions, active event rules - loaded
 * through their caches just before the write's transaction opens. Inside a transaction no cache
 * may be used (it sees its own uncommitted writes: cache-version.ts), so without this every create
 * read both afresh, custom fields twice (validation and the response): two to three statements of
 * a dozen in a single create.
 *
 * A write of the definitions themselves reads them inside its transaction, so it sees
 * its own change. Reading them a moment before the transaction rather than at its first statement
 * is no weaker than READ COMMITTED, where every statement sees what had committed when it began.
 */
import type { CustomFieldDef, RequestContext } from '../context.js';
import type { ModelDef } from '../model/types.js';
import { type ActiveRule, activeRules } from '../events/active-rules.js';
import { type Subscribers, subscribers } from '../events/subscribers.js';

export interface Preloaded {
  /** every custom field definition, by model */
  customFields?: ReadonlyMap<string, CustomFieldDef[]>;
  /** every enabled event rule the outbox serves (webhooks, notification groups) */
  eventRules?: readonly ActiveRule[];
  /** every subscription, by object (events/subscribers.ts) */
  subscribers?: Subscribers;
}

/** the models whose writes change what is preloaded: those read it inside their transaction */
const CUSTOM_FIELD_MODELS = new Set(['extras.customfield', 'extras.customfieldchoiceset']);
const EVENT_RULE_MODELS = new Set(['extras.eventrule', 'extras.webhook']);

/** The request context a write of `model` runs its transaction with. */
export async function preloadForWrite(rc: RequestContext, model: ModelDef): Promise<RequestContext> {
  if (rc.q.isTransaction) return rc;
  const [customFields, eventRules, subscribed] = await Promise.all([
    CUSTOM_FIELD_MODELS.has(model.name) ? undefined : rc.app.customFields.all(rc),
    EVENT_RULE_MODELS.has(model.name) ? undefined : activeRules(rc),
    // only change-logged objects have events; a subscription itself is not one
    model.changelog ? subscribers(rc) : undefined,
  ]);
  return { ...rc, preloaded: { customFields, eventRules, subscribers: subscribed } };
}
