/**
 * Synced data (NetBox 3.7 SyncedDataMixin): an object whose content comes from a data file of a
 * data source. Config contexts take their `data` from a YAML or JSON file, config and export
 * templates their `template_code` from a text file.
 *
 * - Naming a `data_file` (NetBox: clean()) copies the file into the object on every save, and sets
 *   `data_source` and `data_path` from the file and `data_synced` to now; without one, the four are
 *   cleared (and `auto_sync_enabled`). A `data_source` written alone is overwritten, as in NetBox.
 * - `POST <list>/<id>/sync/` copies the file again (permission `<app>.sync_<model>`).
 * - `auto_sync_enabled` (NetBox keeps it on the model and sets it in its forms; the 3.7 API leaves it
 *   out, 4.x shows it): a sync of the data source copies changed files into the objects that ask
 *   for it, in the sync's transaction (autoSyncObjects, called by data-source-sync.ts). An object
 *   whose new content is not valid is left as it was and named in the sync job's data.
 */
import { servedIn } from '../../core/model/dialect.js';
import { sql } from 'kysely';
import { parse as parseYaml } from 'yaml';
import type { FastifyInstance } from 'fastify';
import type { AppContext, RequestContext } from '../../core/context.js';
import { assertWithinConstraints, requirePermission } from '../../core/auth/permissions.js';
import { inTransaction, parseId, queryParams } from '../../core/crud/routes.js';
import { fetchOne, getObject } from '../../core/crud/read.js';
import { updateObjects } from '../../core/crud/write-service.js';
import { Errors } from '../../core/errors.js';
import type { CustomFilter, FieldDef, ModelDef, WriteHookArgs, Row } from '../../core/model/types.js';
import type { RouteDoc } from '../../core/openapi/types.js';
import { relatedFilter } from '../../core/query/related-filter.js';
import { readDataFile, textOf } from './data-file-content.js';

/** what the file becomes: a JSON object (config contexts' data) or text (template code) */
type SyncedKind = 'object' | 'text';

export interface SyncedData {
  /** the field the file's content is copied into */
  target: string;
  kind: SyncedKind;
}

/** the models with synced data, by model name (filled as the models are declared) */
const SYNCED = new Map<string, SyncedData>();

/** NetBox 3.7 SyncedDataMixin's fields */
export function syncedDataFields(): Record<string, FieldDef> {
  return {
    data_source: {
      kind: 'fk',
      to: 'core.datasource',
      nullable: true,
      onDelete: 'protect',
      noFilter: true,
      help: 'Remote data source',
    },
    data_path: {
      kind: 'string',
      maxLength: 1000,
      readOnly: true,
      help: 'Path to remote file (relative to data source root)',
    },
    data_file: { kind: 'fk', to: 'core.datafile', nullable: true, onDelete: 'set_null', noFilter: true },
    auto_sync_enabled: {
      kind: 'boolean',
      default: false,
      help: 'Enable automatic synchronization of data when the data file is updated',
    },
    data_synced: { kind: 'datetime', nullable: true, readOnly: true, label: 'date synced' },
  };
}

/** NetBox 3.7 SyncedDataFilterSet: `data_source_id`, `data_file_id` (and `data_synced`, a field filter) */
export function syncedDataFilters(): Record<string, CustomFilter> {
  return {
    data_source_id: relatedFilter(['data_source'], { byId: true }),
    data_file_id: relatedFilter(['data_file'], { byId: true }),
  };
}

/** declares a model's synced data (called where the model is defined) */
export function registerSyncedData(modelName: string, spec: SyncedData): SyncedData {
  SYNCED.set(modelName, spec);
  return spec;
}

type Content = { ok: true; value: unknown; sourceId: number; path: string } | { ok: false; error: string };

/** the file's content as the target takes it, or why it cannot be taken */
async function contentOf(rc: RequestContext, fileId: number, kind: SyncedKind): Promise<Content> {
  const file = await readDataFile(rc, fileId);
  if (!file) return { ok: false, error: `Related object not found using the provided value: ${fileId}.` };
  const text = textOf(file);
  if (text === null) return { ok: false, error: `${file.path} is not UTF-8 text.` };
  if (kind === 'text') return { ok: true, value: text, sourceId: file.source_id, path: file.path };
  let value: unknown;
  try {
    // NetBox 3.7 DataFile.get_data(): YAML, which JSON is a subset of
    value = parseYaml(text);
  } catch (e) {
    return { ok: false, error: `${file.path} is neither JSON nor YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `${file.path} does not hold an object (JSON data must be in object form).` };
  }
  return { ok: true, value, sourceId: file.source_id, path: file.path };
}

const fileOf = (data: Row): number | null => (data.data_file_id == null ? null : Number(data.data_file_id));

/** validate hook part: a named data file must hold content the target takes */
export async function validateSyncedData(
  spec: SyncedData,
  { rc, data }: { rc: RequestContext; data: Row },
): Promise<Record<string, string[]> | undefined> {
  const fileId = fileOf(data);
  if (fileId === null) return undefined;
  const content = await contentOf(rc, fileId, spec.kind);
  return content.ok ? undefined : { data_file: [content.error] };
}

/** prepare hook part: copy the file in (or clear the fields), as NetBox's clean() does on every save */
export async function prepareSyncedData(spec: SyncedData, { rc, data, before }: WriteHookArgs): Promise<void> {
  const fileId = fileOf('data_file_id' in data ? data : (before ?? {}));
  if (fileId === null) {
    Object.assign(data, { data_source_id: null, data_path: '', auto_sync_enabled: false, data_synced: null });
    return;
  }
  const content = await contentOf(rc, fileId, spec.kind);
  if (!content.ok) throw Errors.validation({ data_file: [content.error] });
  Object.assign(data, {
    data_file_id: fileId,
    data_source_id: content.sourceId,
    data_path: content.path,
    data_synced: new Date().toISOString(),
    [spec.target]: content.value,
  });
}

/**
 * After a data source's sync: the objects with auto sync whose file is of that source and changed
 * (its last_updated is later than the object's data_synced) take its content; written as a
 * follow-up update (validated, change-logged, announced). Returns the objects left as they were.
 */
export async function autoSyncObjects(
  rc: RequestContext,
  sourceId: number,
): Promise<Array<{ object_type: string; object_id: number; error: string }>> {
  const failed: Array<{ object_type: string; object_id: number; error: string }> = [];
  for (const [name, spec] of SYNCED) {
    const model = rc.app.registry.find(name);
    if (!model) continue;
    const due = await sql<{
      id: number;
      data_file_id: number;
    }>`select o.id, o.data_file_id from ${sql.table(model.table)} o
      join core_datafile f on f.id = o.data_file_id
      where o.auto_sync_enabled and f.source_id = ${sourceId} and (o.data_synced is null or o.data_synced < f.last_updated)
      order by o.id`.execute(rc.q);
    const ok: number[] = [];
    for (const row of due.rows) {
      const content = await contentOf(rc, Number(row.data_file_id), spec.kind);
      if (content.ok) ok.push(Number(row.id));
      else failed.push({ object_type: name, object_id: Number(row.id), error: content.error });
    }
    if (ok.length)
      await updateObjects(
        rc,
        model,
        ok.map((id) => ({ id })),
        'update',
        true,
        { followUp: true },
      );
  }
  return failed;
}

/** `POST /api/<app>/<path>/<id>/sync/` for every model with synced data (NetBox 3.7 SyncedDataMixin.sync) */
export function registerSyncRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const name of SYNCED.keys()) {
    const model = ctx.registry.find(name);
    if (!model) continue;
    app.post<{ Params: { id: string } }>(
      `/api/${model.app}/${model.path}/:id/sync/`,
      { config: { allow: 'POST' } },
      async (request) => {
        const rc = request.rc;
        if (!servedIn(model, rc.dialect)) throw Errors.notFound();
        const id = parseId(request.params.id);
        const row = await fetchOne(rc, model, id, await requirePermission(rc, model, 'view'));
        await assertSyncAllowed(rc, model, id);
        // NetBox: an object without a data file is answered as it is
        if (row.data_file_id != null) {
          await inTransaction(rc, (trx) => updateObjects(trx, model, [{ id }], 'update', false, { followUp: true }));
        }
        return getObject(rc, model, id, queryParams(request));
      },
    );
  }
}

async function assertSyncAllowed(rc: RequestContext, model: ModelDef, id: number): Promise<void> {
  try {
    await assertWithinConstraints(rc, model, await requirePermission(rc, model, 'sync'), [id]);
  } catch (e) {
    // NetBox 3.7: "Missing permission: <app>.sync_<model>"
    if ((e as { code?: string }).code === Errors.permissionDenied.code)
      throw Errors.permissionDenied(`Missing permission: ${model.app}.sync_${model.model}`);
    throw e;
  }
}

const DETAIL = { $ref: '#/components/schemas/Detail' };

/** OpenAPI of the sync routes of those of `models` with synced data */
export function syncRouteDocs(models: ReadonlyArray<ModelDef>): RouteDoc[] {
  return models
    .filter((m) => SYNCED.has(m.name))
    .map((m) => ({
      path: `/api/${m.app}/${m.path}/{id}/sync/`,
      method: 'post',
      ...(m.dialect ? { dialect: m.dialect } : {}),
      operationId: `${m.app}_${m.path.replace(/-/g, '_')}_sync_create`,
      tag: m.app,
      summary: "Copy the content of the object's data file into it again (needs the sync permission of its model)",
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
      responses: { 200: { $model: m.name, form: 'full' }, 403: DETAIL, 404: DETAIL },
    }));
}
