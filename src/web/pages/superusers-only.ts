/**
 * The guard of the administrative pages (background tasks, system): NetBox 4 shows them to
 * superusers only. A visitor is sent to sign in; a signed-in user who is not a superuser gets a
 * 403 page.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signInUrl } from '../../http/request-context.js';
import { html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { pageWithMenu } from '../page-context.js';

export async function superusersOnly(request: FastifyRequest, reply: FastifyReply) {
  if (!request.rc.user) return reply.redirect(signInUrl(request.url), 302);
  if (!request.rc.user.is_superuser) {
    const page = await pageWithMenu(request, reply);
    return sendPage(
      reply,
      renderPage({
        title: 'Not allowed',
        ...page,
        body: html`<h1>Not allowed</h1><div class="alert" role="alert"><p>Only superusers may see this page.</p></div>`,
      }),
      403,
    );
  }
}
