/**
 * An object's tab (`/dcim/devices/7/interfaces/`): the object's head with its tabs, then what the
 * tab shows (object-views/: a related list, an address space...). A slug no tab of the model has
 * is a 404, as is an object the user may not see. A tab may redirect instead of rendering.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import type { ModelDef } from '../../core/model/types.js';
import { html } from '../html.js';
import { pageContext } from '../page-context.js';
import { objectTabsOf } from '../object-views/index.js';
import { objectHead } from './object-head.js';
import { readObject } from './object.page.js';
import { modelCrumbs, objectPath, sendErrorPage, sendModelPage } from './page-shell.js';

export async function tabPage(
  _ctx: AppContext,
  model: ModelDef,
  request: FastifyRequest<{ Params: { id: string; tab: string } }>,
  reply: FastifyReply,
) {
  const crumbs = modelCrumbs(model);
  try {
    const tab = objectTabsOf(request.rc, model).find((t) => t.slug === request.params.tab);
    if (!tab) throw Errors.notFound();
    const obj = await readObject(request, model, request.params.id);
    const name = String(obj.display ?? obj.id);
    const content = await tab.render({ request, reply, model, obj });
    // a tab may answer with a redirect (object-views/next-available.view.ts)
    if (reply.sent) return reply;
    const body = html`${await objectHead(request.rc, model, obj, tab.slug, pageContext(request, reply).csrfToken)}
${content}`;
    return sendModelPage(request, reply, {
      title: `${name} · ${tab.label}`,
      crumbs: [...crumbs, { label: name, href: objectPath(model, obj.id) }, { label: tab.label }],
      body,
    });
  } catch (err) {
    return sendErrorPage(request, reply, err, crumbs);
  }
}
