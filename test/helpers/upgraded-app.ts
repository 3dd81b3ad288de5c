/**
 * A service on a database upgraded across a migration with data in it, for the tests of an
 * upgrade: the migrations before `first` applied one by one as the runner applies them
 * (db/migrate.ts), `oldData` written in their schema, then the start's own migration run, which
 * must begin at `first`. Comes with a superuser token; `close` drops everything.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.js';
import { createSuperuser, prepareDatabase } from '../../src/bootstrap.js';
import { loadConfig } from '../../src/config.js';
import type { Database } from '../../src/db/client.js';
import { listMigrations, readMigration } from '../../src/db/migrate.js';
import { blankDatabase } from './blank-database.js';

export interface UpgradedApp {
  app: FastifyInstance;
  db: Database;
  token: string;
  close(): Promise<void>;
}

export async function upgradedApp(first: string, oldData: string): Promise<UpgradedApp> {
  const { db, drop } = await blankDatabase();
  try {
    await db.exec(`create table if not exists schema_migrations (
      name text primary key, applied_at timestamptz not null default now())`);
    for (const name of listMigrations().filter((n) => n < first))
      await db.exec(
        `begin;\n${readMigration(name)}\n;insert into schema_migrations(name) values ('${name}');\ncommit;`,
      );
    await db.exec(`begin;\n${oldData}\ncommit;`);
    const applied = await prepareDatabase(db);
    expect(applied[0]?.startsWith(first)).toBe(true);
  } catch (e) {
    await db.close();
    await drop();
    throw e;
  }
  const app = await buildApp(loadConfig({ LOG_LEVEL: 'silent' }), { db });
  const token = randomBytes(20).toString('hex');
  await createSuperuser(db.kysely, `admin-${randomBytes(3).toString('hex')}`, 'admin-password', token);
  return {
    app,
    db,
    token,
    close: async () => {
      await app.close();
      await db.close();
      await drop();
    },
  };
}
