/**
 * A write's change records are sent without waiting for them (crud/deferred-write.ts): the
 * transaction's COMMIT, or its next statement, follows on the same connection. The write must stay
 * one transaction: when the change records fail, nothing of the write is kept and the answer is
 * their error (not "current transaction is aborted" from a statement after them), for creates,
 * bulk creates, updates and deletes, with or without an event rule's statement after them. On
 * PostgreSQL the records and the COMMIT go out in one socket write.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { ENGINE } from '../../helpers/engine.js';
import { socketEvents } from '../../helpers/socket-events.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
const REFUSED = 'deferred-refused';

beforeAll(async () => {
  t = await makeTestApp({ RESPONSE_CACHE_MB: '0' });
  // the change log refuses the records of any object named so
  await sql`alter table extras_objectchange add constraint deferred_probe check (object_repr not like ${sql.lit(`${REFUSED}%`)})`.execute(
    t.db.kysely,
  );
});
afterAll(async () => t.close());

const sites = async (name: string) =>
  (await t.get(`/api/dcim/sites/?name=${encodeURIComponent(name)}`)).json().count as number;

function expectRefusedByTheChangeLog(res: { statusCode: number; body: string }) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.body).toContain('deferred_probe');
}

describe('a write whose change records fail', () => {
  for (const withRule of [false, true]) {
    it(`keeps nothing and answers with their error${withRule ? ', an event rule listening' : ''}`, async () => {
      if (withRule) {
        const hook = await t.post('/api/extras/webhooks/', {
          name: uniq('hook'),
          payload_url: 'http://127.0.0.1:9/hook',
        });
        const rule = await t.post('/api/extras/event-rules/', {
          name: uniq('rule'),
          content_types: ['dcim.site'],
          type_create: true,
          type_update: true,
          type_delete: true,
          action_object_type: 'extras.webhook',
          action_object_id: hook.json().id,
        });
        expect(rule.statusCode, rule.body).toBe(201);
      }
      const name = `${REFUSED} ${uniq('s')}`;
      expectRefusedByTheChangeLog(await t.post('/api/dcim/sites/', { name, slug: uniq('s') }));
      expect(await sites(name)).toBe(0);
      // a bulk create: the good item is not kept either
      const good = uniq('good');
      expectRefusedByTheChangeLog(
        await t.post('/api/dcim/sites/', [
          { name: good, slug: uniq('g') },
          { name, slug: uniq('s') },
        ]),
      );
      expect(await sites(good)).toBe(0);
      // an update to the refused name, and a delete of an object so named (renamed behind the API's back)
      const site = (await t.post('/api/dcim/sites/', { name: good, slug: uniq('g') })).json();
      expectRefusedByTheChangeLog(await t.patch(`/api/dcim/sites/${site.id}/`, { name }));
      expect((await t.get(`/api/dcim/sites/${site.id}/`)).json().name).toBe(good);
      await sql`update dcim_site set name = ${name} where id = ${site.id}`.execute(t.db.kysely);
      expectRefusedByTheChangeLog(await t.del(`/api/dcim/sites/${site.id}/`));
      expect((await t.get(`/api/dcim/sites/${site.id}/`)).statusCode).toBe(200);
      // and the next write goes through, logged
      const ok = await t.post('/api/dcim/sites/', { name: uniq('after'), slug: uniq('a') });
      expect(ok.statusCode, ok.body).toBe(201);
      const logged = await t.get(
        `/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${ok.json().id}`,
      );
      expect(logged.json().count).toBe(1);
    });
  }
});

// PG_DRIVER_PATCHES=off: plain pg sends a statement only once the one before it is answered
// (src/db/pg-driver/README.md), so there each COMMIT waits one round trip
const PATCHED = process.env.PG_DRIVER_PATCHES !== 'off';

describe.skipIf(ENGINE !== 'postgres')(`on PostgreSQL, driver patches ${PATCHED ? 'on' : 'off'}`, () => {
  /** the socket events of one create: where the first write naming `what` and the first COMMIT sit, and the reads between */
  async function writesOf(path: string, body: Record<string, unknown>, what: string) {
    const { events, result: res } = await socketEvents(() => t.post(path, body));
    expect(res.statusCode, res.body).toBe(201);
    const named = events.findIndex((e) => e.startsWith('write') && e.includes(what));
    // the COMMIT itself, not create-in-one's COMMIT_FOLLOWS marker ('/* commit follows */')
    const commit = events.findIndex((e) => e.startsWith('write') && /commit(?! follows)/.test(e));
    expect(named).toBeGreaterThan(-1);
    expect(commit).toBeGreaterThanOrEqual(named);
    return events.slice(named + 1, commit + 1).filter((e) => e === 'read');
  }

  /** patched: no answer read before the COMMIT went; plain pg: the COMMIT waited for one (its bytes may come in more than one read) */
  function expectCommitWaited(reads: string[]) {
    if (PATCHED) expect(reads).toEqual([]);
    else expect(reads.length).toBeGreaterThan(0);
  }

  it('sends the COMMIT right behind the change records, before their answer arrives', async () => {
    // a VLAN is written as most objects are (its display joins two columns: create-in-one.ts does
    // not take it); nothing runs between its change records and the COMMIT (a site's answer reads
    // its counts first)
    expectCommitWaited(await writesOf('/api/ipam/vlans/', { vid: 214, name: uniq('piped') }, '"changed_object_type"'));
  });

  it('sends BEGIN, a create written in one statement and its COMMIT before any answer arrives', async () => {
    // create-in-one.ts: the address and its change record are one statement ending its transaction
    expectCommitWaited(
      await writesOf(
        '/api/ipam/ip-addresses/',
        { address: '10.214.0.2/32', dns_name: uniq('one') },
        'insert into "ipam_ipaddress"',
      ),
    );
  });
});
