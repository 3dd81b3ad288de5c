/**
 * One GraphQL request, from its text to the answer's status and body: parse (bounded), refuse
 * anything but a query (the API is read-only), validate with the standard rules and the limits
 * (limits.ts) before any SQL, then execute with a fresh per-request context (batch.ts). Errors a
 * client caused become GraphQL errors; anything else (the database went away) is thrown on to the
 * HTTP error handler, so it answers 503 or a 500 that reveals nothing, as REST does.
 */
import {
  execute,
  getOperationAST,
  GraphQLError,
  Kind,
  parse,
  type GraphQLSchema,
  type OperationDefinitionNode,
  specifiedRules,
  validate,
  type DocumentNode,
} from 'graphql';
import type { RequestContext } from '../context.js';
import { ApiError } from '../errors.js';
import type { GraphqlContext } from './batch.js';
import { type GraphqlLimits, limitsRule } from './limits.js';

export interface GraphqlRequest {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface GraphqlAnswer {
  status: number;
  body: { data?: unknown; errors?: unknown[] };
}

// a document this long in tokens is far past any real query; parsing stops there
const MAX_TOKENS = 20_000;

const refuse = (message: string, code = 'BAD_REQUEST'): GraphqlAnswer => ({
  status: 400,
  body: { errors: [new GraphQLError(message, { extensions: { code } }).toJSON()] },
});

function readVariables(raw: unknown): Record<string, unknown> | string {
  if (raw === undefined || raw === null || raw === '') return {};
  let v = raw;
  if (typeof raw === 'string') {
    try {
      v = JSON.parse(raw);
    } catch {
      return 'Variables are invalid JSON.';
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : 'Variables must be an object.';
}

/** A client's error in a resolver stays a GraphQL error; an unexpected one is thrown to the HTTP layer. */
function clientErrors(errors: readonly GraphQLError[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const e of errors) {
    const original = e.originalError;
    if (original && !(original instanceof GraphQLError) && !(original instanceof ApiError && original.statusCode < 500))
      throw original;
    const message = original instanceof ApiError ? original.message : e.message;
    // the same bad argument of a nested list fails once per parent: say it once
    if (seen.has(message)) continue;
    seen.add(message);
    out.push({ ...e.toJSON(), message });
  }
  return out;
}

/**
 * Introspection answers, per schema and query text. They depend on nothing but the schema, and
 * the schema's is large (every list takes every REST filter of its model: ~8 MB, ~1 s to compute);
 * GraphiQL asks for it on every page load.
 */
const introspections = new WeakMap<GraphQLSchema, Map<string, GraphqlAnswer>>();

function isIntrospection(operation: OperationDefinitionNode | null | undefined): boolean {
  return (
    !!operation &&
    operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'))
  );
}

function remember(schema: GraphQLSchema, key: string, answer: GraphqlAnswer): void {
  let map = introspections.get(schema);
  if (!map) introspections.set(schema, (map = new Map()));
  // query texts are client input: keep a few
  if (map.size < 8) map.set(key, answer);
}

export async function runGraphql(
  rc: RequestContext,
  schema: GraphQLSchema,
  request: GraphqlRequest,
  limits: GraphqlLimits,
): Promise<GraphqlAnswer> {
  if (typeof request.query !== 'string' || request.query.trim() === '') return refuse('Must provide a query string.');
  const variables = readVariables(request.variables);
  if (typeof variables === 'string') return refuse(variables);
  const operationName =
    typeof request.operationName === 'string' && request.operationName ? request.operationName : undefined;
  let document: DocumentNode;
  try {
    document = parse(request.query, { maxTokens: MAX_TOKENS });
  } catch (err) {
    if (err instanceof GraphQLError) return { status: 400, body: { errors: [err.toJSON()] } };
    // graphql-js parses values by recursion: a literal nested a few thousand levels deep (within
    // MAX_TOKENS) exhausts the stack before anything else can refuse it
    if (err instanceof RangeError) return refuse('The query is nested too deeply to be read.', 'QUERY_TOO_DEEP');
    throw err;
  }
  const operation = getOperationAST(document, operationName);
  if (operation && operation.operation !== 'query') {
    return refuse(`This API is read-only: a ${operation.operation} is not allowed, only queries.`, 'READ_ONLY');
  }
  const problems = validate(schema, document, [...specifiedRules, limitsRule(limits, variables)]);
  if (problems.length) return { status: 400, body: { errors: problems.map((p) => p.toJSON()) } };
  const introspection = isIntrospection(operation) && Object.keys(variables).length === 0;
  const key = `${operationName ?? ''}\u0000${request.query}`;
  const known = introspection ? introspections.get(schema)?.get(key) : undefined;
  if (known) return known;
  const g: GraphqlContext = { rc, scopes: new Map() };
  const result = await execute({ schema, document, variableValues: variables, operationName, contextValue: g });
  const body: GraphqlAnswer['body'] = {};
  if (result.errors?.length) body.errors = clientErrors(result.errors);
  if ('data' in result) body.data = result.data;
  // no data at all: the request itself was wrong (variables of the wrong type)
  const answer = { status: 'data' in result ? 200 : 400, body };
  if (introspection && !body.errors) remember(schema, key, answer);
  return answer;
}
