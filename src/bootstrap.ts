/**
 * First-start work: migrate, sync content types, and create the first superuser when there are no
 * users (from ADMIN_USERNAME / ADMIN_PASSWORD / ADMIN_TOKEN, or with a generated password that is
 * printed once).
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Config } from './config.js';
import type { Database, Kdb } from './db/client.js';
import { migrate } from './db/migrate.js';
import { Registry } from './core/model/registry.js';
import { registerAllModels } from './apps/index.js';
import { syncContentTypes } from './apps/extras/content-type.model.js';
import { hashPassword } from './apps/users/password.js';

export async function prepareDatabase(db: Database): Promise<string[]> {
  const applied = await migrate(db);
  const registry = new Registry();
  registerAllModels(registry);
  await syncContentTypes(db.kysely, registry.freeze());
  return applied;
}

export async function createSuperuser(q: Kdb, username: string, password: string, token?: string | null): Promise<number> {
  const hash = await hashPassword(password);
  const res = await sql<{ id: number }>`insert into users_user (username, password, is_superuser, is_staff, is_active)
    values (${username}, ${hash}, true, true, true)
    on conflict (username) do update set password = excluded.password, is_superuser = true, is_staff = true, is_active = true
    returning id`.execute(q);
  const id = Number(res.rows[0]!.id);
  if (token) {
    await sql`insert into users_token (user_id, key, write_enabled, description) values (${id}, ${token}, true, 'bootstrap token')
      on conflict (key) do nothing`.execute(q);
  }
  return id;
}

/** Returns a line to print (the generated password), or null. */
export async function bootstrapAdmin(db: Database, config: Config): Promise<string | null> {
  const count = await sql<{ n: number }>`select count(*)::int as n from users_user`.execute(db.kysely);
  if (Number(count.rows[0]!.n) > 0) return null;
  const username = config.adminUsername ?? 'admin';
  const password = config.adminPassword ?? randomBytes(12).toString('base64url');
  if (config.adminToken && !/^[0-9a-zA-Z]{40}$/.test(config.adminToken)) throw new Error('ADMIN_TOKEN must be 40 hexadecimal characters');
  await createSuperuser(db.kysely, username, password, config.adminToken);
  return config.adminPassword ? null : `Created superuser "${username}" with password: ${password} (shown once; change it)`;
}
