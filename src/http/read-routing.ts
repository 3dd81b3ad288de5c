/**
 * Reads on replicas (db/replicas/README.md), for deployments with DATABASE_REPLICA_URLS; without
 * them nothing here runs or is registered. A GET or HEAD, or a POST that only reads (GraphQL),
 * gets an executor on a replica that has replayed its user's last write; every write request's
 * user has the primary's WAL position recorded once the request is done, before the response
 * leaves, so the next read of that user, on any process, waits for a replica that has it.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext, AuthUser } from '../core/context.js';
import type { Kdb } from '../db/client.js';
import { isConnectionFault } from '../db/connection-faults.js';
import type { ReplicaRead } from '../db/replicas/replica-set.js';
import type { ReadRoute } from '../db/replicas/routing-pool.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** a read served on a replica: where its statements went */
    readRoute?: ReadRoute;
  }
}

function isRead(request: FastifyRequest): boolean {
  // static assets, /metrics: nothing of a user's to read, so nothing to route
  if (request.routeOptions.config?.noAuth) return false;
  const m = request.method;
  return m === 'GET' || m === 'HEAD' || (m === 'POST' && request.routeOptions.config?.readsOnly === true);
}

/**
 * Runs a lookup that authenticates a request (a token, a session) on the primary, as every such
 * lookup is; when the primary cannot be reached and there are replicas, on one of them instead, so
 * that reads go on while the primary is away (a write fails then anyway, with a 503).
 */
export async function lookupOnPrimaryOrReplica<T>(ctx: AppContext, lookup: (q: Kdb) => Promise<T>): Promise<T> {
  try {
    return await lookup(ctx.db.kysely);
  } catch (e) {
    const replicas = ctx.db.replicas;
    if (!replicas || !isConnectionFault(e)) throw e;
    const read = await replicas.reader(null);
    if (!read) throw e;
    return lookup(read.q);
  }
}

/** The replica a read goes to, or null (the primary): always null without replicas or for a write. */
export async function routeRead(
  ctx: AppContext,
  request: FastifyRequest,
  user: AuthUser | null,
): Promise<ReplicaRead | null> {
  const replicas = ctx.db.replicas;
  if (!replicas || !isRead(request)) return null;
  const read = await replicas.reader(user?.id ?? null);
  if (read) request.readRoute = read.route;
  return read;
}

export function registerReadRouting(app: FastifyInstance, ctx: AppContext, writeMethods: ReadonlySet<string>): void {
  const replicas = ctx.db.replicas;
  if (!replicas) return;
  // onSend runs before the response is written: once the client knows of its write, so does the primary
  app.addHook('onSend', async (request, _reply, payload) => {
    const user = request.rc?.user;
    if (!user) return payload;
    const wrote = request.readRoute
      ? request.readRoute.wrote
      : writeMethods.has(request.method) && !request.routeOptions.config?.readsOnly;
    if (wrote) await replicas.recordWrite(user.id);
    return payload;
  });
}
