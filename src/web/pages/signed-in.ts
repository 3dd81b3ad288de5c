/** Route option of the pages that are the signed-in user's own: anyone else is sent to sign in. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signInUrl } from '../../http/request-context.js';

export async function requireSignIn(request: FastifyRequest, reply: FastifyReply) {
  if (!request.rc.user) return reply.redirect(signInUrl(request.url), 302);
}
