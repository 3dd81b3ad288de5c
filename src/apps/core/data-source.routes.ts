/**
 * `POST /api/core/data-sources/<id>/sync/` (NetBox 3.7 DataSourceViewSet.sync): syncs the data
 * source and answers it as the detail view does. NetBox checks `core.sync_datasource` against the
 * object; here the same permission, with its constraints, from users' object permissions.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../core/context.js';
import { assertWithinConstraints, requirePermission } from '../../core/auth/permissions.js';
import { parseId, queryParams } from '../../core/crud/routes.js';
import { fetchOne, getObject } from '../../core/crud/read.js';
import { Errors } from '../../core/errors.js';
import type { RouteDoc } from '../../core/openapi/types.js';
import { syncDataSource } from './data-source-sync.js';

const NO_SYNC_PERMISSION = 'This user does not have permission to synchronize this data source.';

export function registerDataSourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const model = ctx.registry.get('core.datasource');
  app.post<{ Params: { id: string } }>(
    '/api/core/data-sources/:id/sync/',
    { config: { allow: 'POST' } },
    async (request) => {
      const rc = request.rc;
      const id = parseId(request.params.id);
      await fetchOne(rc, model, id, await requirePermission(rc, model, 'view'));
      try {
        await assertWithinConstraints(rc, model, await requirePermission(rc, model, 'sync'), [id]);
      } catch (e) {
        if ((e as { code?: string }).code === Errors.permissionDenied.code)
          throw Errors.permissionDenied(NO_SYNC_PERMISSION);
        throw e;
      }
      await syncDataSource(rc, id);
      return getObject(rc, model, id, queryParams(request));
    },
  );
}

const DETAIL = { $ref: '#/components/schemas/Detail' };

export const DATA_SOURCE_DOCS: RouteDoc[] = [
  {
    path: '/api/core/data-sources/{id}/sync/',
    method: 'post',
    operationId: 'core_data_sources_sync_create',
    tag: 'core',
    summary: 'Sync the data source now: its data files made to match its directory (needs core.sync_datasource)',
    parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
    responses: { 200: { $model: 'core.datasource', form: 'full' }, 400: DETAIL, 403: DETAIL, 404: DETAIL, 409: DETAIL },
  },
];
