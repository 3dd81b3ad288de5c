/**
 * Builds one migrated template database per run, so each test file starts from a copy in about a
 * second: a dumped PGlite data directory, or a PostgreSQL template database.
 */
import { writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { prepareDatabase } from '../../src/bootstrap.js';
import { openDatabase } from '../../src/db/client.js';
import { ENGINE, PG_ADMIN_URL, pgUrl } from './engine.js';

declare module 'vitest' {
  export interface ProvidedContext {
    template: string;
  }
}

export default async function setup(project: TestProject) {
  const runId = `${process.pid}_${Date.now().toString(36)}`;
  if (ENGINE === 'pglite') {
    const db = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
    await prepareDatabase(db);
    const dump = await db.dump!();
    const path = join(tmpdir(), `inventory-template-${runId}.tar`);
    writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
    await db.close();
    project.provide('template', path);
    return () => rmSync(path, { force: true });
  }
  const name = `inv_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const db = await openDatabase({ databaseUrl: pgUrl(name), dataDir: '', poolSize: 2 });
  await prepareDatabase(db);
  await db.close();
  project.provide('template', name);
  return async () => {
    const left = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [
      `inv_t_${runId}%`,
    ]);
    for (const r of left.rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
}
