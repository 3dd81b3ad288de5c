/**
 * The command line: `serve` (default), `migrate`, `createsuperuser <username> [--password P]
 * [--token KEY]`, `demo-data`. Settings come from the environment (see config.ts).
 */
import { randomBytes } from 'node:crypto';
import { buildApp } from './app.js';
import { bootstrapAdmin, createSuperuser, prepareDatabase } from './bootstrap.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { loadDemoData } from './demo-data.js';

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

async function main(argv: string[]): Promise<void> {
  const [command = 'serve', ...args] = argv;
  const config = loadConfig();
  const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, statementTimeout: config.statementTimeout });
  switch (command) {
    case 'migrate': {
      const applied = await prepareDatabase(db);
      console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'No migrations to apply.');
      await db.close();
      return;
    }
    case 'createsuperuser': {
      const username = args.find((a) => !a.startsWith('--')) ?? config.adminUsername;
      if (!username) throw new Error('usage: inventory createsuperuser <username> [--password P] [--token KEY]');
      await prepareDatabase(db);
      const password = flag(args, '--password') ?? config.adminPassword ?? randomBytes(12).toString('base64url');
      await createSuperuser(db.kysely, username, password, flag(args, '--token') ?? null);
      console.log(`Superuser "${username}" ready${flag(args, '--password') || config.adminPassword ? '' : ` with password: ${password}`}`);
      await db.close();
      return;
    }
    case 'demo-data': {
      await prepareDatabase(db);
      const app = await buildApp({ ...config, logLevel: 'warn' }, { db });
      await loadDemoData(app, db, (line) => console.log(line));
      await app.close();
      await db.close();
      return;
    }
    case 'serve': {
      await prepareDatabase(db);
      const notice = await bootstrapAdmin(db, config);
      const app = await buildApp(config, { db });
      if (notice) app.log.warn(notice);
      const close = async () => {
        await app.close();
        await db.close();
        process.exit(0);
      };
      process.once('SIGINT', close);
      process.once('SIGTERM', close);
      await app.listen({ host: config.host, port: config.port });
      return;
    }
    default:
      throw new Error(`unknown command ${command}; use serve, migrate, createsuperuser or demo-data`);
  }
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
