/**
 * A backup taken and restored through PgBouncer in transaction pooling (docs/backup.md,
 * docs/postgresql.md "PgBouncer"): `inventory backup` and `inventory restore` open the database
 * as the service does, so behind PgBouncer they go through it, with DATABASE_DIRECT_URL or
 * without. Run by npm test's postgres-pgbouncer project.
 */
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeBackup } from '../../src/backup/backup.js';
import { restoreBackup } from '../../src/backup/restore.js';
import { openDatabase } from '../../src/db/client.js';
import { makeSite, makeTag } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { adminQuery, ENGINE, testConnection } from '../helpers/engine.js';

const bouncer = inject('pgbouncer') ?? '';

describe.skipIf(ENGINE !== 'postgres' || !bouncer)('a backup and a restore through PgBouncer', () => {
  let t: TestApp;
  let file: string;
  const made: string[] = [];
  beforeAll(async () => {
    t = await makeTestApp();
    file = join(t.tempDir('inv-bouncer-backup-'), 'inventory.backup');
  });
  afterAll(async () => {
    await t?.close();
    for (const name of made) await adminQuery(`drop database if exists ${name} with (force)`);
  });

  /** restores the file into a new, empty database reached through PgBouncer */
  async function restoreInto(direct: boolean) {
    const name = `inv_t_bouncer_restore_${randomBytes(4).toString('hex')}`;
    await adminQuery(`create database ${name}`);
    made.push(name);
    const conn = testConnection(name);
    expect(conn.pgbouncer).toBe(true);
    const db = await openDatabase({
      databaseUrl: conn.databaseUrl,
      dataDir: '',
      poolSize: 2,
      statementTimeout: 0,
      pgbouncer: true,
      directUrl: direct ? conn.directUrl : null,
    });
    try {
      const result = await restoreBackup(db, file, { force: false, mediaRoot: t.tempDir('inv-bouncer-media-') });
      const { rows } = await sql<{ name: string; tags: string[] }>`select s.name,
          array(select g.name from extras_taggeditem i join extras_tag g on g.id = i.tag_id
            where i.object_id = s.id and i.content_type = 'dcim.site' order by 1) as tags
        from dcim_site s order by s.name`.execute(db.kysely);
      return { result, rows };
    } finally {
      await db.close();
    }
  }

  it('writes the file, and restores it into an empty database with and without DATABASE_DIRECT_URL', async () => {
    const tag = await makeTag(t);
    const sites = [await makeSite(t, { tags: [tag.id] }), await makeSite(t)];
    const written = await writeBackup(t.db, file);
    expect(written.rows).toBeGreaterThan(0);
    const expected = sites
      .map((s) => ({ name: s.name as string, tags: s === sites[0] ? [tag.name as string] : [] }))
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const direct of [true, false]) {
      const { result, rows } = await restoreInto(direct);
      expect(result.rows).toBe(written.rows);
      expect(rows).toEqual(expected);
    }
  });
});
