/**
 * Accounts from the pages, through app.inject() on the suite's engine: an administrator creates a
 * user in a group and a permission "view the devices of one site", which is all that user then
 * sees (lists, search, the pickers' API); password rules on every form; no one raises their own
 * rights; a disabled user's session and token stop at once; a password change ends the user's other
 * sessions; and the change log never holds a password.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grant, make, makeDevice, makeGroup, makeSite, makeUser, uniq } from '../factories/index.js';
import { makeTestApp, type TestApp } from '../helpers/app.js';
import { formValues, postForm } from '../helpers/web-forms.js';
import { newBrowser, signIn, type WebSession } from '../helpers/web-session.js';

let t: TestApp;
let admin: WebSession;
beforeAll(async () => {
  t = await makeTestApp();
  admin = await signIn(t, t.username, t.password);
});
afterAll(async () => t.close());

const STRONG = 'Correct-Horse-42';
/** the field errors a form page shows */
const fieldErrors = (body: string) => [...body.matchAll(/<p class="field-error"[^>]*>([^<]*)<\/p>/g)].map((m) => m[1]);
const userByName = async (username: string) =>
  (await t.get(`/api/users/users/?username=${encodeURIComponent(username)}`)).json().results[0];

describe('an administrator gives a new user the devices of one site', () => {
  const tag = uniq('acct');
  let dc1: Record<string, unknown>;
  let inDc1: Record<string, unknown>;
  let elsewhere: Record<string, unknown>;
  let groupId: number;
  let b: WebSession;
  beforeAll(async () => {
    dc1 = await makeSite(t, { name: `${tag}-dc1`, slug: `${tag}-dc1` });
    inDc1 = await makeDevice(t, { name: `${tag}-in`, site: dc1.id });
    elsewhere = await makeDevice(t, { name: `${tag}-out` });
  });

  it('refuses a weak password on the add form, naming each rule, and writes nothing', async () => {
    const add = (password: string) =>
      postForm(t, admin, '/users/users/add/', [
        ['username', `${tag}-b`],
        ['password', password],
        ['_create', '1'],
      ]);
    const short = await add('secret');
    expect(short.statusCode).toBe(400);
    expect(fieldErrors(short.body).join(' ')).toBe(
      'The password must have at least 12 characters. The password must have at least one digit. The password must have at least one upper-case letter.',
    );
    const named = await add(`Zz9-${tag}-B-long`);
    expect(named.statusCode).toBe(400);
    expect(fieldErrors(named.body).join(' ')).toBe('The password must not contain the username.');
    expect(await userByName(`${tag}-b`)).toBeUndefined();
  });

  it('creates the group, the user in it and the permission from the pages', async () => {
    const g = await postForm(t, admin, '/users/groups/add/', [
      ['name', `${tag}-ops`],
      ['_create', '1'],
    ]);
    expect(g.statusCode, g.body).toBe(303);
    groupId = (await t.get(`/api/users/groups/?name=${tag}-ops`)).json().results[0].id;
    const u = await postForm(t, admin, '/users/users/add/', [
      ['username', `${tag}-b`],
      ['password', STRONG],
      ['groups', String(groupId)],
      ['is_active', 'true'],
      ['_create', '1'],
    ]);
    expect(u.statusCode, u.body).toBe(303);
    const user = await userByName(`${tag}-b`);
    expect(user.groups.map((x: { id: number }) => x.id)).toEqual([groupId]);
    expect(user.is_superuser).toBe(false);
    const p = await postForm(t, admin, '/users/permissions/add/', [
      ['name', `${tag}-view-dc1`],
      ['enabled', 'true'],
      ['object_types', 'dcim.device'],
      ['object_types', 'dcim.site'],
      ['actions', 'view'],
      ['groups', String(groupId)],
      ['constraints', JSON.stringify([{ site__slug: `${tag}-dc1` }, { slug: `${tag}-dc1` }])],
      ['_create', '1'],
    ]);
    // a constraint list: each set is tried against each type; a site has no `site`, a device no
    // `slug`: a page names the problem and writes nothing (the API takes it, as NetBox's does)
    expect(p.statusCode).toBe(400);
    expect(fieldErrors(p.body).join(' ')).toContain('cannot filter');
    expect((await t.get(`/api/users/permissions/?name=${tag}-view-dc1`)).json().count).toBe(0);
    const ok = await postForm(t, admin, '/users/permissions/add/', [
      ['name', `${tag}-view-dc1`],
      ['enabled', 'true'],
      ['object_types', 'dcim.device'],
      ['actions', 'view'],
      ['groups', String(groupId)],
      ['constraints', JSON.stringify({ site__slug: `${tag}-dc1` })],
      ['_create', '1'],
    ]);
    expect(ok.statusCode, ok.body).toBe(303);
    const perm = (await t.get(`/api/users/permissions/?name=${tag}-view-dc1`)).json().results[0];
    expect(perm).toMatchObject({ object_types: ['dcim.device'], actions: ['view'] });
  });

  it('the form offers object types and actions to choose, not free text', async () => {
    const form = (await admin.request('GET', '/users/permissions/add/')).body;
    expect(form).toMatch(/<select id="id_object_types" name="object_types"[^>]*multiple/);
    expect(form).toContain('<option value="dcim.device">dcim | device</option>');
    expect(form).toMatch(/<select id="id_actions" name="actions"[^>]*multiple/);
  });

  it('the new user sees only the devices of that site, in lists, search and the API the pickers use', async () => {
    b = await signIn(t, `${tag}-b`, STRONG);
    const list = await b.request('GET', `/dcim/devices/?q=${tag}`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(`${tag}-in`);
    expect(list.body).not.toContain(`${tag}-out`);
    const search = await b.request('GET', `/search/?q=${tag}`);
    expect(search.body).toContain(`${tag}-in`);
    expect(search.body).not.toContain(`${tag}-out`);
    const picker = await b.request('GET', `/api/dcim/devices/?brief=true&q=${tag}`, {
      headers: { accept: 'application/json' },
    });
    expect(picker.json().results.map((d: { id: number }) => d.id)).toEqual([inDc1.id]);
    expect((await b.request('GET', `/dcim/devices/${elsewhere.id}/`)).statusCode).toBe(404);
    // and no account pages: those are an administrator's
    expect((await b.request('GET', '/users/users/')).statusCode).toBe(403);
  });

  it('a disabled user is signed out and their token refused at once', async () => {
    const user = await userByName(`${tag}-b`);
    const token = await make(t, '/api/users/tokens/', { user: user.id });
    expect((await t.get('/api/dcim/devices/', token.key as string)).statusCode).toBe(200);
    const page = (await admin.request('GET', `/users/users/${user.id}/edit/`)).body;
    const values = formValues(page, `/users/users/${user.id}/edit/`).filter(([k]) => k !== 'is_active');
    const res = await postForm(t, admin, `/users/users/${user.id}/edit/`, [...values, ['_update', '1']]);
    expect(res.statusCode, res.body).toBe(303);
    expect((await userByName(`${tag}-b`)).is_active).toBe(false);
    const after = await b.request('GET', '/dcim/devices/');
    expect(after.statusCode).toBe(302);
    expect(after.headers.location).toMatch(/^\/login\/\?next=/);
    expect((await t.get('/api/dcim/devices/', token.key as string)).statusCode).toBe(403);
    await t.patch(`/api/users/users/${user.id}/`, { is_active: true });
  });
});

describe('nobody raises their own rights', () => {
  let manager: Awaited<ReturnType<typeof makeUser>>;
  let m: WebSession;
  let managersGroup: Record<string, unknown>;
  let otherGroup: Record<string, unknown>;
  beforeAll(async () => {
    managersGroup = await makeGroup(t);
    otherGroup = await makeGroup(t);
    manager = await makeUser(t, { password: STRONG, groups: [managersGroup.id] });
    await grant(t, {
      object_types: ['users.user', 'users.group', 'users.objectpermission'],
      actions: ['view', 'add', 'change', 'delete'],
      groups: [managersGroup.id as number],
    });
    m = await signIn(t, manager.username, STRONG);
  });

  it('a user manager sees the account pages, without the superuser box', async () => {
    const list = await m.request('GET', '/users/users/');
    expect(list.statusCode).toBe(200);
    const form = await m.request('GET', '/users/users/add/');
    expect(form.body).toContain('id="id_is_staff"');
    expect(form.body).not.toContain('id_is_superuser');
  });

  it('cannot make a superuser (the posted box is ignored) nor staff', async () => {
    const name = uniq('made');
    const res = await postForm(t, m, '/users/users/add/', [
      ['username', name],
      ['password', STRONG],
      ['is_superuser', 'true'],
      ['is_active', 'true'],
      ['_create', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    expect((await userByName(name)).is_superuser).toBe(false);
    const staff = await postForm(t, m, '/users/users/add/', [
      ['username', uniq('staff')],
      ['password', STRONG],
      ['is_staff', 'true'],
      ['_create', '1'],
    ]);
    expect(staff.statusCode).toBe(400);
    expect(fieldErrors(staff.body).join(' ')).toContain('Only a superuser');
  });

  it('cannot change their own groups, by page or API', async () => {
    const url = `/users/users/${manager.id}/edit/`;
    const values = formValues((await m.request('GET', url)).body, url);
    const res = await postForm(t, m, url, [...values, ['groups', String(otherGroup.id)], ['_update', '1']]);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('your own groups');
    const api = await t.patch(
      `/api/users/users/${manager.id}/`,
      { groups: [managersGroup.id, otherGroup.id] },
      manager.token,
    );
    expect(api.statusCode).toBe(403);
    // an edit that leaves them alone is fine
    const same = await postForm(t, m, url, [
      ...values.filter(([k]) => k !== 'first_name'),
      ['first_name', 'Max'],
      ['_update', '1'],
    ]);
    expect(same.statusCode, same.body).toBe(303);
    const user = (await t.get(`/api/users/users/${manager.id}/`)).json();
    expect(user.first_name).toBe('Max');
    expect(user.groups.map((g: { id: number }) => g.id)).toEqual([managersGroup.id]);
  });

  it('cannot change a permission that applies to them, nor give one to themselves', async () => {
    const theirs = (await t.get(`/api/users/permissions/?group_id=${managersGroup.id}`)).json().results[0];
    const widen = await t.patch(
      `/api/users/permissions/${theirs.id}/`,
      { object_types: [...theirs.object_types, 'dcim.device'] },
      manager.token,
    );
    expect(widen.statusCode).toBe(403);
    const give = await postForm(t, m, '/users/permissions/add/', [
      ['name', uniq('mine')],
      ['object_types', 'dcim.site'],
      ['actions', 'delete'],
      ['users', String(manager.id)],
      ['_create', '1'],
    ]);
    expect(give.statusCode).toBe(403);
    // one for somebody else is theirs to make
    const other = await makeUser(t);
    const fine = await postForm(t, m, '/users/permissions/add/', [
      ['name', uniq('theirs')],
      ['object_types', 'dcim.site'],
      ['actions', 'view'],
      ['users', String(other.id)],
      ['_create', '1'],
    ]);
    expect(fine.statusCode, fine.body).toBe(303);
  });

  it('a superuser makes a superuser from the page, and cannot demote or disable themselves', async () => {
    const name = uniq('root');
    const res = await postForm(t, admin, '/users/users/add/', [
      ['username', name],
      ['password', STRONG],
      ['is_superuser', 'true'],
      ['is_active', 'true'],
      ['_create', '1'],
    ]);
    expect(res.statusCode, res.body).toBe(303);
    const root = await userByName(name);
    expect(root.is_superuser).toBe(true);
    const r = await signIn(t, name, STRONG);
    const url = `/users/users/${root.id}/edit/`;
    const values = formValues((await r.request('GET', url)).body, url).filter(
      ([k]) => k !== 'is_superuser' && k !== 'is_active',
    );
    const demote = await postForm(t, r, url, [...values, ['_update', '1']]);
    expect(demote.statusCode).toBe(400);
    expect(fieldErrors(demote.body).join(' ')).toMatch(/own superuser status.*|deactivate your own account/);
    expect((await userByName(name)).is_superuser).toBe(true);
  });

  it('nor through a bulk edit, which offers no superuser box even to a superuser', async () => {
    const form = await postForm(t, admin, '/users/users/edit/', [['pk', String(manager.id)]], {
      formUrl: '/users/users/',
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.body).toContain('name="is_staff"');
    expect(form.body).not.toContain('name="is_superuser"');
  });

  it("lists every user's tokens and permissions on the user's page", async () => {
    const tokens = await admin.request('GET', `/users/users/${manager.id}/api-tokens/`);
    expect(tokens.statusCode).toBe(200);
    expect(tokens.body).toContain('aria-current="page">API tokens <span class="count">1</span>');
    const members = await admin.request('GET', `/users/groups/${managersGroup.id}/users/`);
    expect(members.body).toContain(manager.username);
  });
});

describe('a password of your own', () => {
  it('changes with the current one, follows the rules, and signs out your other sessions', async () => {
    const u = await makeUser(t, { password: STRONG });
    const here = await signIn(t, u.username, STRONG);
    const elsewhere = await signIn(t, u.username, STRONG);
    const wrong = await postForm(t, here, '/user/password/', [
      ['old_password', 'not-it'],
      ['new_password1', 'Another-Secret-7'],
      ['new_password2', 'Another-Secret-7'],
    ]);
    expect(wrong.statusCode).toBe(400);
    expect(fieldErrors(wrong.body)).toEqual(['This is not your current password.']);
    const weak = await postForm(t, here, '/user/password/', [
      ['old_password', STRONG],
      ['new_password1', 'short'],
      ['new_password2', 'shorter'],
    ]);
    expect(weak.statusCode).toBe(400);
    expect(fieldErrors(weak.body).join(' ')).toContain('at least 12 characters');
    expect(fieldErrors(weak.body).join(' ')).toContain('differ');
    const ok = await postForm(t, here, '/user/password/', [
      ['old_password', STRONG],
      ['new_password1', 'Another-Secret-7'],
      ['new_password2', 'Another-Secret-7'],
    ]);
    expect(ok.statusCode, ok.body).toBe(303);
    // this browser got a fresh session; the other one is signed out
    const cookie = [ok.headers['set-cookie']].flat().find((c) => c?.startsWith('sessionid='))!;
    here.cookies.set('sessionid', cookie.slice('sessionid='.length).split(';')[0]!);
    expect((await here.request('GET', '/user/profile/')).statusCode).toBe(200);
    expect((await elsewhere.request('GET', '/user/profile/')).statusCode).toBe(302);
    await signIn(t, u.username, 'Another-Secret-7');
    await expect(signIn(t, u.username, STRONG)).rejects.toThrow();
    // the change is logged, without the password or its hash
    const changes = (
      await t.get(`/api/extras/object-changes/?changed_object_type=users.user&changed_object_id=${u.id}`)
    ).json();
    expect(changes.count).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(changes.results)).not.toMatch(/password|scrypt/);
  });

  it('is only for a signed-in user', async () => {
    const anon = newBrowser(t);
    const res = await anon.request('GET', '/user/password/');
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/login/?next=%2Fuser%2Fpassword%2F');
  });

  it('an API client of NetBox 3.4 still sets any password; a 4.4 one follows the rules', async () => {
    const u = await makeUser(t);
    expect((await t.patch(`/api/users/users/${u.id}/`, { password: 'x' })).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/users/${u.id}/`,
      headers: {
        authorization: `Token ${t.token}`,
        'content-type': 'application/json',
        accept: 'application/json; version=4.4',
      },
      payload: JSON.stringify({ password: 'x' }),
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().password.join(' ')).toContain('at least 12 characters');
  });
});

describe('preferences', () => {
  it('keeps colour mode, page size and time zone server-side: a new browser finds them', async () => {
    const u = await makeUser(t, { password: STRONG });
    const first = await signIn(t, u.username, STRONG);
    const res = await postForm(t, first, '/user/preferences/', [
      ['colormode', 'dark'],
      ['per_page', '25'],
      ['timezone', 'Asia/Tokyo'],
    ]);
    expect(res.statusCode).toBe(303);
    const second = await signIn(t, u.username, STRONG);
    const home = await second.request('GET', '/dcim/sites/');
    expect(home.body).toContain('<html lang="en" data-theme="dark">');
    const config = (await t.get('/api/users/config/', u.token)).json();
    expect(config).toMatchObject({
      ui: { colormode: 'dark' },
      pagination: { per_page: 25 },
      locale: { timezone: 'Asia/Tokyo' },
    });
    // a time shown in Tokyo's zone, the instant kept in UTC
    const site = await makeSite(t);
    await grant(t, { object_types: ['dcim.site'], actions: ['view'], users: [u.id] });
    const page = (await second.request('GET', `/dcim/sites/${site.id}/`)).body;
    const m = /<time datetime="([^"]+T[^"]+)">([^<]+)<\/time>/.exec(page)!;
    const utcHour = new Date(m[1]!).getUTCHours();
    expect(m[2]).toMatch(new RegExp(` ${String((utcHour + 9) % 24).padStart(2, '0')}:\\d\\d:\\d\\d GMT\\+9$`));
    // lists show 25 rows unless the URL says otherwise
    await make(
      t,
      '/api/dcim/sites/',
      Array.from({ length: 30 }, () => {
        const n = uniq('pp');
        return { name: n, slug: n };
      }),
    );
    expect((await second.request('GET', '/dcim/sites/')).body).toMatch(/1–25 of \d+/);
    expect((await second.request('GET', '/dcim/sites/?per_page=50')).body).toMatch(/1–\d+ of \d+/);
  });

  it('refuses a time zone or page size it does not know, with the reason', async () => {
    const u = await makeUser(t, { password: STRONG });
    const b = await signIn(t, u.username, STRONG);
    const res = await postForm(t, b, '/user/preferences/', [
      ['colormode', ''],
      ['per_page', '7'],
      ['timezone', 'Mars/Olympus'],
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Mars/Olympus&quot; is not a time zone.');
    expect(res.body).toContain('Rows per page must be one of');
    expect((await t.get('/api/users/config/', u.token)).json()).toEqual({});
  });

  it('resets chosen table columns and the dashboard', async () => {
    const u = await makeUser(t, { password: STRONG });
    const b = await signIn(t, u.username, STRONG);
    await t.app.inject({
      method: 'PATCH',
      url: '/api/users/config/',
      headers: { authorization: `Token ${u.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ tables: { SiteTable: { columns: ['name'] }, RackTable: { columns: ['name'] } } }),
    });
    expect((await t.get('/api/extras/dashboard/', u.token)).statusCode).toBe(200);
    const page = (await b.request('GET', '/user/preferences/')).body;
    expect(page).toContain('name="reset_table" value="SiteTable"');
    const res = await postForm(t, b, '/user/preferences/', [
      ['colormode', ''],
      ['per_page', '50'],
      ['timezone', 'UTC'],
      ['reset_table', 'SiteTable'],
      ['reset_dashboard', 'on'],
    ]);
    expect(res.statusCode).toBe(303);
    expect((await t.get('/api/users/config/', u.token)).json()).toEqual({
      tables: { RackTable: { columns: ['name'] } },
    });
    const rows = await sql<{
      n: number;
    }>`select count(*)::int as n from extras_dashboard where user_id = ${u.id}`.execute(t.db.kysely);
    expect(rows.rows[0]!.n).toBe(0);
  });
});
