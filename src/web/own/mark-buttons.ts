/**
 * The object page's Bookmark and Subscribe buttons (NetBox 4.1's object header): each a POST form
 * with the CSRF token that comes back to the page it was on, so they work without JavaScript.
 * Shown to signed-in users allowed to add bookmarks or subscriptions (DEFAULT_PERMISSIONS gives
 * everyone their own), on models whose changes are logged: NetBox's bookmarks and notifications
 * features belong to its change-logged models, and only they have events to notify of.
 */
import { ownMarks } from '../../apps/extras/own-marks.js';
import { hasPermission } from '../../core/auth/permissions.js';
import type { RequestContext } from '../../core/context.js';
import type { ModelDef } from '../../core/model/types.js';
import { html, type Html } from '../html.js';

export function markable(model: ModelDef): boolean {
  return model.changelog;
}

export async function markButtons(
  rc: RequestContext,
  model: ModelDef,
  id: number,
  csrfToken: string | undefined,
  here: string,
): Promise<Html> {
  if (!rc.user || csrfToken === undefined || !markable(model)) return html``;
  const [bookmarks, subscriptions] = [
    rc.app.registry.find('extras.bookmark'),
    rc.app.registry.find('extras.subscription'),
  ];
  const mayBookmark = bookmarks ? await hasPermission(rc, bookmarks, 'add') : false;
  const maySubscribe = subscriptions ? await hasPermission(rc, subscriptions, 'add') : false;
  if (!mayBookmark && !maySubscribe) return html``;
  const marks = await ownMarks(rc, model.name, id);
  const form = (action: string, label: string) => html`<form class="inline" method="post" action="${action}">
      <input type="hidden" name="csrfmiddlewaretoken" value="${csrfToken}">
      <input type="hidden" name="object_type" value="${model.name}">
      <input type="hidden" name="object_id" value="${String(id)}">
      <input type="hidden" name="next" value="${here}">
      <button type="submit" class="secondary">${label}</button></form>`;
  return html`${mayBookmark ? (marks.bookmarked ? form('/user/bookmarks/remove/', 'Remove bookmark') : form('/user/bookmarks/add/', 'Bookmark')) : ''}
    ${maySubscribe ? (marks.subscribed ? form('/user/subscriptions/remove/', 'Unsubscribe') : form('/user/subscriptions/add/', 'Subscribe')) : ''}`;
}
