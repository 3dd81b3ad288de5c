/**
 * Builds one migrated template database per engine and run, so each test file starts from a copy in
 * about a second: a dumped PGlite data directory, or a PostgreSQL template database.
 */
import { writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { compiledEntry } from '../../bin/compile-cache.js';
import { prepareDatabase } from '../../src/bootstrap.js';
import { openDatabase } from '../../src/db/client.js';
import { PG_ADMIN_URL, pgUrl } from './engine.js';
import { currentWalSegment, dropTemplateDatabases, withoutOtherWalSegments } from './template-tar.js';
import { processRuns, removeLeftoversOfEndedProcesses } from './temp-dirs.js';

declare module 'vitest' {
  export interface ProvidedContext {
    template: string;
  }
}

interface Template {
  /** the PGlite dump's path, or the PostgreSQL template database's name */
  name: string;
  remove(): Promise<void>;
}

/**
 * What the projects of one run share (vitest.config.ts runs up to five, four on PostgreSQL), kept on
 * globalThis as vitest may load this file once per project: the leftovers' removal and the bundle,
 * once; one template per engine, removed after the last project using it is done.
 */
interface RunState {
  id: string;
  users: number;
  prepared: Promise<void>;
  templates: Map<string, Promise<Template>>;
}
const RUN = Symbol.for('inventory.test-run');
type WithRun = typeof globalThis & { [RUN]?: RunState };

export default async function setup(project: TestProject) {
  const shared = globalThis as WithRun;
  const run = (shared[RUN] ??= {
    id: `${process.pid}_${Date.now().toString(36)}`,
    users: 0,
    prepared: prepareRun(),
    templates: new Map(),
  });
  run.users++;
  await run.prepared;
  // the project's engine (vitest.config.ts sets DB per project), as its workers will see it
  const engine = (project.config.env?.DB ?? process.env.DB) === 'postgres' ? 'postgres' : 'pglite';
  let made = run.templates.get(engine);
  if (!made) {
    made = engine === 'postgres' ? postgresTemplate(run.id) : pgliteTemplate(run.id);
    run.templates.set(engine, made);
  }
  const template = await made;
  project.provide('template', template.name);
  return async () => {
    if (--run.users > 0) return;
    delete shared[RUN];
    for (const each of run.templates.values()) await (await each).remove();
  };
}

async function prepareRun(): Promise<void> {
  // a run that was killed had no teardown: its folders, templates and databases go now
  removeLeftoversOfEndedProcesses();
  // the service's bundle for the current sources, which the tests' child processes run
  // (helpers/child-service.ts): built here once, not by the first children of several workers at once
  await compiledEntry();
}

async function pgliteTemplate(runId: string): Promise<Template> {
  const db = await openDatabase({ databaseUrl: null, dataDir: 'memory://' });
  await prepareDatabase(db);
  await dropTemplateDatabases(db);
  const wal = await currentWalSegment(db);
  const dump = Buffer.from(await (await db.dump!()).arrayBuffer());
  const path = join(tmpdir(), `inventory-template-${runId}.tar`);
  writeFileSync(path, withoutOtherWalSegments(dump, wal));
  await db.close();
  return { name: path, remove: async () => rmSync(path, { force: true }) };
}

async function postgresTemplate(runId: string): Promise<Template> {
  const name = `inv_tpl_${runId}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await dropDatabasesOfEndedRuns(admin);
  await admin.query(`create database ${name}`);
  const db = await openDatabase({ databaseUrl: pgUrl(name), dataDir: '', poolSize: 2 });
  await prepareDatabase(db);
  await db.close();
  return {
    name,
    remove: async () => {
      const left = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1`, [
        `inv_t_${runId}%`,
      ]);
      for (const r of left.rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * Drops the template and test databases of runs whose process no longer runs: names carry the
 * run's pid (`inv_tpl_<pid>_<time>`, `inv_t_<pid>_<time>_<random>`). Only on a server on this
 * machine, where the pid says something.
 */
async function dropDatabasesOfEndedRuns(admin: pg.Client): Promise<void> {
  if (!['127.0.0.1', 'localhost', '::1', '[::1]'].includes(new URL(PG_ADMIN_URL).hostname)) return;
  const { rows } = await admin.query<{ datname: string }>(
    `select datname from pg_database where datname ~ '^inv_(tpl|t)_[0-9]+_[a-z0-9]+(_[0-9a-f]+)?$'`,
  );
  for (const { datname } of rows) {
    const pid = Number(datname.split('_')[2]);
    if (processRuns(pid)) continue;
    await admin.query(`drop database if exists ${datname} with (force)`).catch(() => undefined);
  }
}
