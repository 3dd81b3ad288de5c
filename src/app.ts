/**
 * buildApp(config) assembles the service and never listens; serve/ listens (single.ts,
 * cluster-worker.ts), tests inject().
 */
import { requestId } from './http/request-id.js';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import pino from 'pino';
import { registerAllModels } from './apps/index.js';
import type { Config } from './config.js';
import type { AppContext, RequestContext } from './core/context.js';
import { createCountCache } from './core/cache/count-cache.js';
import { createCustomFieldCache } from './core/cache/custom-field-cache.js';
import { createResponseCache } from './core/cache/response-cache.js';
import { registerModelRoutes } from './core/crud/routes.js';
import { Registry } from './core/model/registry.js';
import type { Database } from './db/client.js';
import { createTokenCache } from './http/auth.js';
import { registerJsonParser } from './http/body-parser.js';
import { registerFormParser } from './http/form-body.js';
import { MULTIPART_FIELDS_ROOM, registerMultipartParser, uploadRouteUrls } from './http/multipart-body.js';
import { registerRequestContext } from './http/request-context.js';
import { onClientError, onFrameworkError, registerConnectionErrors } from './http/client-errors.js';
import { errorHandler } from './http/error-handler.js';
import { registerDrain } from './http/drain.js';
import { registerHeaders } from './http/headers.js';
import { documentOptions, registerApiDocs } from './http/api-docs.js';
import { createMetrics, registerMetrics } from './http/metrics/index.js';
import { registerRootRoutes } from './http/root.routes.js';
import { registerNotFound } from './http/not-found.js';
import { registerBrowsableApi } from './web/browsable/index.js';
import { overrideFormMethod } from './web/browsable/method-override.js';
import { registerWeb } from './web/index.js';
import { importRouteUrls } from './web/model-pages/index.js';
import { attachEventWorker } from './core/events/index.js';
import { startChangelogUpkeep } from './db/changelog-partitions.js';
import { startOutboxUpkeep } from './db/outbox-partitions.js';
import { registerGraphql } from './web/graphql.routes.js';
import { registerBackupRoute } from './backup/backup.routes.js';
import { createTemplatePool } from './core/templates/template-pool.js';

declare module 'fastify' {
  interface FastifyRequest {
    rc: RequestContext;
  }
  interface FastifyInstance {
    /** the app-wide context (database, config, registry, caches) */
    inventory: AppContext;
  }
  interface FastifyContextConfig {
    /** answers without a token even when LOGIN_REQUIRED (API root, token provisioning) */
    public?: boolean;
    /** skips token authentication entirely (token provisioning) */
    noAuth?: boolean;
    /** the Allow header of the route */
    allow?: string;
  }
}

export interface BuildOptions {
  db: Database;
  logger?: pino.Logger;
  /** run a webhook worker in this process (core/events/worker.ts); stopped when the app closes */
  eventWorker?: boolean;
  /** one of `serve --workers N` (src/serve/): /metrics answers for every worker process */
  clusterWorker?: boolean;
}

export async function buildApp(config: Config, opts: BuildOptions): Promise<FastifyInstance> {
  const log = opts.logger ?? pino({ level: config.logLevel });
  const app: FastifyInstance = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    // one log line per request, written in onResponse below
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => requestId(),
    bodyLimit: config.bodyLimit,
    trustProxy: config.trustedProxies as string[],
    exposeHeadRoutes: false,
    // a request that got in before the close is served (http/drain.ts)
    return503OnClosing: false,
    // errors raised before routing answer in NetBox's shape with the common headers
    clientErrorHandler: onClientError,
    frameworkErrors: onFrameworkError,
    // the browsable API's forms post `?_method=PUT|PATCH|DELETE`: routed as that method
    rewriteUrl: overrideFormMethod,
  });
  registerConnectionErrors(app.server);
  const registry = new Registry();
  const metrics = config.metricsEnabled ? createMetrics() : null;
  // the caches and their one freshness rule: core/cache/README.md
  const tokenCache = createTokenCache();
  const ctx: AppContext = {
    db: opts.db,
    config,
    registry,
    log,
    customFields: createCustomFieldCache(),
    counts: createCountCache(),
    responses: config.responseCacheMb > 0 ? createResponseCache(config.responseCacheMb * 1024 * 1024) : null,
    modelWrites: metrics?.writes ?? null,
    wakeEventWorker: null,
    // its sandbox processes start on the first render
    templates: createTemplatePool(),
  };
  const special = registerAllModels(registry);
  registry.freeze();

  registerHeaders(app, config);
  registerBrowsableApi(app);
  registerDrain(app);
  registerJsonParser(app);
  registerFormParser(app);
  const uploadMax = config.imageAttachmentMaxSize + MULTIPART_FIELDS_ROOM;
  // an import's file over IMPORT_MAX_BYTES is refused by the page with its message; only a body
  // over the service's limit is refused before it is read
  const importMax = Math.max(config.bodyLimit, config.importMaxBytes + MULTIPART_FIELDS_ROOM);
  registerMultipartParser(app, {
    routes: new Map([
      ...[...uploadRouteUrls(registry)].map((url) => [url, uploadMax] as const),
      ...importRouteUrls(registry).map((url) => [url, importMax] as const),
    ]),
  });
  app.setErrorHandler(errorHandler);
  registerNotFound(app);
  app.decorateRequest('rc', null as unknown as RequestContext);
  app.decorate('inventory', ctx);

  app.addHook('onRequest', async (request, reply) => {
    reply.header('Allow', request.routeOptions.config?.allow ?? 'GET, HEAD, OPTIONS');
  });

  registerRequestContext(app, ctx, tokenCache);

  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        user: request.rc?.user?.username,
      },
      'request',
    );
  });

  if (metrics) registerMetrics(app, ctx, metrics, opts.clusterWorker ?? false);
  registerRootRoutes(app, ctx, special.extraEndpoints);
  registerApiDocs(app, documentOptions(registry, special.docs));
  for (const model of registry.all()) registerModelRoutes(app, model);
  for (const register of special.routes) register(app, ctx);
  registerGraphql(app, ctx);
  registerBackupRoute(app, ctx);
  registerWeb(app, ctx);
  app.addHook('onClose', async () => ctx.templates.close());
  if (opts.eventWorker) {
    const worker = attachEventWorker(ctx);
    app.addHook('onClose', async () => worker.stop());
    // the processes that deliver webhooks also keep the change log's months (db/changelog-partitions.ts)
    const stopUpkeep = startChangelogUpkeep(opts.db.kysely, config.changelogRetention, (err) =>
      app.log.warn({ err }, 'change log upkeep failed; trying again tomorrow'),
    );
    app.addHook('onClose', async () => stopUpkeep());
    // and the outbox's days, which replace the worker's delete of old deliveries (db/outbox-partitions.ts)
    const stopOutbox = startOutboxUpkeep(opts.db.kysely, config.events.retentionDays, (err) =>
      app.log.warn({ err }, 'webhook outbox upkeep failed; trying again within the hour'),
    );
    app.addHook('onClose', async () => stopOutbox());
  }
  return app;
}
