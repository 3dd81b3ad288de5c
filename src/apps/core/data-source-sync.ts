/**
 * Syncing a data source (NetBox 3.7 DataSource.sync): its data files made to match its directory.
 *
 * One transaction: lock the data source's row (FOR UPDATE NOWAIT, so a second sync of the same
 * source while one runs is a 409 instead of a second writer), read the directory (source-walk.ts),
 * then create, update (content changed: new hash) and delete data files, copy changed files into
 * the objects with auto sync (synced-data.ts), set the status and last_synced, and record a
 * completed job. A sync that fails changes no file; it then records the
 * status `failed` and an errored job in a transaction of its own. The sync runs within the request
 * (no background queue), so the status seen from outside goes from its last value to completed or
 * failed; `queued` and `syncing` are never observed.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { RequestContext } from '../../core/context.js';
import { inTransaction } from '../../core/crud/routes.js';
import { Errors } from '../../core/errors.js';
import { realSourceDirectory } from './source-path.js';
import { SyncError, type WalkedFile, walkSource } from './source-walk.js';
import { autoSyncObjects } from './synced-data.js';

/** NetBox 4 names its sync jobs so; NetBox 3.7 leaves the name blank */
const SYNC_JOB_NAME = 'Synchronization';
const BATCH = 100;

export interface SyncCounts {
  created: number;
  updated: number;
  deleted: number;
  skipped: Array<{ path: string; reason: string }>;
  /** objects with auto sync whose file's new content they cannot take (left as they were) */
  auto_sync_failed?: Array<{ object_type: string; object_id: number; error: string }>;
}

function lockBusy(e: unknown): boolean {
  return (e as { code?: string }).code === '55P03';
}

async function recordJob(
  rc: RequestContext,
  sourceId: number,
  started: Date,
  status: 'completed' | 'errored',
  data: unknown,
  error = '',
) {
  await sql`insert into core_job (object_type, object_id, name, status, created, started, completed, user_id, data, error, job_id)
    values ('core.datasource', ${sourceId}, ${SYNC_JOB_NAME}, ${status}, ${started.toISOString()}, ${started.toISOString()}, now(),
      ${rc.user?.id ?? null}, ${JSON.stringify(data)}::jsonb, ${error}, ${randomUUID()}::uuid)`.execute(rc.q);
}

async function writeFiles(
  rc: RequestContext,
  sourceId: number,
  files: Map<string, WalkedFile>,
): Promise<Omit<SyncCounts, 'skipped'>> {
  const known = await sql<{
    id: number;
    path: string;
    hash: string;
  }>`select id, path, hash from core_datafile where source_id = ${sourceId}`.execute(rc.q);
  const gone = known.rows.filter((r) => !files.has(r.path)).map((r) => Number(r.id));
  const changed = known.rows.filter((r) => files.has(r.path) && files.get(r.path)!.hash !== r.hash);
  const knownPaths = new Set(known.rows.map((r) => r.path));
  const fresh = [...files.keys()].filter((p) => !knownPaths.has(p));

  if (gone.length) await sql`delete from core_datafile where id = any(${gone}::bigint[])`.execute(rc.q);
  for (const r of changed) {
    const f = files.get(r.path)!;
    await sql`update core_datafile set size = ${f.size}, hash = ${f.hash}, last_updated = now() where id = ${r.id}`.execute(
      rc.q,
    );
    await sql`update core_datafile_data set data = ${f.data} where file_id = ${r.id}`.execute(rc.q);
  }
  for (let i = 0; i < fresh.length; i += BATCH) {
    const batch = fresh.slice(i, i + BATCH);
    const rows = sql.join(batch.map((p) => sql`(${sourceId}, ${p}, ${files.get(p)!.size}, ${files.get(p)!.hash})`));
    const ids = await sql<{
      id: number;
      path: string;
    }>`insert into core_datafile (source_id, path, size, hash) values ${rows} returning id, path`.execute(rc.q);
    const data = sql.join(ids.rows.map((r) => sql`(${r.id}, ${files.get(r.path)!.data})`));
    await sql`insert into core_datafile_data (file_id, data) values ${data}`.execute(rc.q);
  }
  return { created: fresh.length, updated: changed.length, deleted: gone.length };
}

/** Syncs the data source (the caller has checked the permissions); throws 409 or 400 when it cannot. */
export async function syncDataSource(rc: RequestContext, sourceId: number): Promise<SyncCounts> {
  const started = new Date();
  try {
    return await inTransaction(rc, async (trx) => {
      const locked = await sql<{
        type: string;
        source_url: string;
        ignore_rules: string;
      }>`select type, source_url, ignore_rules
        from core_datasource where id = ${sourceId} for update nowait`.execute(trx.q);
      const source = locked.rows[0];
      if (!source) throw Errors.notFound();
      if (source.type !== 'local')
        throw new SyncError(`Data sources of type "${source.type}" cannot be synced by this service.`);
      const settings = rc.app.config.dataSources;
      const root = await realSourceDirectory(settings.roots, source.source_url).catch((e: Error) => {
        throw new SyncError(e.message);
      });
      const walked = await walkSource(root, source.ignore_rules, settings);
      const counts: SyncCounts = { ...(await writeFiles(trx, sourceId, walked.files)), skipped: walked.skipped };
      // objects with auto sync take their changed files' content (synced-data.ts)
      const notSynced = await autoSyncObjects(trx, sourceId);
      if (notSynced.length) counts.auto_sync_failed = notSynced;
      await sql`update core_datasource set status = 'completed', last_synced = now() where id = ${sourceId}`.execute(
        trx.q,
      );
      await recordJob(trx, sourceId, started, 'completed', counts);
      return counts;
    });
  } catch (e) {
    if (lockBusy(e)) throw Errors.conflict('Cannot initiate sync; syncing already in progress.');
    if (!(e instanceof SyncError)) throw e;
    await inTransaction(rc, async (trx) => {
      await sql`update core_datasource set status = 'failed' where id = ${sourceId}`.execute(trx.q);
      await recordJob(trx, sourceId, started, 'errored', null, e.message);
    });
    throw Errors.badRequest(`Sync failed: ${e.message}`);
  }
}
