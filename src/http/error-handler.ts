/**
 * Maps every error to NetBox's body shapes (reference 6): ApiErrors carry their own status and body;
 * Fastify's parser errors become 400/413/415; database constraint races become 400/409; a database
 * that went away, a server that is read-only now (a standby) or a statement past STATEMENT_TIMEOUT become a 503 with Retry-After. Anything
 * else is logged and answered with a 500 that reveals nothing.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, Errors } from '../core/errors.js';
import { isCanceled, isConnectionFault, isReadOnlyServer, isStatementTimeout } from '../db/connection-faults.js';

interface PgError {
  code?: string;
  detail?: string;
  constraint?: string;
}

function translate(err: FastifyError & PgError, statementTimeoutSec: number): ApiError | null {
  if (err instanceof ApiError) return err;
  if (isStatementTimeout(err)) return Errors.statementTimeout(statementTimeoutSec);
  if (isConnectionFault(err) || isCanceled(err) || isReadOnlyServer(err)) return Errors.databaseUnavailable();
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return Errors.bodyTooLarge();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return Errors.unsupportedMediaType(String(err.message.match(/'([^']*)'/)?.[1] ?? 'unknown'));
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return Errors.jsonParse('Expecting value: line 1 column 1 (char 0)');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return Errors.jsonParse(err.message);
    case '23505': // unique_violation: a concurrent write won the race past our pre-checks
      return Errors.validation({
        __all__: [`An object with these values already exists (${err.constraint ?? 'unique'}).`],
      });
    case '23503': // foreign_key_violation
      return Errors.conflict(`The operation conflicts with related objects (${err.constraint ?? 'foreign key'}).`);
    case '23514': // check_violation
      return Errors.validation({ __all__: [`Invalid value: ${err.message}`] });
    case '40001': // serialization_failure
    case '40P01': // deadlock_detected
      return Errors.conflict('The request conflicted with a concurrent change; please retry.');
  }
  // SQLSTATE class 22, data exceptions (out of range, bad text representation, null characters...):
  // the input was unacceptable to the database, so it is the client's error
  if (typeof err.code === 'string' && /^22[0-9A-Z]{3}$/.test(err.code)) {
    return Errors.validation({ __all__: [`Invalid value: ${err.message}`] });
  }
  if (err.statusCode === 400 && err instanceof SyntaxError) return Errors.jsonParse(err.message);
  if (err.statusCode === 404) return Errors.notFound();
  return null;
}

export function errorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const api = translate(err as FastifyError & PgError, request.server.inventory?.config.statementTimeout ?? 0);
  if (api) {
    if (api.statusCode >= 500) request.log.warn({ code: api.code, cause: err.message }, api.message);
    return reply.code(api.statusCode).headers(api.headers).type('application/json').send(api.body);
  }
  request.log.error({ err }, 'unhandled error');
  return reply.code(500).type('application/json').send({ detail: 'Internal server error.', request_id: request.id });
}
