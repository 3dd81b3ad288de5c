/**
 * Routes of the users app beyond the generic ones: token provisioning (spec: Authentication 12;
 * reference 7.3) and the caller's preferences (`/api/users/config/`).
 */
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { AppContext, AuthUser } from '../../core/context.js';
import type { RouteDoc } from '../../core/openapi/types.js';
import { inTransaction } from '../../core/crud/routes.js';
import { createObjects } from '../../core/crud/write-service.js';
import { Errors } from '../../core/errors.js';
import { renderWritten } from '../../core/represent/render-written.js';
import { detailUrl } from '../../core/urls.js';
import { checkPassword } from './password.js';

function deepMerge(target: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const out = { ...target };
  for (const [k, v] of Object.entries(patch)) {
    const cur = out[k];
    out[k] =
      v && typeof v === 'object' && !Array.isArray(v) && cur && typeof cur === 'object' && !Array.isArray(cur)
        ? deepMerge(cur as Record<string, unknown>, v as Record<string, unknown>)
        : v;
  }
  return out;
}

export function registerUserRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.route({
    // every method is routed, or GET would reach tokens/:id/ (a 404): the others answer NetBox's 405
    method: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    url: '/api/users/tokens/provision/',
    config: { public: true, noAuth: true, allow: 'POST, OPTIONS' },
    handler: async (request, reply) => {
      if (request.method !== 'POST' && request.method !== 'OPTIONS') throw Errors.methodNotAllowed(request.method);
      if (request.method === 'OPTIONS')
        return {
          name: 'Token Provision',
          description: '',
          renders: ['application/json'],
          parses: ['application/json'],
        };
      const body = (request.body ?? {}) as Record<string, unknown>;
      const { username, password } = body;
      if (typeof username !== 'string' || typeof password !== 'string' || !username || !password) {
        throw Errors.permissionDenied('Username and password must be provided to provision a token.');
      }
      const res = await sql<
        AuthUser & { password: string }
      >`select id, username, password, is_superuser, is_active, is_staff
        from users_user where username = ${username}`.execute(ctx.db.kysely);
      const found = res.rows[0];
      const valid = await checkPassword(password, found?.password);
      if (!found?.is_active || !valid) {
        throw Errors.permissionDenied('Invalid username/password');
      }
      const user: AuthUser = {
        id: Number(found.id),
        username: found.username,
        is_superuser: found.is_superuser,
        is_active: found.is_active,
        is_staff: found.is_staff,
      };
      const rc = { ...request.rc, user };
      const model = ctx.registry.get('users.token');
      const input: Record<string, unknown> = { user: user.id, write_enabled: true };
      // NetBox 4.5 TokenProvisionSerializer also takes version, enabled and token (v1 stays the default: token.model.ts)
      for (const k of ['version', 'expires', 'enabled', 'write_enabled', 'description', 'allowed_ips', 'token'])
        if (k in body) input[k] = body[k];
      const out = await inTransaction(rc, async (trx) =>
        renderWritten(trx, model, await createObjects(trx, model, [input], false), { created: true }),
      );
      reply.code(201).header('Location', detailUrl(rc.baseUrl, model, out[0]!.id));
      return out[0];
    },
  });

  app.route({
    method: ['GET', 'HEAD', 'PATCH', 'OPTIONS'],
    url: '/api/users/config/',
    config: { allow: 'GET, PATCH, HEAD, OPTIONS' },
    handler: async (request) => {
      const rc = request.rc;
      if (!rc.user) throw Errors.notAuthenticated();
      if (request.method === 'OPTIONS')
        return { name: 'User Config', description: '', renders: ['application/json'], parses: ['application/json'] };
      const current = await sql<{
        data: Record<string, unknown>;
      }>`select data from users_userconfig where user_id = ${rc.user.id}`.execute(rc.q);
      const data = current.rows[0]?.data ?? {};
      if (request.method !== 'PATCH') return data;
      const patch = request.body;
      if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) {
        throw Errors.validation({ non_field_errors: ['Invalid data. Expected a dictionary.'] });
      }
      const merged = deepMerge(data, patch as Record<string, unknown>);
      await sql`insert into users_userconfig (user_id, data) values (${rc.user.id}, ${JSON.stringify(merged)}::jsonb)
        on conflict (user_id) do update set data = excluded.data`.execute(rc.q);
      return merged;
    },
  });
}

const DETAIL = { $ref: '#/components/schemas/Detail' };
const CONFIG = { type: 'object', additionalProperties: true };

/** The routes above in the OpenAPI document. */
export const USER_ROUTE_DOCS: RouteDoc[] = [
  {
    path: '/api/users/tokens/provision/',
    method: 'post',
    operationId: 'users_tokens_provision_create',
    tag: 'users',
    summary: 'Create a token from a username and password (spec: Authentication 12)',
    public: true,
    requestBody: {
      type: 'object',
      properties: {
        username: { type: 'string' },
        password: { type: 'string', writeOnly: true },
        version: { type: 'integer', enum: [1, 2], default: 1 },
        expires: { type: 'string', format: 'date-time', nullable: true },
        enabled: { type: 'boolean' },
        write_enabled: { type: 'boolean' },
        description: { type: 'string' },
        allowed_ips: { type: 'array', items: { type: 'string' } },
        token: { type: 'string', pattern: '^[0-9a-zA-Z]{40}$' },
      },
      required: ['username', 'password'],
    },
    responses: {
      201: { $model: 'users.token', form: 'full' },
      400: { $ref: '#/components/schemas/ValidationError' },
      403: DETAIL,
    },
  },
  {
    path: '/api/users/config/',
    method: 'get',
    operationId: 'users_config_retrieve',
    tag: 'users',
    summary: "The caller's preferences",
    responses: { 200: CONFIG, 403: DETAIL },
  },
  {
    path: '/api/users/config/',
    method: 'patch',
    operationId: 'users_config_partial_update',
    tag: 'users',
    summary: "Merge into the caller's preferences",
    requestBody: CONFIG,
    responses: { 200: CONFIG, 400: { $ref: '#/components/schemas/ValidationError' }, 403: DETAIL },
  },
];
