/**
 * `/user/profile/` and `/user/api-tokens/` (NetBox's paths): the signed-in user's details and
 * their own API tokens, which they can create and delete. Writes go through the one write path
 * (permissions, change log) as the REST API's do; by default every user may manage their own
 * tokens (spec: Authentication 3). With ALLOW_TOKEN_RETRIEVAL off, a new key is shown once, on
 * the page that answers its creation, and never again. A v2 token (NetBox 4.5, offered once
 * API_TOKEN_PEPPERS is set) shows its whole credential, `nbt_<key>.<secret>`, only on that page:
 * its secret is not stored, so the list shows only its public key.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { ApiError } from '../../core/errors.js';
import { inTransaction } from '../../core/crud/routes.js';
import { listObjects } from '../../core/crud/read.js';
import { createObjects, deleteObjects } from '../../core/crud/write-service.js';
import { errorLines } from '../error-lines.js';
import { html, type Html } from '../html.js';
import { renderPage, sendPage } from '../layout.js';
import { csrfField, pageWithMenu } from '../page-context.js';
import { requireSignIn } from './signed-in.js';

const CRUMBS = [
  { label: 'Home', href: '/' },
  { label: 'Profile', href: '/user/profile/' },
];

async function tokensPage(
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AppContext,
  notice?: { key?: string; v2?: boolean; errors?: string[] },
  status = 200,
) {
  const rc = request.rc;
  const model = ctx.registry.get('users.token');
  // read as NetBox 4.4 shows tokens, whatever the deployment's dialect: with their version and enabled
  const list = await listObjects(
    { ...rc, dialect: '4.4' },
    model,
    new Map([
      ['user_id', [String(rc.user!.id)]],
      ['limit', ['0']],
    ]),
  );
  const page = await pageWithMenu(request, reply);
  const v2Offered = ctx.config.apiTokenPeppers.size > 0;
  const rows: Html[] = list.results.map(
    (t) => html`<tr>
    <td>${keyCell(t)}</td>
    <td>${t.enabled ? 'yes' : 'no'}</td>
    <td>${t.write_enabled ? 'yes' : 'no'}</td>
    <td>${String(t.description ?? '')}</td>
    <td>${t.expires ? String(t.expires) : html`<span class="muted">never</span>`}</td>
    <td>${t.last_used ? String(t.last_used) : html`<span class="muted">never</span>`}</td>
    <td><form class="inline" method="post" action="/user/api-tokens/${String(t.id)}/delete/">${csrfField(page)}
      <button class="danger" type="submit" data-confirm="Delete this token?">Delete</button></form></td>
  </tr>`,
  );
  const body = html`<h1>API tokens</h1>
${
  notice?.key
    ? notice.v2
      ? html`<div class="notice" role="status">New v2 token created. Copy it now, it will not be shown again; send it as <code>Authorization: Bearer &lt;token&gt;</code>:<br><code class="key">${notice.key}</code></div>`
      : html`<div class="notice" role="status">New token created. Copy its key now${ctx.config.allowTokenRetrieval ? '' : '; it will not be shown again'}:<br><code class="key">${notice.key}</code></div>`
    : ''
}
${notice?.errors?.length ? html`<div class="errors" role="alert">${notice.errors.map((e) => html`<div>${e}</div>`)}</div>` : ''}
<div class="panel">
  <table><thead><tr><th>Key</th><th>Enabled</th><th>Write</th><th>Description</th><th>Expires</th><th>Last used</th><th></th></tr></thead>
  <tbody>${rows.length ? rows : html`<tr><td colspan="7" class="muted">No tokens yet.</td></tr>`}</tbody></table>
</div>
<form class="panel" method="post" action="/user/api-tokens/">
  <h2>New token</h2>
  ${csrfField(page)}
  <label for="description">Description</label>
  <input type="text" id="description" name="description" maxlength="200">
  <label for="expires">Expires (UTC, optional)</label>
  <input type="datetime-local" id="expires" name="expires">
  <label for="allowed_ips">Allowed networks (comma-separated, optional)</label>
  <input type="text" id="allowed_ips" name="allowed_ips" placeholder="10.0.0.0/8, 2001:db8::/32">
  <label><input type="checkbox" name="write_enabled" value="on" checked> Write enabled</label>
  ${v2Offered ? html`<label><input type="checkbox" name="v2" value="on"> v2 token (<code>Bearer nbt_...</code>; its secret is shown once and never stored)</label>` : ''}
  <div class="actions"><button type="submit">Create token</button></div>
</form>`;
  return sendPage(
    reply,
    renderPage({ title: 'API tokens', ...page, crumbs: [...CRUMBS, { label: 'API tokens' }], body }),
    status,
  );
}

/** a v1 key where it may be read, else its masked form; a v2 token's public key (its secret is not kept) */
function keyCell(t: Record<string, unknown>): Html {
  if (t.version === 2)
    return html`<code>nbt_${String(t.key)}.</code><span class="muted">… (v2, secret not stored)</span>`;
  return t.key === undefined
    ? html`<span class="muted">${String(t.display)}</span>`
    : html`<code>${String(t.key)}</code>`;
}

export function registerTokenPages(app: FastifyInstance, ctx: AppContext): void {
  const model = ctx.registry.get('users.token');
  // these pages are the signed-in user's own: anyone else is sent to sign in
  const signedIn = { preHandler: requireSignIn };
  app.get('/user/profile/', signedIn, async (request, reply) => {
    const user = request.rc.user!;
    const page = await pageWithMenu(request, reply);
    const body = html`<h1>${user.username}</h1>
<div class="panel"><table>
  <tr><th>Username</th><td>${user.username}</td></tr>
  <tr><th>Superuser</th><td>${user.is_superuser ? 'yes' : 'no'}</td></tr>
  <tr><th>Staff</th><td>${user.is_staff ? 'yes' : 'no'}</td></tr>
</table>
<p><a href="/user/preferences/">Preferences</a>: colour mode, rows per page, time zone, tables, dashboard</p>
<p><a href="/user/password/">Change your password</a> · <a href="/user/api-tokens/">API tokens</a></p></div>`;
    return sendPage(reply, renderPage({ title: 'Profile', ...page, crumbs: [CRUMBS[0]!, { label: 'Profile' }], body }));
  });

  app.get('/user/api-tokens/', signedIn, async (request, reply) => tokensPage(request, reply, ctx));

  app.post('/user/api-tokens/', signedIn, async (request, reply) => {
    const rc = request.rc;
    const f = request.formFields ?? {};
    const v2 = f.v2 === 'on';
    const input: Record<string, unknown> = {
      user: rc.user!.id,
      version: v2 ? 2 : 1,
      description: f.description ?? '',
      write_enabled: f.write_enabled === 'on',
      // the form's local time is taken as UTC, as its label says
      expires: f.expires ? `${f.expires}${f.expires.length === 16 ? ':00' : ''}Z` : null,
      allowed_ips: (f.allowed_ips ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
    try {
      const [row] = await inTransaction(rc, (trx) => createObjects(trx, model, [input], false));
      // a v2 token's credential: its key and the secret this create returned (token.model.ts)
      const key = v2 ? `nbt_${String(row!.key)}.${String(row!.token)}` : String(row!.key);
      return tokensPage(request, reply, ctx, { key, v2 }, 201);
    } catch (err) {
      if (err instanceof ApiError && err.statusCode < 500)
        return tokensPage(request, reply, ctx, { errors: errorLines(err.body) }, err.statusCode);
      throw err;
    }
  });

  app.post<{ Params: { id: string } }>('/user/api-tokens/:id/delete/', signedIn, async (request, reply) => {
    const rc = request.rc;
    const id = /^\d{1,15}$/.test(request.params.id) ? Number(request.params.id) : null;
    // only one's own tokens, whatever else the user may delete through the API
    const own =
      id === null
        ? null
        : await listObjects(
            rc,
            model,
            new Map([
              ['user_id', [String(rc.user!.id)]],
              ['id', [String(id)]],
            ]),
          );
    if (id === null || own?.count !== 1) return tokensPage(request, reply, ctx, { errors: ['No such token.'] }, 404);
    try {
      await inTransaction(rc, (trx) => deleteObjects(trx, model, [id!], false));
    } catch (err) {
      if (err instanceof ApiError && err.statusCode < 500)
        return tokensPage(request, reply, ctx, { errors: errorLines(err.body) }, err.statusCode);
      throw err;
    }
    return reply.redirect('/user/api-tokens/', 303);
  });
}
