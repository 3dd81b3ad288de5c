/**
 * Uploaded files served back at their URL, `/media/<folder>/<file>` (NetBox 3.7 serves MEDIA_ROOT
 * through Django so that LOGIN_REQUIRED applies: here the common request checks do the same, and a
 * token is accepted as well as a session). Only names the media store could have made are looked
 * up (no `..`, no hidden files, no links followed); the type comes from the bytes, never from the
 * name, and the browser is told not to sniff it nor run anything in it.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import { mimeOf } from '../../core/media/image-info.js';
import { resolveStored } from '../../core/media/media-store.js';

async function readStored(path: string): Promise<Buffer | null> {
  try {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      if (!(await handle.stat()).isFile()) return null;
      return await handle.readFile();
    } finally {
      await handle.close();
    }
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR' || code === 'EISDIR') return null;
    throw err;
  }
}

export function registerMediaRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/media/*',
    config: { allow: 'GET, HEAD' },
    handler: async (request: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply) => {
      const path = resolveStored(ctx.config.mediaRoot, request.params['*'] ?? '');
      const bytes = path ? await readStored(path) : null;
      if (!bytes) throw Errors.notFound();
      return reply
        .type(mimeOf(bytes))
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; sandbox")
        .header('Cache-Control', 'private, no-cache')
        .send(bytes);
    },
  });
}
