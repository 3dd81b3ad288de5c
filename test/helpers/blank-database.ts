/**
 * A database with no migration applied, on the run's engine, for tests that build an old schema
 * and upgrade it: PGlite in memory, or a PostgreSQL database of its own that `drop` removes.
 */
import { randomBytes } from 'node:crypto';
import { type Database, openDatabase } from '../../src/db/client.js';
import { adminQuery, ENGINE, pgUrl } from './engine.js';

export async function blankDatabase(): Promise<{ db: Database; drop: () => Promise<void> }> {
  if (ENGINE === 'pglite')
    return { db: await openDatabase({ databaseUrl: null, dataDir: 'memory://' }), drop: async () => undefined };
  const name = `inv_upgrade_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create database ${name}`);
  return {
    db: await openDatabase({ databaseUrl: pgUrl(name), dataDir: '', poolSize: 2 }),
    drop: () => adminQuery(`drop database if exists ${name} with (force)`),
  };
}
