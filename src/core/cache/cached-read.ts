/**
 * GET and HEAD of a model's list and detail through the response cache (response-cache.ts). The
 * data version is asked before anything is read, so an entry stored under it can only be older
 * than the data it shows, never newer: a commit that lands while the page is being read makes the
 * next request's version differ, and that request renders again. The key holds everything a body
 * depends on besides the data: the user (permissions), the API dialect (a token's own included),
 * the base URL of the links, the Accept header (indentation) and the path with its query string.
 * A URL asked for the first time is rendered without asking the version and not stored. While the
 * change listener is down (db/change-watch.ts) nothing is served or stored: a body also depends on
 * the token and custom-field caches, which then cannot hear of other processes' writes.
 * A detail's ETag (crud/etag.ts) is stored with its body, so a cached answer carries the tag of the
 * object it shows.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

const JSON_TYPE = 'application/json; charset=utf-8';

/** What a read answers: its body, and the ETag of the object it shows (a detail's) */
interface ReadAnswer {
  body: unknown;
  etag?: string | null;
}

export async function cachedRead(
  request: FastifyRequest,
  reply: FastifyReply,
  read: () => Promise<ReadAnswer>,
): Promise<unknown> {
  const rc = request.rc;
  const cache = rc.app.responses;
  const answer = async () => {
    const { body, etag } = await read();
    if (etag) reply.header('ETag', etag);
    return body;
  };
  if (!cache || rc.q.isTransaction || !rc.app.db.changes.reliable) return answer();
  const key = `${rc.user?.id ?? 0} ${rc.dialect} ${rc.baseUrl} ${request.headers.accept ?? ''} ${request.url}`;
  if (!cache.seen(key)) return answer();
  // a read on a replica has its version already: the replica's snapshot (http/read-routing.ts)
  const version = rc.dataVersion ?? (await rc.app.db.dataVersion());
  const hit = cache.get(key, version);
  if (hit) {
    if (hit.etag) reply.header('ETag', hit.etag);
    return reply.type(JSON_TYPE).send(hit.body);
  }
  // the list total and the custom field definitions are cached against the same version
  rc.dataVersion = version;
  const { body: data, etag = null } = await read();
  // the reply's serializer: the indented one when the Accept header asked for it (http/headers.ts)
  const body = Buffer.from(reply.serialize(data) as string);
  cache.set(key, version, { body, etag });
  if (etag) reply.header('ETag', etag);
  return reply.type(JSON_TYPE).send(body);
}
