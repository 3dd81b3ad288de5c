/**
 * GET and HEAD of a model's list and detail through the response cache
 * (core/query/response-cache.ts). The data version is asked before anything is read, so an entry
 * stored under it can only be older than the data it shows, never newer: a commit that lands
 * while the page is being read makes the next request's version differ, and that request renders
 * again. The key holds everything a body depends on besides the data: the user (permissions), the
 * base URL of the links, the Accept header (indentation) and the path with its query string.
 * A URL asked for the first time is rendered without asking the version and not stored.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';

export async function cachedRead(request: FastifyRequest, reply: FastifyReply, read: () => Promise<unknown>): Promise<unknown> {
  const rc = request.rc;
  const cache = rc.app.responses;
  if (!cache || rc.q.isTransaction) return read();
  const key = `${rc.user?.id ?? 0} ${rc.baseUrl} ${request.headers.accept ?? ''} ${request.url}`;
  if (!cache.seen(key)) return read();
  const version = await rc.app.db.dataVersion();
  const hit = cache.get(key, version);
  if (hit) return reply.type(JSON_TYPE).send(hit);
  // the list total is cached against the same version (core/crud/read.ts)
  rc.dataVersion = version;
  // the reply's serializer: the indented one when the Accept header asked for it (headers.ts)
  const body = Buffer.from(reply.serialize(await read()) as string);
  cache.set(key, version, body);
  return reply.type(JSON_TYPE).send(body);
}
