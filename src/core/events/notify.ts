/**
 * The worker's notification deliveries (NetBox 4.1 extras/models/notifications.py): an event's
 * notifications for its object's subscribers, or for the members of an event rule's notification
 * group. One statement each; users deleted since the change are skipped. The event is named by its
 * whole key, so each reads one partition of the outbox (migration 0219).
 */
import { sql } from 'kysely';
import type { Kdb } from '../../db/client.js';

// core_event.event -> NetBox's event type (core/events.py OBJECT_CREATED...)
const EVENT_TYPE = sql`'object_' || e.event`;
const OBJECT_REPR = sql`left(coalesce(e.data->>'display', ''), 200)`;

/** a delivery's event: its id and time */
interface EventKey {
  event_id: number;
  occurred: string;
}

const ofEvent = (k: EventKey) => sql`e.id = ${k.event_id} and e.occurred = ${k.occurred}::timestamptz`;

/**
 * NetBox 4.1 signals.py notify_object_changed deletes a subscriber's earlier notification of the
 * object and creates a new one: it is unread again, and newest.
 */
export async function notifySubscribers(q: Kdb, event: EventKey, userIds: readonly number[]): Promise<void> {
  await sql`insert into extras_notification (user_id, object_type, object_id, object_repr, event_type)
    select u.id, e.model, e.object_id, ${OBJECT_REPR}, ${EVENT_TYPE}
    from core_event e join users_user u on u.id = any(${userIds.map(Number)}::bigint[]) where ${ofEvent(event)}
    on conflict (object_type, object_id, user_id) do update set created = now(), read = null,
      object_repr = excluded.object_repr, event_type = excluded.event_type`.execute(q);
}

/**
 * NetBox 4.1 NotificationGroup.notify: update_or_create per member (its users, and the users of
 * its groups) with the object's display and the event type as defaults, so an earlier
 * notification of the object keeps its creation time and read mark.
 */
export async function notifyGroup(q: Kdb, event: EventKey, groupId: number): Promise<void> {
  await sql`insert into extras_notification (user_id, object_type, object_id, object_repr, event_type)
    select u.id, e.model, e.object_id, ${OBJECT_REPR}, ${EVENT_TYPE}
    from core_event e join users_user u on u.id in (
        select user_id from extras_notificationgroup_users where notificationgroup_id = ${groupId}
        union select ug.user_id from users_user_groups ug
          join extras_notificationgroup_groups ng on ng.group_id = ug.group_id where ng.notificationgroup_id = ${groupId})
    where ${ofEvent(event)}
    on conflict (object_type, object_id, user_id) do update set object_repr = excluded.object_repr, event_type = excluded.event_type`.execute(
    q,
  );
}
