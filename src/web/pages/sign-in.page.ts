/**
 * `/login/` and `/logout/` in NetBox's (Django's) conventions, so scripts that sign in to NetBox
 * work unchanged: GET shows the form and sets the `csrftoken` cookie; POST takes `username`,
 * `password`, `csrfmiddlewaretoken` and `next`, and answers 302 to `next` with the `sessionid`
 * cookie, or the form again with one message that never says which of the two was wrong.
 * Repeated failures for one username from one address wait longer each time (sign-in-throttle.ts).
 */
import { sql } from 'kysely';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { checkPassword } from '../../apps/users/password.js';
import { csrfSecret } from '../../http/csrf.js';
import { endSession, startSession } from '../../http/sessions.js';
import { clearFailures, recordFailure, secondsToWait } from '../../http/sign-in-throttle.js';
import { html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { csrfField, pageContext, safeNext } from '../page-context.js';

const WRONG_CREDENTIALS = 'The username or password is not correct.';

function signInPage(
  request: FastifyRequest,
  reply: FastifyReply,
  opts: { next: string; username?: string; error?: string; status?: number },
) {
  const page = pageContext(request, reply);
  const body = html`<div class="narrow panel">
  <h1>Sign in</h1>
  ${opts.error ? html`<div class="errors" role="alert">${opts.error}</div>` : ''}
  <form method="post" action="/login/">
    ${csrfField(page)}
    <input type="hidden" name="next" value="${opts.next}">
    <label for="username">Username</label>
    <input type="text" id="username" name="username" value="${opts.username ?? ''}" autocomplete="username" autofocus required>
    <label for="password">Password</label>
    <input type="password" id="password" name="password" autocomplete="current-password" required>
    <div class="actions"><button type="submit">Sign in</button></div>
  </form>
</div>`;
  return sendPage(reply, renderPage({ title: 'Sign in', ...page, body }), opts.status ?? 200);
}

export function registerSignInPages(app: FastifyInstance, ctx: AppContext): void {
  const q = ctx.db.kysely;

  app.get<{ Querystring: { next?: string } }>('/login/', { config: { public: true } }, async (request, reply) => {
    const next = safeNext(request.query.next);
    if (request.rc.user) return reply.redirect(next, 302);
    return signInPage(request, reply, { next });
  });

  app.post('/login/', { config: { public: true } }, async (request, reply) => {
    const fields = request.formFields ?? {};
    const next = safeNext(fields.next ?? (request.query as { next?: string }).next);
    const username = (fields.username ?? '').trim();
    const password = fields.password ?? '';
    // a value no user can have is answered like a wrong password, without touching the database
    if (!username || !password || username.length > 150 || /[\u0000]/.test(username)) {
      return signInPage(request, reply, { next, username: username.slice(0, 150), error: WRONG_CREDENTIALS });
    }
    const ip = request.rc.clientIp;
    const wait = await secondsToWait(q, username, ip);
    if (wait > 0) {
      reply.header('Retry-After', String(wait));
      return signInPage(request, reply, {
        next,
        username,
        status: 429,
        error: `Too many failed attempts; try again in ${wait} seconds.`,
      });
    }
    const res = await sql<{ id: number; password: string; is_active: boolean }>`select id, password, is_active
      from users_user where username = ${username}`.execute(q);
    const found = res.rows[0];
    const valid = await checkPassword(password, found?.password);
    if (!found?.is_active || !valid) {
      await recordFailure(q, username, ip);
      request.log.info({ username, ip }, 'sign-in failed');
      return signInPage(request, reply, { next, username, error: WRONG_CREDENTIALS });
    }
    await clearFailures(q, username, ip);
    await startSession(q, request, reply, Number(found.id), ip, ctx.config.loginTimeout);
    // a CSRF secret known before sign-in must not serve after it
    csrfSecret(request, reply, true);
    return reply.redirect(next, 302);
  });

  const signOut = async (request: FastifyRequest, reply: FastifyReply) => {
    await endSession(q, request, reply);
    return reply.redirect('/login/', 302);
  };
  // NetBox 3.4 signs out on GET (a link); POST is what our pages' button sends
  app.get('/logout/', { config: { public: true } }, signOut);
  app.post('/logout/', { config: { public: true } }, signOut);
}
