/** db/table-generations.ts (and change-watch.ts's scripts): which tables a statement writes, and when their versions move. */
import { describe, expect, it } from 'vitest';
import { localChangeWatch } from '../../src/db/change-watch.js';
import { scriptMayWrite } from '../../src/db/statement-writes.js';
import { TableGenerations, tablesWritten } from '../../src/db/table-generations.js';

describe('tablesWritten', () => {
  it('reads the table of a plain insert, update or delete', () => {
    expect(tablesWritten('insert into "ipam_ipaddress" ("address") values ($1) returning *')).toEqual([
      'ipam_ipaddress',
    ]);
    expect(tablesWritten('update users_token set last_used = now() where id = $1')).toEqual(['users_token']);
    expect(tablesWritten('delete from only "public"."dcim_site" where id = any($1)')).toEqual(['dcim_site']);
  });

  it('finds every writing part of a WITH statement', () => {
    const s =
      'with done as (update core_delivery set status = $1 returning id) update core_worker set n = n + 1 where exists (select 1 from done)';
    expect(tablesWritten(s)?.sort()).toEqual(['core_delivery', 'core_worker']);
  });

  it('cannot place DDL or other writes', () => {
    expect(tablesWritten('create index on ipam_prefix (vlan_id)')).toBeNull();
    expect(tablesWritten('truncate dcim_site cascade')).toBeNull();
  });
});

describe('TableGenerations', () => {
  const write = (g: TableGenerations, s: string) => g.observe(s, true);

  it('moves only the tables a statement wrote', () => {
    const g = new TableGenerations();
    const tokens = g.version(['users_token']);
    const addresses = g.version(['ipam_ipaddress']);
    expect(write(g, 'insert into ipam_ipaddress (address) values ($1)')).toEqual(['ipam_ipaddress']);
    expect(g.version(['users_token'])).toBe(tokens);
    expect(g.version(['ipam_ipaddress'])).not.toBe(addresses);
  });

  it('moves a table written inside a transaction again at its commit', () => {
    const g = new TableGenerations();
    g.observe('begin', false);
    // nothing to tell another process yet: it cannot see the row before the commit
    expect(write(g, 'insert into ipam_ipaddress (address) values ($1)')).toBeNull();
    // a read now sees the data as it was, and stores it under this version
    const during = g.version(['ipam_ipaddress']);
    expect(g.observe('commit', true)).toEqual(['ipam_ipaddress']);
    expect(g.version(['ipam_ipaddress'])).not.toBe(during);
  });

  it('keeps a table pending while any transaction is open: another one committing first cannot hide it', () => {
    const g = new TableGenerations();
    g.observe('begin', false);
    write(g, 'insert into extras_customfield (name) values ($1)');
    g.observe('begin', false);
    g.observe('commit', true);
    const afterOther = g.version(['extras_customfield']);
    g.observe('commit', true);
    expect(g.version(['extras_customfield'])).not.toBe(afterOther);
    // with no transaction open, a later commit has nothing pending
    const settled = g.version(['extras_customfield']);
    g.observe('begin', false);
    g.observe('commit', true);
    expect(g.version(['extras_customfield'])).toBe(settled);
  });

  it('moves every table for a write it cannot place, and a savepoint rollback ends no transaction', () => {
    const g = new TableGenerations();
    const before = g.version(['users_token']);
    expect(write(g, 'alter table dcim_site add column x int')).toEqual(['*']);
    expect(g.version(['users_token'])).not.toBe(before);
    g.observe('begin', false);
    write(g, 'insert into dcim_site (name) values ($1)');
    g.observe('rollback to savepoint sp1', true);
    const inside = g.version(['dcim_site']);
    g.observe('rollback', true);
    expect(g.version(['dcim_site'])).not.toBe(inside);
  });
});

describe('a script run whole (Database.exec)', () => {
  it('moves every table once, and leaves no transaction open behind it', () => {
    const watch = localChangeWatch();
    const tokens = watch.tableVersion(['users_token']);
    watch.observeScript(
      "begin;\ncreate table t (x int);\ninsert into schema_migrations(name) values ('0001');\ncommit;",
    );
    const afterScript = watch.tableVersion(['users_token']);
    expect(afterScript).not.toBe(tokens);
    // a later transaction writing another table leaves users_token alone: nothing is pending
    watch.observe('update users_token set last_used = now() where id = $1');
    const settled = watch.tableVersion(['users_token']);
    watch.observe('begin');
    watch.observe('insert into ipam_ipaddress (address) values ($1)');
    watch.observe('commit');
    expect(watch.tableVersion(['users_token'])).toBe(settled);
  });

  it('moves nothing for a script that only reads', () => {
    const watch = localChangeWatch();
    const before = [watch.generation, watch.tableVersion(['dcim_site'])];
    watch.observeScript('vacuum (analyze) dcim_site');
    watch.observeScript("set time zone 'UTC'; select 1;");
    expect([watch.generation, watch.tableVersion(['dcim_site'])]).toEqual(before);
    expect(scriptMayWrite('analyze dcim_site; delete from dcim_site')).toBe(true);
  });
});
