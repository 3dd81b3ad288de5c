/**
 * The change log's pages at NetBox 4's `/core/changelog/` and the operations pages, through
 * app.inject() on the suite's engine: the list filtered by user, request id, action and time range
 * (exact rows), a change's page with its field-by-field difference and the other changes of its
 * request, the former paths' permanent redirects, who may see them (view_objectchange, as NetBox),
 * the journal list's filters, the system page with its JSON export (no secret in it), and the
 * background tasks' retry.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachEventWorker } from '../../src/core/events/index.js';
import type { EventWorker } from '../../src/core/events/worker.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { redactedConfig } from '../../src/core/system/redact-config.js';
import { loadConfig } from '../../src/config.js';
import { grant, type Json, make, makeUser, type TestUser, uniq } from '../factories/index.js';
import { inDialect44 } from '../factories/netbox4.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { signIn, type WebSession } from '../helpers/web-session.js';

const PEPPER = `pepper-${'s3cret'.repeat(10)}`;
const ADMIN_SECRET = 'admin-pw-n0t-to-be-shown';

let t: TestApp;
let admin: WebSession;
let writer: TestUser;
/** the change records this file made, by what made them */
let mine: { writerCreate: Json; writerUpdate: Json; bulk: Json[]; adminDelete: Json };
let site: Json;

/** the change ids a list page shows, in its order (the first column links to each change) */
const rowIds = (body: string) =>
  [...body.matchAll(/<tr><td class="pk">.*?<\/td><td><a href="\/core\/changelog\/(\d+)\/">/g)].map((m) => Number(m[1]));

async function changesOf(filter: string): Promise<Json[]> {
  const res = await t.get(`/api/core/object-changes/?${filter}&limit=100`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results;
}

beforeAll(async () => {
  t = await makeTestApp({ API_TOKEN_PEPPERS: JSON.stringify({ 1: PEPPER }), ADMIN_PASSWORD: ADMIN_SECRET });
  admin = await signIn(t, t.username, t.password);
  writer = await makeUser(t);
  await grant(t, { object_types: ['dcim.site'], actions: ['view', 'add', 'change'], users: [writer.id] });
  // the writer creates a site and renames it; the superuser creates two in one request and deletes one
  const slug = uniq('cl-site');
  const created = await t.post('/api/dcim/sites/', { name: slug, slug, description: 'first' }, writer.token);
  expect(created.statusCode, created.body).toBe(201);
  site = created.json();
  const updated = await t.patch(
    `/api/dcim/sites/${site.id}/`,
    { name: `${slug}-renamed`, custom_fields: {}, description: 'first' },
    writer.token,
  );
  expect(updated.statusCode, updated.body).toBe(200);
  const pair = [uniq('cl-bulk'), uniq('cl-bulk')].map((n) => ({ name: n, slug: n }));
  const bulk = await make(t, '/api/dcim/sites/', pair as never);
  const doomed = (bulk as unknown as Json[])[1]!;
  expect((await t.del(`/api/dcim/sites/${doomed.id}/`)).statusCode).toBe(204);
  const writerChanges = await changesOf(`user=${writer.username}`);
  const bulkChanges = await changesOf(
    `changed_object_type=dcim.site&action=create&changed_object_id=${(bulk as unknown as Json[]).map((s) => s.id).join('&changed_object_id=')}`,
  );
  mine = {
    writerCreate: writerChanges.find((c) => c.action.value === 'create')!,
    writerUpdate: writerChanges.find((c) => c.action.value === 'update')!,
    bulk: bulkChanges,
    adminDelete: (await changesOf(`action=delete&changed_object_id=${doomed.id}&changed_object_type=dcim.site`))[0]!,
  };
});
afterAll(async () => t.close());

describe('/core/changelog/', () => {
  it("filters by user: exactly the writer's two changes, newest first", async () => {
    const res = await admin.request('GET', `/core/changelog/?user=${writer.username}`);
    expect(res.statusCode).toBe(200);
    expect(rowIds(res.body)).toEqual([mine.writerUpdate.id, mine.writerCreate.id]);
    // by the user picker's id too, as the filter form sends it
    const byId = await admin.request('GET', `/core/changelog/?user_id=${writer.id}`);
    expect(rowIds(byId.body)).toEqual([mine.writerUpdate.id, mine.writerCreate.id]);
  });

  it('filters by request id: the two sites one request made', async () => {
    expect(mine.bulk).toHaveLength(2);
    expect(mine.bulk[0]!.request_id).toBe(mine.bulk[1]!.request_id);
    const res = await admin.request('GET', `/core/changelog/?request_id=${mine.bulk[0]!.request_id}`);
    expect(rowIds(res.body).sort()).toEqual(mine.bulk.map((c) => c.id).sort());
    expect(res.body).toContain('Request ID: ');
  });

  it('filters by action and by time range', async () => {
    const deletes = await admin.request('GET', '/core/changelog/?action=delete');
    expect(rowIds(deletes.body)).toEqual([mine.adminDelete.id]);
    // from the writer's update up to the bulk create: those three changes, whatever else exists
    const after = encodeURIComponent(mine.writerUpdate.time);
    const before = encodeURIComponent(mine.bulk[0]!.time);
    const range = await admin.request(
      'GET',
      `/core/changelog/?changed_object_type=dcim.site&time_after=${after}&time_before=${before}`,
    );
    expect(rowIds(range.body).sort()).toEqual([mine.writerUpdate.id, ...mine.bulk.map((c) => c.id)].sort());
    // the filter form has the same inputs
    for (const name of ['time_after', 'time_before', 'action', 'user_id', 'changed_object_type', 'request_id'])
      expect(range.body).toContain(`name="${name}"`);
    const bad = await admin.request('GET', '/core/changelog/?time_after=yesterday');
    expect(bad.statusCode).toBe(400);
  });

  it('links each existing object and names a deleted one', async () => {
    const res = await admin.request('GET', `/core/changelog/?user=${writer.username}`);
    expect(res.body).toContain(`<a href="/dcim/sites/${site.id}/">${site.name}</a>`);
    const deleted = await admin.request('GET', '/core/changelog/?action=delete');
    expect(deleted.body).toContain(`<td>${mine.adminDelete.object_repr}</td>`);
  });

  it('exports as the other lists do', async () => {
    const res = await admin.request('GET', `/core/changelog/?user=${writer.username}&export=table`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('attachment');
    expect(res.body.trim().split('\n')).toHaveLength(3);
  });

  it('keeps the former paths as permanent redirects, query and ids included', async () => {
    const old = await admin.request('GET', `/extras/changelog/?user=${writer.username}&action=create`);
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe(`/core/changelog/?user=${writer.username}&action=create`);
    const generated = await admin.request('GET', `/extras/object-changes/${mine.writerCreate.id}/`);
    expect(generated.statusCode).toBe(301);
    expect(generated.headers.location).toBe(`/core/changelog/${mine.writerCreate.id}/`);
  });

  it('is refused (403) to a user without extras.view_objectchange, shown to one with it', async () => {
    const u = await makeUser(t);
    const browser = await signIn(t, u.username, u.password);
    expect((await browser.request('GET', '/core/changelog/')).statusCode).toBe(403);
    expect((await browser.request('GET', `/core/changelog/${mine.writerCreate.id}/`)).statusCode).toBe(403);
    await grant(t, { object_types: ['extras.objectchange'], actions: ['view'], users: [u.id] });
    const allowed = await browser.request('GET', `/core/changelog/?user=${writer.username}`);
    expect(allowed.statusCode).toBe(200);
    expect(rowIds(allowed.body)).toHaveLength(2);
    expect((await browser.request('GET', `/core/changelog/${mine.writerCreate.id}/`)).statusCode).toBe(200);
  });

  it("is the menu's change log entry", async () => {
    const res = await admin.request('GET', '/');
    expect(res.body).toContain('<a href="/core/changelog/">Object changes</a>');
  });
});

/** the difference table's rows: field, then its cells */
const diffRows = (body: string) =>
  [
    ...(body.match(/<table class="diff">[\s\S]*?<\/table>/)?.[0] ?? '').matchAll(
      /<tr><th scope="row">([^<]+)<\/th>(.*?)<\/tr>/g,
    ),
  ].map((m) => [m[1]!, m[2]!.replace(/<[^>]+>/g, '|').replace(/\|+/g, '|')]);

describe('/core/changelog/<id>/', () => {
  it('shows an update as the changed fields before and after, and no unchanged one', async () => {
    const res = await admin.request('GET', `/core/changelog/${mine.writerUpdate.id}/`);
    expect(res.statusCode).toBe(200);
    const rows = diffRows(res.body);
    expect(rows.map(([k]) => k)).toEqual(['name']);
    expect(rows[0]![1]).toBe(`|${site.name}|${site.name}-renamed|`);
    expect(res.body).toContain(writer.username);
    expect(res.body).toContain(`<a href="/dcim/sites/${site.id}/">${site.name}-renamed</a>`);
    expect(res.body).toContain(`<code>${mine.writerUpdate.request_id}</code>`);
    expect(res.body).toContain('<td>DCIM › Site <span class="muted">dcim.site</span></td>');
    expect(res.body).toContain('Other changes in this request <span class="count">0</span>');
  });

  it('shows a create as every new value and a delete as every old one', async () => {
    const created = diffRows((await admin.request('GET', `/core/changelog/${mine.writerCreate.id}/`)).body);
    expect(created).toContainEqual(['description', '|first|']);
    expect(created).toContainEqual(['slug', `|${site.slug}|`]);
    expect(created.map(([k]) => k)).not.toContain('last_updated');
    const deleted = await admin.request('GET', `/core/changelog/${mine.adminDelete.id}/`);
    expect(deleted.body).toContain('<th scope="col">Before</th>');
    expect(deleted.body).not.toContain('<th scope="col">After</th>');
    expect(diffRows(deleted.body)).toContainEqual(['name', `|${mine.adminDelete.object_repr}|`]);
  });

  it('names nested keys by their path (custom fields)', async () => {
    const cf = uniq('cf').replace(/-/g, '_');
    await make(t, '/api/extras/custom-fields/', { name: cf, type: 'text', content_types: ['dcim.site'] });
    const res = await t.patch(`/api/dcim/sites/${site.id}/`, { custom_fields: { [cf]: 'rack row 4' } });
    expect(res.statusCode, res.body).toBe(200);
    const [change] = await changesOf(`changed_object_type=dcim.site&changed_object_id=${site.id}&action=update`);
    const rows = diffRows((await admin.request('GET', `/core/changelog/${change!.id}/`)).body);
    expect(rows).toEqual([[`custom_fields.${cf}`, '|—|rack row 4|']]);
  });

  it("shows the message the write carried (NetBox 4.4's changelog_message)", async () => {
    const message = uniq('moved to row 4');
    const res = await inDialect44(t).patch(`/api/dcim/sites/${site.id}/`, {
      description: 'moved',
      changelog_message: message,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [change] = await changesOf(`changed_object_type=dcim.site&changed_object_id=${site.id}&action=update`);
    const page = await admin.request('GET', `/core/changelog/${change!.id}/`);
    expect(page.body).toContain(`<th scope="row">Message</th><td>${message}</td>`);
    expect(diffRows(page.body)).toEqual([['description', '|first|moved|']]);
  });

  it('links the other changes of the same request, with their count', async () => {
    const [first, second] = mine.bulk;
    const res = await admin.request('GET', `/core/changelog/${first!.id}/`);
    expect(res.body).toContain('Other changes in this request <span class="count">1</span>');
    expect(res.body).toContain(`<a href="/core/changelog/${second!.id}/">dcim.site ${second!.object_repr}</a>`);
    expect(res.body).toContain(`href="/core/changelog/?request_id=${first!.request_id}"`);
  });

  it("is where the object's changelog tab links each change", async () => {
    const res = await admin.request('GET', `/dcim/sites/${site.id}/changelog/`);
    expect(res.body).toContain(`<a href="/core/changelog/${mine.writerUpdate.id}/">`);
    expect(res.body).toContain(`<a href="/core/changelog/${mine.writerCreate.id}/">`);
  });

  it('answers 404 for a change that does not exist', async () => {
    expect((await admin.request('GET', '/core/changelog/999999999/')).statusCode).toBe(404);
  });
});

describe('/extras/journal-entries/ filters', () => {
  it("offers NetBox's filters and applies them", async () => {
    const entry = await make(t, '/api/extras/journal-entries/', {
      assigned_object_type: 'dcim.site',
      assigned_object_id: site.id,
      kind: 'warning',
      comments: uniq('note'),
    });
    const page = await admin.request('GET', '/extras/journal-entries/');
    for (const name of ['created_after', 'created_before', 'created_by_id', 'kind', 'assigned_object_type'])
      expect(page.body).toContain(`name="${name}"`);
    // the API shows the day it was made; the filters take a time
    const day = String(entry.created).slice(0, 10);
    const hit = await admin.request(
      'GET',
      `/extras/journal-entries/?assigned_object_type=dcim.site&kind=warning&created_after=${day}&created_before=${day}T23:59:59Z`,
    );
    expect(hit.statusCode).toBe(200);
    expect(hit.body.includes(`href="/extras/journal-entries/${entry.id}/"`)).toBe(true);
    const none = await admin.request('GET', `/extras/journal-entries/?kind=warning&created_before=${day}`);
    expect(none.body.includes(`href="/extras/journal-entries/${entry.id}/"`)).toBe(false);
    const ct = (await t.get('/api/extras/content-types/?app_label=dcim&model=site')).json().results[0];
    const byTypeId = await t.get(`/api/extras/journal-entries/?assigned_object_type_id=${ct.id}&id=${entry.id}`);
    expect(byTypeId.json().count).toBe(1);
    const later = await t.get(`/api/extras/journal-entries/?created_after=2999-01-01&id=${entry.id}`);
    expect(later.json().count).toBe(0);
  });
});

describe('/core/system/', () => {
  it('shows a superuser the engine, migrations and object counts', async () => {
    const res = await admin.request('GET', '/core/system/');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(t.databaseUrl ? 'PostgreSQL ' : 'PGlite ');
    expect(res.body).toContain(process.version);
    const applied = await sql<{ n: string }>`select count(*)::text as n from schema_migrations`.execute(t.db.kysely);
    expect(res.body).toContain(`<th scope="row">Migrations applied</th><td>${applied.rows[0]!.n}`);
    const sites = (await t.get('/api/dcim/sites/?limit=1')).json().count;
    expect(res.body).toMatch(new RegExp(`Sites</a> <span class="muted">dcim.site</span></th><td>${sites}</td>`));
    expect(res.body).not.toContain(PEPPER);
    expect(res.body).not.toContain(ADMIN_SECRET);
  });

  it('exports everything as a JSON attachment with every secret hidden', async () => {
    const res = await admin.request('GET', '/core/system/?export=json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe('attachment; filename="netinventory-system.json"');
    const info = res.json();
    expect(info.database.engine).toBe(t.databaseUrl ? 'postgres' : 'pglite');
    expect(info.database.sizeBytes).toBeGreaterThan(0);
    expect(info.objectCounts['dcim.site']).toBe((await t.get('/api/dcim/sites/?limit=1')).json().count);
    expect(info.migrations.pending).toEqual([]);
    expect(info.config.adminPassword).toBe('********');
    expect(info.config.apiTokenPeppers).toEqual({ 1: '********' });
    expect(info.config.maxPageSize).toBe(1000);
    expect(res.body).not.toContain(PEPPER);
    expect(res.body).not.toContain(ADMIN_SECRET);
  });

  it("hides a database URL's password and keeps the rest of it", () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://inv:hunter2-db@db.example:5432/inventory' });
    const shown = redactedConfig(config);
    expect(shown.databaseUrl).toBe('postgres://inv:********@db.example:5432/inventory');
    expect(JSON.stringify(shown)).not.toContain('hunter2');
  });

  it('is refused (403) to a user who is not a superuser, and is in the Admin menu only for superusers', async () => {
    const browser = await signIn(t, writer.username, writer.password);
    expect((await browser.request('GET', '/core/system/')).statusCode).toBe(403);
    expect((await browser.request('GET', '/core/system/?export=json')).statusCode).toBe(403);
    expect((await browser.request('GET', '/')).body).not.toContain('href="/core/system/"');
    expect((await admin.request('GET', '/')).body).toContain('<a href="/core/system/">System</a>');
    expect((await admin.request('GET', '/')).body).toContain('<a href="/core/background-tasks/">Background tasks</a>');
  });
});

describe('/core/background-tasks/', () => {
  let rx: Receiver;
  let worker: EventWorker;
  beforeAll(async () => {
    rx = await startReceiver();
    worker = attachEventWorker(t.app.inventory, { pollMs: 50, name: uniq('worker') });
    const hook = await make(t, '/api/extras/webhooks/', { name: uniq('hook'), payload_url: `${rx.url}/in` });
    // on tenants only, so the sites the other tests make send nothing
    await make(t, '/api/extras/event-rules/', {
      name: uniq('rule'),
      content_types: ['tenancy.tenant'],
      type_create: true,
      action_object_id: hook.id,
    });
  });
  afterAll(async () => {
    await worker.stop();
    await rx.close();
  });

  it('shows the failed task under its state with the worker, and retries it (POST with CSRF, superusers only)', async () => {
    rx.answer = { status: 500, delayMs: 0, body: 'down' };
    await make(t, '/api/tenancy/tenants/', { name: uniq('tenant'), slug: uniq('tenant') });
    await worker.idle();
    const [failed] = (await t.get('/api/core/background-tasks/?status=failed')).json().results;
    expect(failed).toBeDefined();
    const list = await admin.request('GET', '/core/background-tasks/?status=failed');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(
      `<a href="/core/background-tasks/${failed.id}/">${failed.id}</a></td><td><span class="badge tone-bad">Failed</span>`,
    );
    expect(list.body).toMatch(/aria-current="page">Failed <span class="count">1<\/span>/);
    expect(list.body).toContain('<h2>Workers</h2>');
    const queues = await admin.request('GET', '/core/background-queues/');
    expect([queues.statusCode, queues.headers.location]).toEqual([301, '/core/background-tasks/']);
    expect(list.body).toContain('Last heartbeat');
    const csrf = list.body.match(/name="csrfmiddlewaretoken" value="(\w{64})"/)![1]!;
    // another user, even with the token, may not retry
    const other = await signIn(t, writer.username, writer.password);
    const refused = await other.request('POST', `/core/background-tasks/${failed.id}/requeue/`, {
      form: { csrfmiddlewaretoken: other.csrf() },
    });
    expect(refused.statusCode).toBe(403);
    expect((await admin.request('POST', `/core/background-tasks/${failed.id}/requeue/`, { form: {} })).statusCode).toBe(
      403,
    );
    rx.answer = { status: 204, delayMs: 0, body: '' };
    const retried = await admin.request('POST', `/core/background-tasks/${failed.id}/requeue/`, {
      form: { csrfmiddlewaretoken: csrf },
    });
    expect(retried.statusCode).toBe(303);
    await worker.idle();
    expect((await t.get(`/api/core/background-tasks/${failed.id}/`)).json().status).toBe('finished');
  });
});
