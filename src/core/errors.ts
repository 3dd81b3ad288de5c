/**
 * Every error the API answers with is made here, once, as a coded constant. The error handler maps
 * an ApiError to its status and NetBox-shaped body (reference section 6); anything else is a 500.
 */
export type ErrorBody = Record<string, unknown> | unknown[];

export class ApiError extends Error {
  /** a bulk write's failing item, by its place in the request (a page names that object) */
  itemIndex?: number;
  constructor(
    readonly code: string,
    readonly statusCode: number,
    readonly body: ErrorBody,
    /** response headers the error needs (Retry-After) */
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(typeof (body as { detail?: unknown }).detail === 'string' ? (body as { detail: string }).detail : code);
  }
}

function createError<A extends unknown[]>(
  code: string,
  statusCode: number,
  toBody: (...args: A) => ErrorBody,
  headers?: Record<string, string>,
) {
  const make = (...args: A) => new ApiError(code, statusCode, toBody(...args), headers);
  make.code = code;
  return make;
}

const detail = (text: string) => ({ detail: text });

/**
 * Seconds a client should wait before retrying after the database failed under it: the pool opens
 * a new connection on the next request, so a restarted or reachable-again server is used at once.
 */
const RETRY_AFTER = { 'Retry-After': '1' };

export const Errors = {
  /** 400 with `{field: [messages]}`, `__all__`, `non_field_errors`, or an array for bulk input */
  validation: createError('INV_ERR_VALIDATION', 400, (body: ErrorBody) => body),
  badRequest: createError('INV_ERR_BAD_REQUEST', 400, (text: string) => detail(text)),
  /** a permission the user holds has a constraint that cannot filter the model asked for */
  permissionConstraint: createError('INV_ERR_PERMISSION_CONSTRAINT', 400, (text: string) => detail(text)),
  jsonParse: createError('INV_ERR_JSON_PARSE', 400, (text: string) => detail(`JSON parse error - ${text}`)),
  /** a user's Jinja2 template failed (syntax, rendering, or a sandbox limit): the client's code, not the service */
  templateError: createError('INV_ERR_TEMPLATE', 400, (text: string) => detail(text)),
  invalidFilter: createError('INV_ERR_INVALID_FILTER', 400, (param: string, message: string) => ({
    [param]: [message],
  })),
  /** a reserved query parameter (limit, offset, brief, ordering) with a value it cannot take */
  invalidParameter: createError('INV_ERR_INVALID_PARAMETER', 400, (param: string, message: string) => ({
    [param]: [message],
  })),
  notAuthenticated: createError('INV_ERR_NOT_AUTHENTICATED', 403, () =>
    detail('Authentication credentials were not provided.'),
  ),
  invalidToken: createError('INV_ERR_INVALID_TOKEN', 403, () => detail('Invalid token')),
  invalidTokenHeader: createError('INV_ERR_INVALID_TOKEN_HEADER', 403, (why: string) =>
    detail(`Invalid token header. ${why}`),
  ),
  /** NetBox 4.5: a v2 token whose key is unknown or whose secret does not match (the same answer for both) */
  invalidV2Token: createError('INV_ERR_INVALID_V2_TOKEN', 403, () => detail('Invalid v2 token')),
  /** NetBox 4.5: `nbt_` with no `.` between key and secret */
  unparsableV2Token: createError('INV_ERR_INVALID_V2_HEADER', 403, () =>
    detail(
      "Invalid authorization header: Could not parse key from v2 token. Did you mean to use 'Token' instead of 'Bearer'?",
    ),
  ),
  /** NetBox 4.5 (#20834): a token switched off with `enabled` */
  tokenDisabled: createError('INV_ERR_TOKEN_DISABLED', 403, () => detail('Token disabled')),
  tokenExpired: createError('INV_ERR_TOKEN_EXPIRED', 403, () => detail('Token expired')),
  userInactive: createError('INV_ERR_USER_INACTIVE', 403, () => detail('User inactive')),
  sourceIpRefused: createError('INV_ERR_SOURCE_IP', 403, (ip: string) =>
    detail(`Source IP ${ip} is not permitted to authenticate using this token.`),
  ),
  permissionDenied: createError('INV_ERR_PERMISSION_DENIED', 403, (text?: string) =>
    detail(text ?? 'You do not have permission to perform this action.'),
  ),
  /** DRF's answer to a session-authenticated unsafe request without a valid CSRF token (http/csrf.ts) */
  csrfFailed: createError('INV_ERR_CSRF_FAILED', 403, (reason: string) => detail(`CSRF Failed: ${reason}`)),
  notFound: createError('INV_ERR_NOT_FOUND', 404, () => detail('Not found.')),
  /** `?export=<name>` names no export template of the list's model (NetBox: a 404) */
  exportTemplateNotFound: createError('INV_ERR_EXPORT_TEMPLATE_NOT_FOUND', 404, (name: string, model: string) =>
    detail(`No export template named "${name}" applies to ${model}.`),
  ),
  methodNotAllowed: createError('INV_ERR_METHOD_NOT_ALLOWED', 405, (method: string) =>
    detail(`Method "${method}" not allowed.`),
  ),
  protectedDelete: createError('INV_ERR_PROTECTED', 409, (text: string) => detail(text)),
  conflict: createError('INV_ERR_CONFLICT', 409, (text: string) => detail(text)),
  /** NetBox 4.6 (#21356): an If-Match that does not list the object's current ETag, which the answer carries */
  preconditionFailed: Object.assign(
    (etag: string) => new ApiError('INV_ERR_PRECONDITION_FAILED', 412, detail('Precondition failed.'), { ETag: etag }),
    { code: 'INV_ERR_PRECONDITION_FAILED' },
  ),
  bodyTooLarge: createError('INV_ERR_BODY_TOO_LARGE', 413, () => detail('Request body is too large.')),
  unsupportedMediaType: createError('INV_ERR_UNSUPPORTED_MEDIA_TYPE', 415, (ct: string) =>
    detail(`Unsupported media type "${ct}" in request.`),
  ),
  /** repeated failed sign-ins from one address for one username (http/sign-in-throttle.ts) */
  signInThrottled: createError('INV_ERR_SIGNIN_THROTTLED', 429, (seconds: number) =>
    detail(`Too many failed sign-in attempts; try again in ${seconds} seconds.`),
  ),
  maintenance: createError('INV_ERR_MAINTENANCE', 503, () =>
    detail('This service is currently in maintenance mode; writes are disabled.'),
  ),
  /** the database refused or dropped the connection, or canceled the statement (db/connection-faults.ts) */
  databaseUnavailable: createError(
    'INV_ERR_DATABASE_UNAVAILABLE',
    503,
    () => detail('The database is unavailable; please retry.'),
    RETRY_AFTER,
  ),
  /** serve --workers: the primary process did not answer a /metrics scrape in time (http/metrics/cluster-scrape.ts) */
  metricsUnavailable: createError(
    'INV_ERR_METRICS_UNAVAILABLE',
    503,
    () => detail("The metrics of the service's worker processes could not be gathered; please retry."),
    RETRY_AFTER,
  ),
  /** a statement ran past STATEMENT_TIMEOUT and the database canceled it (SQLSTATE 57014) */
  statementTimeout: createError(
    'INV_ERR_STATEMENT_TIMEOUT',
    503,
    (seconds: number) =>
      detail(
        `A database statement ran longer than the statement timeout (STATEMENT_TIMEOUT = ${seconds} s) and was canceled; the request changed nothing.`,
      ),
    RETRY_AFTER,
  ),
};

/** Collects field errors while validating one object; `__all__` holds non-field errors. */
export class FieldErrors {
  readonly errors: Record<string, string[]> = {};
  add(field: string, message: string): void {
    (this.errors[field] ??= []).push(message);
  }
  merge(other: Record<string, string[]> | undefined): void {
    if (!other) return;
    for (const [k, msgs] of Object.entries(other)) for (const m of msgs) this.add(k, m);
  }
  get empty(): boolean {
    return Object.keys(this.errors).length === 0;
  }
}
