/**
 * `GET /api/core/backup/`: the backup file, streamed by the running service (superusers only).
 * The way to back up the embedded PGlite while it serves: no other process may open its DATA_DIR
 * (serve/worker-count.ts), so `inventory backup FILE --url URL --token KEY` asks the service. The
 * snapshot holds PGlite's one connection while it streams: other requests wait their turn.
 */
import type { FastifyInstance } from 'fastify';
import { createGzip } from 'node:zlib';
import type { AppContext } from '../core/context.js';
import { Errors } from '../core/errors.js';
import type { RouteDoc } from '../core/openapi/types.js';
import { streamBackup } from './backup.js';

export const BACKUP_PATH = '/api/core/backup/';

/** its entry in the OpenAPI document (listed by apps/core) */
export const BACKUP_DOC: RouteDoc = {
  path: BACKUP_PATH,
  method: 'get',
  operationId: 'core_backup_retrieve',
  tag: 'core',
  summary:
    "The whole inventory as a backup file (gzip'd JSON Lines; `inventory restore FILE` loads it). Superusers only.",
  produces: 'application/gzip',
  responses: {
    200: { type: 'string', format: 'binary' },
    403: { $ref: '#/components/schemas/Detail' },
  },
};

export function registerBackupRoute(app: FastifyInstance, ctx: AppContext): void {
  app.get(BACKUP_PATH, async (request, reply) => {
    const user = request.rc.user;
    if (!user) throw Errors.notAuthenticated();
    // the whole database, users' password hashes and tokens included: superusers only
    if (!user.is_superuser) throw Errors.permissionDenied('Only a superuser may download a backup.');
    const gzip = createGzip();
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, '-');
    streamBackup(ctx.db, gzip, { mediaRoot: ctx.config.mediaRoot }).catch((err: unknown) => {
      // the stream is destroyed: the client gets a file without its trailer, which restore refuses
      request.log.error({ err }, 'backup stream failed');
    });
    return reply
      .header('content-type', 'application/gzip')
      .header('content-disposition', `attachment; filename="inventory-backup-${stamp}.jsonl.gz"`)
      .header('cache-control', 'no-store')
      .send(gzip);
  });
}
