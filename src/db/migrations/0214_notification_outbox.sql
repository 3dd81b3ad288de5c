-- Notifications from the outbox (core/events/README.md): a delivery that writes notifications
-- instead of calling a webhook. For a subscription it names the subscribers, read when the change
-- was made (a deleted object's subscriptions go with it, in the same transaction); for an event
-- rule whose action is a notification group it is null, and the worker reads the group's members.
alter table core_delivery add column notify_user_ids bigint[];

-- the header's unread count on every page: one probe of this index
create index extras_notification_unread on extras_notification (user_id) where read is null;
