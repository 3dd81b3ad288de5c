/**
 * What reading a reply costs on the embedded engine (`node --import tsx bench/pglite-replies.ts
 * [--rows 50] [--reads 4000]`): one prepared page of `--rows` rows of 12 columns, bound and executed
 * `--reads` times, its reply read two ways: decoded into message objects by PGlite's
 * `execProtocol()` (the dialect's way before src/db/pglite-wire.ts), and read from the wire bytes
 * (its way now). Prints CPU ms per read for each, and for the statement alone (bytes not read).
 */
import { PGlite, protocol } from '@electric-sql/pglite';
import { exchange, readReply } from '../src/db/pglite-wire.js';

const argv = process.argv.slice(2);
const opt = (name: string, dflt: number) => Number(argv[argv.indexOf(`--${name}`) + 1] ?? dflt) || dflt;
const ROWS = opt('rows', 50);
const READS = opt('reads', 4000);
const { serialize } = protocol;

const db = await PGlite.create('memory://');
await db.exec(`create table item (id bigserial primary key, name text, slug text, description text,
  created timestamptz default now(), weight int, enabled bool, data jsonb, a text, b text, c text, d text)`);
await db.exec(`insert into item (name, slug, description, weight, enabled, data, a, b, c, d)
  select 'item ' || g, 'item-' || g, 'a description', g, g % 2 = 0, '{"k": 1}', 'a', 'bb', 'ccc', 'dddd'
  from generate_series(1, ${ROWS}) g`);
await db.execProtocol(
  Buffer.concat([serialize.parse({ name: 'page', text: 'select * from item order by id' }), serialize.sync()]),
);
const page = Buffer.concat([
  serialize.bind({ statement: 'page', values: [] }),
  serialize.execute({}),
  serialize.sync(),
]);

async function cpuPerRead(read: () => Promise<number>): Promise<number> {
  for (let i = 0; i < READS / 4; i++) await read(); // warm-up: the same code, optimised
  const start = process.cpuUsage();
  for (let i = 0; i < READS; i++) if ((await read()) !== ROWS) throw new Error('a read lost rows');
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / READS;
}

const figures = {
  'execProtocol() messages': await cpuPerRead(
    async () => (await db.execProtocol(page)).messages.filter((m) => m.name === 'dataRow').length,
  ),
  'wire bytes read (pglite-wire.ts)': await cpuPerRead(async () => readReply(await exchange(db, page)).rows.length),
  'statement only, bytes not read': await cpuPerRead(async () => {
    await exchange(db, page);
    return ROWS;
  }),
};
console.log(`${ROWS} rows of 12 columns, ${READS} reads each`);
for (const [way, ms] of Object.entries(figures)) console.log(`${way.padEnd(34)} ${ms.toFixed(3)} CPU ms per read`);
await db.close();
