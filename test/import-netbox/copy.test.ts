/**
 * `inventory import-netbox` (src/import-netbox/) against a running source on loopback: an instance
 * loaded with the demo network and the objects that make a copy hard (trees, LAGs, a virtual
 * chassis and its master, primary addresses and MAC objects, object-valued custom fields, users
 * and their permissions, tokens, journal entries, the change log) copied into an empty one; then
 * every list endpoint of both compared object by object in both dialects, a second run that
 * writes nothing, and each refusal (an id taken, a rejected object, a source that fails).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, servedIn } from '../../src/core/model/dialect.js';
import { loadDemoData } from '../../src/demo-data.js';
import { copyFrom, type CopyReport } from '../../src/import-netbox/copy.js';
import { reportText } from '../../src/import-netbox/command.js';
import { importPlan } from '../../src/import-netbox/plan.js';
import { ImportError, Source } from '../../src/import-netbox/source.js';
import {
  makeContactAssignment,
  makeCustomField,
  makeDevice,
  makeGroup,
  makeInterface,
  makeIpAddress,
  makeRegion,
  makeSite,
  makeTag,
  make,
  make44,
  grant,
  makeUser,
  named,
} from '../factories/index.js';
import { type TestApp, makeTestApp } from '../helpers/app.js';
import { dataUri, png } from '../helpers/images.js';

let src: TestApp;
let url: string;
const V44 = { accept: 'application/json; version=4.4' };

/** the objects a plain load does not make: each is a way a copy can go wrong */
async function hardCases(t: TestApp) {
  const parent = await makeRegion(t);
  await makeRegion(t, { parent: parent.id, name: 'Same name', slug: 'same-a' });
  const other = await makeRegion(t);
  await makeRegion(t, { parent: other.id, name: 'Same name', slug: 'same-b' });
  const tag = await makeTag(t);
  const tenant = await make(t, '/api/tenancy/tenants/', named('tenant'));
  await makeCustomField(t, {
    name: 'owner_tenant',
    type: 'object',
    object_type: 'tenancy.tenant',
    content_types: ['dcim.site'],
  });
  await makeCustomField(t, { name: 'ticket', type: 'text', content_types: ['dcim.site', 'dcim.device'] });
  const site = await makeSite(t, { tags: [tag.id], custom_fields: { owner_tenant: tenant.id, ticket: 'T-1' } });
  const a = await makeDevice(t, { site: site.id });
  const b = await makeDevice(t, { site: site.id, device_type: a.device_type.id, device_role: a.device_role.id });
  const vc = await make(t, '/api/dcim/virtual-chassis/', { name: named('vc').name });
  for (const [i, d] of [a, b].entries())
    expect(
      (await t.patch(`/api/dcim/devices/${d.id}/`, { virtual_chassis: vc.id, vc_position: i + 1 })).statusCode,
    ).toBe(200);
  expect((await t.patch(`/api/dcim/virtual-chassis/${vc.id}/`, { master: a.id })).statusCode).toBe(200);
  const lag = await makeInterface(t, a, { type: 'lag' });
  const member = await makeInterface(t, a, { lag: lag.id });
  await makeInterface(t, a, { name: 'eth0.10', type: 'virtual', parent: member.id });
  const ip = await makeIpAddress(t, '192.0.2.10/24', {
    assigned_object_type: 'dcim.interface',
    assigned_object_id: lag.id,
  });
  expect((await t.patch(`/api/dcim/devices/${a.id}/`, { primary_ip4: ip.id })).statusCode).toBe(200);
  const mac = await make44(t, '/api/dcim/mac-addresses/', {
    mac_address: '02:00:00:00:00:01',
    assigned_object_type: 'dcim.interface',
    assigned_object_id: member.id,
  });
  expect(
    (
      await t.request('PATCH', `/api/dcim/interfaces/${member.id}/`, {
        body: { primary_mac_address: mac.id },
        headers: V44,
      })
    ).statusCode,
  ).toBe(200);
  await make(t, '/api/extras/journal-entries/', {
    assigned_object_type: 'dcim.device',
    assigned_object_id: a.id,
    kind: 'warning',
    comments: 'fan replaced',
  });
  await make(t, '/api/extras/image-attachments/', {
    content_type: 'dcim.site',
    object_id: site.id,
    name: 'front',
    image_data: dataUri(png(3, 2)),
  });
  await make(t, '/api/extras/config-contexts/', {
    name: named('ctx').name,
    data: { ntp: ['10.0.0.1'] },
    sites: [site.id],
  });
  const group = await makeGroup(t);
  const user = await makeUser(t, { groups: [group.id], first_name: 'Ada' });
  await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [user.id], groups: [group.id] });
  await makeContactAssignment(t, 'dcim.site', site);
  const hook = await make(t, '/api/extras/webhooks/', { name: named('hook').name, payload_url: 'http://127.0.0.1:9/' });
  await make44(t, '/api/extras/event-rules/', {
    name: named('rule').name,
    object_types: ['dcim.site'],
    event_types: ['object_created'],
    action_type: 'webhook',
    action_object_type: 'extras.webhook',
    action_object_id: hook.id,
  });
}

/**
 * An empty target: its own superuser and token gone, as a new instance before its first start
 * (after `prepare`, which writes as that superuser)
 */
async function emptyTarget(prepare: (t: TestApp) => Promise<unknown> = async () => undefined): Promise<TestApp> {
  const t = await makeTestApp();
  await prepare(t);
  await sql`delete from users_token`.execute(t.db.kysely);
  await sql`delete from users_user`.execute(t.db.kysely);
  return t;
}

async function copyInto(t: TestApp, opts: { continueOnError?: boolean; check?: boolean } = {}): Promise<CopyReport> {
  return copyFrom(t.app, new Source({ url, token: src.token }), opts);
}

beforeAll(async () => {
  src = await makeTestApp();
  await loadDemoData(src.app, src.db, () => undefined);
  await hardCases(src);
  await src.app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(src.app.server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await src?.close();
});

describe('a copy of one instance into an empty one', () => {
  let dst: TestApp;
  let report: CopyReport;

  beforeAll(async () => {
    dst = await emptyTarget();
    report = await copyInto(dst);
  }, 180_000);
  afterAll(async () => {
    await dst?.close();
  });

  it('copies every object, refuses none, and its own check finds both sides agree', () => {
    expect(report.dialect).toBe('4.4');
    const refused = report.types.flatMap((t) => t.rejected);
    expect(JSON.stringify(refused)).toBe('[]');
    const bad = report.checks.filter((c) => c.missing.length || c.differing);
    expect(JSON.stringify(bad)).toBe('[]');
    const byModel = Object.fromEntries(report.types.map((t) => [t.model, t]));
    for (const m of [
      'dcim.region',
      'dcim.device',
      'dcim.interface',
      'dcim.cable',
      'dcim.macaddress',
      'users.user',
      'users.objectpermission',
      'extras.journalentry',
    ])
      expect(byModel[m]?.created, m).toBeGreaterThan(0);
    expect(report.changes!.copied).toBeGreaterThan(100);
    expect(reportText(report).ok).toBe(true);
  });

  it('answers every list endpoint as the source does, object by object, in both dialects', async () => {
    const { skipped } = importPlan(src.app.inventory.registry, '4.4');
    const notCopied = new Set(skipped.map((s) => s.model));
    let compared = 0;
    for (const dialect of DIALECTS) {
      for (const model of src.app.inventory.registry.all()) {
        if (!servedIn(model, dialect) || (notCopied.has(model.name) && model.name !== 'extras.objectchange')) continue;
        const path = `/api/${model.app}/${model.path}/?limit=1000&ordering=id`;
        const headers = { accept: `application/json; version=${dialect}` };
        const theirs = await src.request('GET', path, { headers });
        const ours = await dst.request('GET', path, { headers, token: src.token });
        expect(theirs.statusCode, path).toBe(200);
        expect(ours.statusCode, `${path}: ${ours.body.slice(0, 300)}`).toBe(200);
        const a = theirs.json();
        // a token's last use moves as the test uses it on either side
        const still = (body: { results: Array<Record<string, unknown>> }) =>
          model.name === 'users.token' ? body.results.forEach((r) => delete r.last_used) : undefined;
        still(a);
        expect(a.count, path).toBeLessThan(1000);
        const b = ours.json();
        still(b);
        // the first object that differs, named, before the whole list is compared
        const first = a.results.findIndex(
          (r: unknown, i: number) => JSON.stringify(r) !== JSON.stringify(b.results[i]),
        );
        if (first >= 0) expect(b.results[first], `${dialect} ${path}`).toEqual(a.results[first]);
        expect(b, `${dialect} ${path}`).toEqual(a);
        compared += a.count;
      }
    }
    expect(compared).toBeGreaterThan(2000);
  });

  it('keeps ids, times and what the write path derives: a site page, an object change log, a signed-out user', async () => {
    const site = (await src.get('/api/dcim/sites/?cf_ticket=T-1')).json().results[0];
    const copied = (await dst.get(`/api/dcim/sites/${site.id}/`, src.token)).json();
    expect(copied.created).toBe(site.created);
    expect(copied.custom_fields.owner_tenant.id).toBe(site.custom_fields.owner_tenant.id);
    // an interface's changes are its device's too (the related object is found again from the record)
    const lagChange = await sql<{ n: number }>`select count(*)::int as n from extras_objectchange
      where changed_object_type = 'dcim.interface' and related_object_type = 'dcim.device'`.execute(dst.db.kysely);
    expect(lagChange.rows[0]!.n).toBeGreaterThan(0);
    // no password travels: a copied user cannot sign in until one is set
    const { rows } = await sql<{
      password: string;
    }>`select password from users_user where username = ${src.username}`.execute(dst.db.kysely);
    expect(rows[0]!.password.startsWith('!')).toBe(true);
    const signIn = await dst.request('POST', '/api/users/tokens/provision/', {
      body: { username: src.username, password: src.password },
      token: null,
    });
    expect(signIn.statusCode).toBe(403);
    // no change records or webhook deliveries of its own
    const own = await sql<{
      n: number;
    }>`select count(*)::int as n from extras_objectchange where user_name = 'import-netbox'`.execute(dst.db.kysely);
    expect(own.rows[0]!.n).toBe(0);
    // an image attachment's file, read from the source's media URL and stored here under its name
    const image = (await dst.get('/api/extras/image-attachments/', src.token)).json().results[0];
    expect(image.image).toMatch(/\/media\/image-attachments\/site_\d+_front\.png$/);
    const file = await dst.request('GET', new URL(image.image).pathname, { token: src.token });
    expect(file.rawPayload.equals(png(3, 2))).toBe(true);
    // new objects continue after the copied ids
    const fresh = await dst.post('/api/dcim/sites/', named('site'), src.token);
    expect(fresh.statusCode).toBe(201);
    expect(fresh.json().id).toBeGreaterThan(site.id);
  });

  it('a second run writes nothing: every object is already there and identical', async () => {
    const again = await copyInto(dst, { check: false });
    expect(again.types.reduce((n, t) => n + t.created, 0)).toBe(0);
    expect(again.types.reduce((n, t) => n + t.present, 0)).toBe(again.objects);
    expect(again.changes!.copied).toBe(0);
  });
});

describe('values that move while a copy runs', () => {
  it("a token used between the copy's read and its check is no difference (its last_updated is its last use)", async () => {
    const dst = await emptyTarget();
    const bumps: Array<Promise<unknown>> = [];
    try {
      const report = await copyFrom(dst.app, new Source({ url, token: src.token }), {
        progress: (line) => {
          // the tokens are written: their last use at the source moves now, as it does when the
          // copy's own requests cross the 60 s after which a use is recorded again
          if (/\] users\.token: /.test(line))
            bumps.push(sql`update users_token set last_used = now()`.execute(src.db.kysely));
        },
      });
      await Promise.all(bumps);
      expect(bumps).toHaveLength(1);
      const { text, ok } = reportText(report);
      expect(ok, text).toBe(true);
    } finally {
      await dst.close();
    }
  }, 180_000);
});

describe('a NetBox 3 source (the same instance behind a proxy that refuses 4.4, as NetBox 3.7 does)', () => {
  let proxy: Server;
  let dst: TestApp;
  let report: CopyReport;

  beforeAll(async () => {
    proxy = createServer(async (req, res) => {
      // DRF's AcceptHeaderVersioning: a version the release does not speak is 406
      if (/version=4\.4/.test(req.headers.accept ?? '')) {
        res.writeHead(406, { 'content-type': 'application/json' });
        return res.end('{"detail":"Invalid version in \\"Accept\\" header."}');
      }
      const answer = await fetch(`${url}${req.url}`, { headers: { authorization: String(req.headers.authorization) } });
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(await answer.text());
    });
    await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
    dst = await emptyTarget();
    const proxied = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    report = await copyFrom(dst.app, new Source({ url: proxied, token: src.token }));
  }, 180_000);
  afterAll(async () => {
    await new Promise((ok) => proxy.close(ok));
    await dst?.close();
  });

  it('reads in the 3.4 dialect, and every 3.4 list agrees', async () => {
    expect(report.dialect).toBe('3.4');
    expect(JSON.stringify(report.types.flatMap((t) => t.rejected))).toBe('[]');
    expect(JSON.stringify(report.checks.filter((c) => c.missing.length || c.differing))).toBe('[]');
    for (const path of ['/api/dcim/interfaces/', '/api/dcim/devices/', '/api/users/users/', '/api/extras/webhooks/']) {
      const theirs = (await src.get(`${path}?limit=1000`)).json();
      const ours = (await dst.get(`${path}?limit=1000`, src.token)).json();
      expect(ours, path).toEqual(theirs);
    }
  });
});

describe('refusals', () => {
  it('an id the target holds with another object stops the copy at that type, which is left as it was', async () => {
    let mine: Record<string, unknown> = {};
    const dst = await emptyTarget(async (t) => (mine = await makeSite(t, { name: 'Mine', slug: 'mine' })));
    try {
      const err = await copyInto(dst).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ImportError);
      expect((err as Error).message).toMatch(
        new RegExp(`dcim\\.site ${mine.id} .*taken here by another object .*name`),
      );
      const sites = await sql<{ name: string }>`select name from dcim_site`.execute(dst.db.kysely);
      expect(sites.rows.map((r) => r.name)).toEqual(['Mine']);
      // what came before it in the order is there, and kept by a later run
      const regions = await sql<{ n: number }>`select count(*)::int as n from dcim_region`.execute(dst.db.kysely);
      expect(regions.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await dst.close();
    }
  });

  it('an object the target rejects is named; with continue-on-error the rest is copied', async () => {
    const theirs = (await src.get('/api/dcim/manufacturers/?ordering=id&limit=1')).json().results[0];
    const dst = await emptyTarget(async (t) => {
      await sql`select setval('dcim_manufacturer_id_seq', 100000)`.execute(t.db.kysely);
      await make(t, '/api/dcim/manufacturers/', { name: theirs.name, slug: 'other-slug' });
    });
    try {
      const stopped = await copyInto(dst).catch((e: unknown) => e);
      expect((stopped as Error).message).toMatch(new RegExp(`dcim\\.manufacturer ${theirs.id} .*was refused.*name`));
      const types = await sql<{ n: number }>`select count(*)::int as n from dcim_manufacturer`.execute(dst.db.kysely);
      expect(types.rows[0]!.n).toBe(1);

      const report = await copyInto(dst, { continueOnError: true, check: true });
      const refused = report.types.find((t) => t.model === 'dcim.manufacturer')!.rejected;
      expect(refused.map((r) => r.id)).toEqual([theirs.id]);
      expect(refused[0]!.reason).toMatch(/name/);
      expect(report.types.find((t) => t.model === 'dcim.site')!.created).toBeGreaterThan(0);
      const { text, ok } = reportText(report);
      expect(ok).toBe(false);
      expect(text).toContain(`dcim.manufacturer ${theirs.id}`);
    } finally {
      await dst.close();
    }
  });
});

describe('a source that cannot be copied', () => {
  let fake: Server;
  let fakeUrl: string;
  let mode: 'status-only' | 'fail-lists' | 'hang' | 'old' = 'status-only';

  beforeAll(async () => {
    fake = createServer((req, res) => {
      if (mode === 'hang') return;
      if (req.headers.authorization !== 'Token good') {
        res.writeHead(403, { 'content-type': 'application/json' });
        return res.end('{"detail":"Invalid token"}');
      }
      if (req.url?.startsWith('/api/status/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ 'netbox-version': mode === 'old' ? '2.11.0' : '3.7.8' }));
      }
      if (mode === 'fail-lists') {
        res.writeHead(502);
        return res.end('Bad Gateway');
      }
      res.writeHead(404);
      res.end('{}');
    });
    await new Promise<void>((ok) => fake.listen(0, '127.0.0.1', ok));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((ok) => fake.close(() => ok())));

  const detect = (u: string, token: string, timeoutMs = 2000) =>
    Promise.resolve()
      .then(() => new Source({ url: u, token, timeoutMs, retries: 1 }).detect())
      .then(
        () => null,
        (e: Error) => e,
      );

  it('names a wrong token, a source that is not NetBox 3 or 4, and one that does not answer', async () => {
    mode = 'status-only';
    expect((await detect(fakeUrl, 'bad'))?.message).toMatch(/refused the token \(403/);
    mode = 'old';
    expect((await detect(fakeUrl, 'good'))?.message).toMatch(/not a NetBox 3\.x or 4\.x.*2\.11\.0/);
    mode = 'hang';
    expect((await detect(fakeUrl, 'good', 300))?.message).toMatch(/no answer within 0\.3 s/);
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((ok) => closed.close(ok));
    expect((await detect(`http://127.0.0.1:${port}`, 'good'))?.message).toMatch(
      /failed on \/api\/status\/.*ECONNREFUSED/,
    );
    expect((await detect('not a url', 'good'))?.message).toMatch(/is not a URL/);
  });

  it('stops with the status a failing source answers, the target left as it was', async () => {
    mode = 'fail-lists';
    const dst = await emptyTarget();
    try {
      const err = await copyFrom(dst.app, new Source({ url: fakeUrl, token: 'good', retries: 1 })).catch(
        (e: Error) => e,
      );
      expect(err).toBeInstanceOf(ImportError);
      expect((err as Error).message).toMatch(/failed on \/api\/.*502 Bad Gateway/);
      const sites = await sql<{ n: number }>`select count(*)::int as n from dcim_site`.execute(dst.db.kysely);
      expect(sites.rows[0]!.n).toBe(0);
    } finally {
      await dst.close();
    }
  });
});

describe('the command line', () => {
  /** `inventory import-netbox ...` as a user runs it (async: the source answers from this process) */
  const run = (dataDir: string, ...args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['--import', 'tsx', 'src/cli.ts', 'import-netbox', ...args],
        { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }, timeout: 170_000 },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr }),
      ),
    );

  it('refuses a missing flag and an unreachable source with one message and exit 1, before a DATA_DIR is made', async () => {
    const dataDir = join(src.tempDir('inv-import-cli-'), 'data');
    const usage = await run(dataDir, '--url', url);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toMatch(/usage: inventory import-netbox --url .* --token KEY/);
    const refused = await run(dataDir, '--url', url, '--token', 'not-a-token');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/the source refused the token \(403/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('copies into a new DATA_DIR, prints progress and the report, and exits 0 when both sides agree', async () => {
    const dataDir = join(src.tempDir('inv-import-cli-'), 'data');
    const r = await run(dataDir, '--url', url, '--token', src.token);
    expect(r.stderr).toBe('');
    expect(r.code, r.stdout.slice(-3000)).toBe(0);
    expect(r.stdout).toMatch(/^\[\d+\/\d+\] dcim\.interface: \d+ read in [\d.]+ s; \d+ created/m);
    expect(r.stdout).toMatch(/Check: every object of \d+ types read again on both sides; they agree/);
    expect(r.stdout).toMatch(/\d+ objects in [\d.]+ s \(\d+ objects\/s\)/);
  }, 180_000);
});
