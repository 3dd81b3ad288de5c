/**
 * Which API dialect a request is answered in (core/model/dialect.ts): the version its Accept header
 * asks for (`application/json; version=4.4`, NetBox's own mechanism), else its token's
 * `api_dialect`, else the deployment's API_DIALECT. Browser sessions follow the deployment. The
 * `API-Version` header announces the choice, and version-aware clients (pynetbox, the Ansible
 * collection) shape what they send by it.
 */
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { AuthToken } from '../core/context.js';
import { type Dialect, isDialect } from '../core/model/dialect.js';

const VERSION_PARAM = /application\/json[^,]*;\s*version=([^\s;,]+)/;

/** The dialect an Accept header asks for: none, one served, or one this service does not speak. */
export function requestedDialect(accept: string | undefined): Dialect | null | 'unsupported' {
  const m = accept ? VERSION_PARAM.exec(accept) : null;
  if (!m) return null;
  return isDialect(m[1]) ? m[1] : 'unsupported';
}

export function dialectOf(request: FastifyRequest, token: AuthToken | null, config: Config): Dialect {
  const asked = requestedDialect(request.headers.accept);
  if (asked && asked !== 'unsupported') return asked;
  return token?.api_dialect ?? config.apiDialect;
}
