/**
 * `/user/password/` (NetBox's path): the signed-in user changes their own password. The current
 * password is asked first (wrong guesses count towards the sign-in throttle, so a borrowed session
 * cannot try passwords freely); the new one follows the password rules (apps/users/password-rules.ts).
 * The write is the user model's (hashed, change-logged without the password); it ends every session
 * of the user (user.model.ts), and this browser gets a fresh one, so other browsers are signed out.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { AppContext } from '../../core/context.js';
import { inTransaction } from '../../core/crud/routes.js';
import { updateObjects } from '../../core/crud/write-service.js';
import { checkPassword } from '../../apps/users/password.js';
import { passwordProblems } from '../../apps/users/password-rules.js';
import { startSession } from '../../http/sessions.js';
import { clearFailures, recordFailure, secondsToWait } from '../../http/sign-in-throttle.js';
import { csrfSecret } from '../../http/csrf.js';
import { html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { csrfField, pageWithMenu } from '../page-context.js';
import { fromPage } from '../model-pages/page-writes.js';
import { requireSignIn } from './signed-in.js';

const PATH = '/user/password/';

async function sendPasswordPage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  opts: { errors?: Record<string, string[]>; done?: boolean; status?: number } = {},
) {
  const page = await pageWithMenu(request, reply);
  const errors = opts.errors ?? {};
  const field = (name: string, label: string, autocomplete: string, help?: string) => {
    const errs = errors[name] ?? [];
    const described = [help ? `${name}-help` : '', errs.length ? `id_${name}-error` : ''].filter(Boolean).join(' ');
    return html`<div class="field${errs.length ? ' invalid' : ''}">
  <label for="id_${name}">${label} <span class="required" aria-hidden="true">*</span></label>
  <input type="password" id="id_${name}" name="${name}" required autocomplete="${autocomplete}"${described ? html` aria-describedby="${described}"` : ''}${errs.length ? html` aria-invalid="true"` : ''}>
  ${help ? html`<p class="muted" id="${name}-help">${help}</p>` : ''}
  ${errs.length ? html`<p class="field-error" id="id_${name}-error">${errs.join(' ')}</p>` : ''}
</div>`;
  };
  const rules = `At least ${ctx.config.passwordMinLength} characters, with a digit, an upper-case and a lower-case letter, and not containing your username.`;
  const body = html`<h1>Change your password</h1>
${opts.done ? html`<p class="flash" role="status">Your password is changed. Your other sessions are signed out.</p>` : ''}
${errors.__all__ ? html`<div class="errors" role="alert">${errors.__all__.map((e) => html`<div>${e}</div>`)}</div>` : ''}
<form class="object-form" method="post" action="${PATH}">
  ${csrfField(page)}
  <fieldset class="panel"><legend>Password</legend>
  ${field('old_password', 'Current password', 'current-password')}
  ${field('new_password1', 'New password', 'new-password', rules)}
  ${field('new_password2', 'New password again', 'new-password')}
  </fieldset>
  <div class="form-buttons"><button type="submit" class="primary">Change password</button>
  <a class="button" href="/user/profile/">Cancel</a></div>
</form>`;
  return sendPage(
    reply,
    renderPage({
      title: 'Change your password',
      ...page,
      crumbs: [{ label: 'Home', href: '/' }, { label: 'Profile', href: '/user/profile/' }, { label: 'Password' }],
      body,
    }),
    opts.status ?? 200,
  );
}

export function registerPasswordPage(app: FastifyInstance, ctx: AppContext): void {
  const signedIn = { preHandler: requireSignIn };
  const q = ctx.db.kysely;
  app.get(PATH, signedIn, async (request, reply) =>
    sendPasswordPage(request, reply, ctx, { done: (request.query as { done?: string }).done === '1' }),
  );

  app.post(PATH, signedIn, async (request, reply) => {
    const rc = request.rc;
    const user = rc.user!;
    // Django's PasswordChangeForm field names, so a NetBox script finds them
    const f = request.formFields ?? {};
    const [old, next, again] = [f.old_password ?? '', f.new_password1 ?? '', f.new_password2 ?? ''];
    const ip = rc.clientIp;
    const wait = await secondsToWait(q, user.username, ip);
    if (wait > 0) {
      reply.header('Retry-After', String(wait));
      const errors = { __all__: [`Too many failed attempts; try again in ${wait} seconds.`] };
      return sendPasswordPage(request, reply, ctx, { errors, status: 429 });
    }
    const stored = await sql<{ password: string }>`select password from users_user where id = ${user.id}`.execute(q);
    if (!(await checkPassword(old, stored.rows[0]?.password))) {
      await recordFailure(q, user.username, ip);
      const errors = { old_password: ['This is not your current password.'] };
      return sendPasswordPage(request, reply, ctx, { errors, status: 400 });
    }
    await clearFailures(q, user.username, ip);
    const errors: Record<string, string[]> = {};
    if (next !== again) errors.new_password2 = ['The two new passwords differ.'];
    const problems = passwordProblems(next, user.username, ctx.config.passwordMinLength);
    if (problems.length) errors.new_password1 = problems;
    if (next && next === old) (errors.new_password1 ??= []).push('The new password is the current one.');
    if (Object.keys(errors).length) return sendPasswordPage(request, reply, ctx, { errors, status: 400 });
    const model = ctx.registry.get('users.user');
    // one's own password needs no users.change_user: the write is the sign-in's consequence
    // (Django's PasswordChangeView asks only for a signed-in user), still validated and logged
    await inTransaction(fromPage(rc), (trx) =>
      updateObjects(trx, model, [{ id: user.id, password: next }], 'update', false, { followUp: true }),
    );
    await startSession(q, request, reply, user.id, ip, ctx.config.loginTimeout);
    csrfSecret(request, reply, true);
    return reply.redirect(`${PATH}?done=1`, 303);
  });
}
