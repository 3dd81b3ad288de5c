/**
 * How the demo loader (demo-data.ts) reaches the REST API: in the same process through
 * app.inject() with a superuser made for the load and removed after it (`inventory demo-data` on a
 * stopped service, `serve --demo` before it listens), or over HTTP with a token against a service
 * that runs (`inventory demo-data --url http://127.0.0.1:8000 --token <key>`), so nobody has to
 * stop the service: PGlite's data directory is open in one process only.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { createSuperuser } from './bootstrap.js';
import type { Database } from './db/client.js';

type Json = Record<string, unknown>;

/** one API request; `path` below /api/ (`dcim/sites/?slug=fra1`) */
export type DemoRequest = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: string }>;

/** an answer's JSON, read by the loader as the API documents it (demo-physical.ts reads ports by name) */
// biome-ignore lint/suspicious/noExplicitAny: the loader walks answers it just created; a schema per call would add nothing
type Answer = any;

export interface DemoApi {
  post(path: string, body: Json | Json[]): Promise<Answer>;
  patch(path: string, body: Json): Promise<Answer>;
  /** the results of a list (`path` with its query string) */
  get(path: string): Promise<Json[]>;
}

const EXPECTED: Record<string, number> = { POST: 201, PATCH: 200, GET: 200 };

/** the loader's calls over one request function; an unexpected status stops the load with the answer */
export function demoApi(request: DemoRequest): DemoApi {
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await request(method, path, body);
    if (res.status !== EXPECTED[method])
      throw new Error(`${method} /api/${path} answered ${res.status}: ${res.body.slice(0, 500)}`);
    return JSON.parse(res.body);
  };
  return {
    post: (path, body) => call('POST', `${path}/`, body),
    patch: (path, body) => call('PATCH', path, body),
    get: async (path) => (await call('GET', path)).results,
  };
}

/** requests over HTTP to a running service, authenticated by a token that may write */
export function httpRequest(baseUrl: string, token: string): DemoRequest {
  const base = baseUrl.replace(/\/+$/, '');
  return async (method, path, body) => {
    const res = await fetch(`${base}/api/${path}`, {
      method,
      headers: {
        authorization: `Token ${token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: await res.text() };
  };
}

/**
 * Runs `load` with requests into `app` in this process, as a superuser created for it (a token of
 * its own, so no one's password is needed) and deleted once the load ends, whatever its outcome.
 */
export async function withInProcessApi<T>(
  app: FastifyInstance,
  db: Database,
  load: (request: DemoRequest) => Promise<T>,
): Promise<T> {
  const key = randomBytes(20).toString('hex');
  const userId = await createSuperuser(
    db.kysely,
    `demo-loader-${randomBytes(3).toString('hex')}`,
    randomBytes(16).toString('hex'),
    key,
  );
  const request: DemoRequest = async (method, path, body) => {
    const res = await app.inject({
      method: method as 'GET',
      url: `/api/${path}`,
      ...(body === undefined ? {} : { payload: body as object }),
      headers: { authorization: `Token ${key}` },
    });
    return { status: res.statusCode, body: res.body };
  };
  try {
    return await load(request);
  } finally {
    await sql`delete from users_user where id = ${userId}`.execute(db.kysely);
  }
}

/** true when the inventory holds no site yet: `serve --demo` loads the demo network only then */
export async function inventoryIsEmpty(db: Database): Promise<boolean> {
  const res = await sql<{ any: boolean }>`select exists (select 1 from dcim_site) as any`.execute(db.kysely);
  return !res.rows[0]?.any;
}
