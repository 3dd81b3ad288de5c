/**
 * `/graphql/`: the read-only GraphQL API (core/graphql/) on the REST API's authentication - a
 * token or a browser session, LOGIN_REQUIRED, object permissions - answered as JSON; a browser
 * asking for HTML gets GraphiQL (pages/graphiql.page.ts). POST and GET both take a query; a POST
 * only reads, so read-only tokens and maintenance mode allow it (http/request-context.ts), and a
 * session's POST needs the CSRF token like any other. A request is answered in its API dialect
 * (http/dialect.ts), by that dialect's schema. GRAPHQL_ENABLED=false: no route, a 404.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../core/context.js';
import type { GraphqlRequest, runGraphql } from '../core/graphql/execute.js';
import type { GraphqlLimits } from '../core/graphql/limits.js';
import type { schemaFor } from '../core/graphql/schema.js';
import { prefersHtml } from '../http/negotiate.js';
import { sendGraphiql } from './pages/graphiql.page.js';

export function registerGraphql(app: FastifyInstance, ctx: AppContext): void {
  const { config } = ctx;
  if (!config.graphqlEnabled) return;
  // Loaded on first use, and each dialect's schema built the first time a request speaks it
  // (core/graphql/schema.ts schemaFor): a schema of every model takes a few hundred ms, which a
  // process that never answers GraphQL (a test, a worker) need not spend at start. graphql-js reads
  // NODE_ENV once, as it loads: outside production it checks every type test against copies of
  // itself from other realms, a tenth of a large query's CPU (bench/graphql.ts --cpu-prof), so a
  // service whose operator set no NODE_ENV runs it as production.
  let engine: Promise<{ run: typeof runGraphql; schemaFor: typeof schemaFor }> | null = null;
  const load = () =>
    (engine ??= (async () => {
      process.env.NODE_ENV ??= 'production';
      const [schema, { runGraphql: run }] = await Promise.all([
        import('../core/graphql/schema.js'),
        import('../core/graphql/execute.js'),
      ]);
      return { run, schemaFor: schema.schemaFor };
    })());
  const limits: GraphqlLimits = {
    maxDepth: config.graphqlMaxDepth,
    maxAliases: config.graphqlMaxAliases,
    maxCost: config.graphqlMaxCost,
    listCost: config.graphqlListCost,
  };
  const answer = async (request: FastifyRequest, reply: FastifyReply, input: GraphqlRequest) => {
    const { run, schemaFor } = await load();
    const out = await run(request.rc, schemaFor(ctx.registry, request.rc.dialect), input, limits);
    return reply.code(out.status).type('application/json').send(out.body);
  };
  const routeConfig = { allow: 'GET, POST', readsOnly: true };
  app.get<{ Querystring: Record<string, unknown> }>('/graphql/', { config: routeConfig }, async (request, reply) => {
    if (prefersHtml(request)) return sendGraphiql(request, reply);
    const q = request.query;
    return answer(request, reply, { query: q.query, variables: q.variables, operationName: q.operationName });
  });
  app.post('/graphql/', { config: routeConfig }, async (request, reply) => {
    const body = request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return reply
        .code(400)
        .type('application/json')
        .send({ errors: [{ message: 'The body must be a JSON object: {"query": ..., "variables": ...}.' }] });
    }
    return answer(request, reply, body as GraphqlRequest);
  });
}
