/**
 * Event rules (NetBox 3.7, reference 12.3): which object types and actions fire which webhook,
 * under which conditions, or (NetBox 4.1) which notification group hears of them. The outbox (core/events/enqueue.ts) reads the enabled rules on every
 * logged change; the webhook's NetBox 3.4 trigger fields are a view of its own rule (webhook.model.ts).
 */
import { contentTypesFilters, objectTypesFilters } from './content-type-filters.js';
import { defineModel } from '../../core/model/define-model.js';
import { conditionErrors } from '../../core/events/conditions.js';
import { comments, description } from '../fields.js';
import { applyEventTypes, eventTypeFilter, eventTypesField, eventTypesOf } from './event-types.js';

/** the object types an event rule may name: models whose changes are logged (only they have events) */
export function eventContentTypeErrors(
  registry: { find(name: string): { changelog: boolean } | undefined },
  types: unknown,
): string[] {
  const list = (types as string[] | null) ?? [];
  if (list.length === 0) return ['This list may not be empty.'];
  return list.filter((ct) => !registry.find(ct)?.changelog).map((ct) => `Invalid content type: ${ct}`);
}

/** NetBox 4.1 EventRuleActionChoices this service carries out, and the object each acts through */
const ACTION_OBJECT_TYPES: Record<string, string> = {
  webhook: 'extras.webhook',
  notification: 'extras.notificationgroup',
};

/** the action and its object agree; notification groups exist in the 4.4 dialect only */
function actionErrors(dialect: string, data: Record<string, unknown>): Record<string, string[]> {
  const action = String(data.action_type ?? 'webhook');
  if (!Object.hasOwn(ACTION_OBJECT_TYPES, action)) return {};
  const wanted = ACTION_OBJECT_TYPES[action]!;
  if (action === 'notification' && dialect !== '4.4') return { action_type: [`"${action}" is not a valid choice.`] };
  const type = data.action_object_type;
  if (type != null && type !== wanted)
    return { action_object_type: [`An event rule with action "${action}" must name a ${wanted} object.`] };
  return {};
}

export const ACTION_FLAGS = ['type_create', 'type_update', 'type_delete'] as const;

export const eventRule = defineModel({
  name: 'extras.eventrule',
  path: 'event-rules',
  verboseName: 'event rule',
  fields: {
    content_types: { kind: 'strings', required: true },
    // NetBox 4 names them object_types: 3.4 shows both names (4.4 only its own, netbox44.renamed)
    object_types: {
      kind: 'computed',
      column: 'content_types',
      shape: { type: 'array', items: { type: 'string' } },
      dialect: '3.4',
    },
    name: { kind: 'string', required: true, maxLength: 150, unique: true },
    description: description(),
    type_create: { kind: 'boolean', default: false },
    type_update: { kind: 'boolean', default: false },
    type_delete: { kind: 'boolean', default: false },
    type_job_start: { kind: 'boolean', default: false },
    type_job_end: { kind: 'boolean', default: false },
    // NetBox 4.1: the five booleans as one list (event-types.ts)
    event_types: eventTypesField,
    enabled: { kind: 'boolean', default: true },
    conditions: { kind: 'json', nullable: true, validate: (v) => conditionErrors(v)[0] },
    // NetBox 3.7 also runs scripts; here a webhook or (NetBox 4.1, 4.4 dialect) a notification
    // group: which one each dialect takes is checked in the validate hook
    action_type: {
      kind: 'string',
      maxLength: 30,
      default: 'webhook',
      validate: (v) =>
        Object.hasOwn(ACTION_OBJECT_TYPES, String(v)) ? undefined : `"${String(v)}" is not a valid choice.`,
    },
    action_object_type: {
      kind: 'contenttype',
      types: ['extras.webhook', 'extras.notificationgroup'],
      default: 'extras.webhook',
      // NetBox 3.7 and 4.4 require it (no model default); a create without it still gets the webhook
      // type, as the service's 3.4 dialect derived rules from webhooks before event rules existed
      requiredIn: ['3.4', '4.4'],
    },
    action_object_id: { kind: 'integer', required: true, min: 1 },
    action_object: { kind: 'generic', generic: { type: 'action_object_type', id: 'action_object_id' } },
    action_parameters: { kind: 'json', nullable: true },
    action_data: { kind: 'json', nullable: true },
    comments: comments(),
  },
  filters: { ...contentTypesFilters, event_type: eventTypeFilter },
  hooks: {
    async validate({ rc, data, sent }) {
      const errors: Record<string, string[]> = {};
      // a written list sets the booleans this rule checks (and prepare stores)
      applyEventTypes(data, sent);
      const ct = eventContentTypeErrors(rc.app.registry, data.content_types);
      if (ct.length) errors.content_types = ct;
      Object.assign(errors, actionErrors(rc.dialect, data));
      if (!data.type_create && !data.type_update && !data.type_delete && !data.type_job_start && !data.type_job_end) {
        // named as the client's dialect has it (4.4 writes the list)
        errors[rc.dialect === '4.4' ? 'event_types' : 'type_create'] = [
          'You must select at least one type: create, update, delete, job start and/or job end.',
        ];
      }
      return errors;
    },
    prepare({ data, sent }) {
      applyEventTypes(data, sent);
    },
    represent(rc, rows, out, { mode }) {
      if (mode !== 'full' || rc.dialect !== '4.4') return;
      rows.forEach((r, i) => {
        if ('event_types' in out[i]!) out[i]!.event_types = eventTypesOf(r);
      });
    },
  },
  // the hook only fills 4.4's full form: the brief and nested forms read their own columns
  representReads: [],
  netbox44: {
    brief: ['name', 'description'],
    renamed: { content_types: 'object_types' },
    hidden: ['type_create', 'type_update', 'type_delete', 'type_job_start', 'type_job_end'],
    filters: objectTypesFilters,
  },
  ui: {
    // the page edits the booleans the list stands for
    formExclude: ['event_types'],
    columns: ['name', 'enabled', 'action_type', 'action_object', 'object_types'],
    groups: [
      { title: 'Event Rule', fields: ['name', 'description', 'content_types', 'enabled'] },
      {
        title: 'Triggers',
        fields: ['type_create', 'type_update', 'type_delete', 'type_job_start', 'type_job_end', 'conditions'],
      },
      {
        title: 'Action',
        fields: ['action_type', 'action_object_type', 'action_object_id', 'action_object', 'action_data'],
      },
    ],
  },
  brief: ['name'],
  // NetBox 4.0: content types became object types
  ordering: ['name'],
  search: ['name', 'description', 'comments'],
});
