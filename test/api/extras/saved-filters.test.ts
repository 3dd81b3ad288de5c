/**
 * Saved filters (NetBox 3.7 SavedFilter) and `?filter=` / `?filter_id=` on lists
 * (core/query/saved-filters.ts): merged with the request's own filters; each named filter must
 * exist, be usable by the caller (enabled, shared or their own) and be for the listed model, and a
 * bad stored value is a 400 naming the saved filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, grant, makeUser, type TestUser, makeSite } from '../../factories/index.js';

let t: TestApp;
let alice: TestUser;
let bob: TestUser;
const p = uniq('sfsite');
const sites: Record<string, number> = {};

beforeAll(async () => {
  t = await makeTestApp();
  alice = await makeUser(t);
  bob = await makeUser(t);
  await grant(t, {
    object_types: ['dcim.site', 'extras.savedfilter'],
    actions: ['view', 'add', 'change'],
    users: [alice.id, bob.id],
  });
  for (const status of ['active', 'planned', 'retired'])
    sites[status] = (await makeSite(t, { name: `${p}-${status}`, slug: `${p}-${status}`, status })).id as number;
});
afterAll(async () => t.close());

async function saved(extra: Record<string, unknown>, token?: string) {
  const slug = uniq('sf');
  const res = await t.post(
    '/api/extras/saved-filters/',
    { name: slug, slug, content_types: ['dcim.site'], parameters: { status: 'planned' }, ...extra },
    token,
  );
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; slug: string; user: number | null };
}

const siteIds = async (query: string, token?: string) => {
  const res = await t.get(`/api/dcim/sites/?q=${p}&ordering=name&${query}`, token);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().results as Array<{ id: number }>).map((s) => s.id);
};

describe('/api/extras/saved-filters/', () => {
  it('renders NetBox 3.7 fields; the owner defaults to the caller and renders as an id', async () => {
    const sf = await saved({}, alice.token);
    const body = (await t.get(`/api/extras/saved-filters/${sf.id}/`)).json();
    expect(Object.keys(body).sort()).toEqual(
      [
        'id',
        'url',
        'display',
        'content_types',
        'name',
        'slug',
        'description',
        'user',
        'weight',
        'enabled',
        'shared',
        'parameters',
        'created',
        'last_updated',
      ].sort(),
    );
    expect(body).toMatchObject({
      user: alice.id,
      weight: 100,
      enabled: true,
      shared: true,
      parameters: { status: 'planned' },
      display: sf.slug,
    });
    // an owner given explicitly, or none
    expect((await saved({ user: bob.id })).user).toBe(bob.id);
    expect((await saved({ user: null })).user).toBeNull();
  });

  it('refuses parameters that are no object of scalar values, and unknown or missing content types', async () => {
    for (const parameters of [['status'], 'status=active', null, { status: { nested: 1 } }, { status: [['a']] }]) {
      const res = await t.post('/api/extras/saved-filters/', {
        name: uniq('x'),
        slug: uniq('x'),
        content_types: ['dcim.site'],
        parameters,
      });
      expect(res.statusCode, JSON.stringify(parameters)).toBe(400);
      expect(Object.keys(res.json())).toEqual(['parameters']);
    }
    const bad = await t.post('/api/extras/saved-filters/', {
      name: uniq('x'),
      slug: uniq('x'),
      content_types: ['dcim.nothing'],
      parameters: {},
    });
    expect(bad.json()).toEqual({ content_types: ['Invalid content type: dcim.nothing'] });
    const empty = await t.post('/api/extras/saved-filters/', {
      name: uniq('x'),
      slug: uniq('x'),
      content_types: [],
      parameters: {},
    });
    expect(empty.json()).toEqual({ content_types: ['This list may not be empty.'] });
  });

  it("lists by usable: enabled and shared or the caller's own", async () => {
    const own = await saved({ shared: false }, alice.token);
    const others = await saved({ shared: false }, bob.token);
    const off = await saved({ enabled: false }, alice.token);
    const shared = await saved({}, bob.token);
    const ids = async (q: string) =>
      (
        (await t.get(`/api/extras/saved-filters/?limit=0&${q}`, alice.token)).json().results as Array<{ id: number }>
      ).map((r) => r.id);
    const usable = await ids('usable=true');
    expect(usable).toEqual(expect.arrayContaining([own.id, shared.id]));
    expect(usable).not.toContain(others.id);
    expect(usable).not.toContain(off.id);
    const unusable = await ids('usable=false');
    expect(unusable).toEqual(expect.arrayContaining([others.id, off.id]));
    expect(unusable).not.toContain(own.id);
    expect((await t.get('/api/extras/saved-filters/?usable=maybe')).statusCode).toBe(400);
    expect(await ids(`user_id=${bob.id}&shared=false`)).toEqual([others.id]);
  });

  it('keeps a saved filter when its owner is deleted, without an owner', async () => {
    const carol = await makeUser(t);
    const sf = await saved({ user: carol.id });
    expect((await t.del(`/api/users/users/${carol.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/extras/saved-filters/${sf.id}/`)).json().user).toBeNull();
  });
});

describe('?filter= and ?filter_id= on lists', () => {
  it("applies a saved filter by slug or by id, together with the request's own filters", async () => {
    const sf = await saved({ parameters: { status: ['planned', 'retired'] } });
    expect(await siteIds('')).toHaveLength(3);
    expect(await siteIds(`filter=${sf.slug}`)).toEqual([sites.planned, sites.retired]);
    expect(await siteIds(`filter_id=${sf.id}`)).toEqual([sites.planned, sites.retired]);
    expect(await siteIds(`filter=${sf.slug}&slug=${p}-retired`)).toEqual([sites.retired]);
  });

  it('ORs the values of a key both give, and ANDs two saved filters on different keys', async () => {
    const planned = await saved({ parameters: { status: 'planned' } });
    expect(await siteIds(`filter=${planned.slug}&status=active`)).toEqual([sites.active, sites.planned]);
    const notRetired = await saved({ parameters: { status__n: 'retired' } });
    const byName = await saved({ parameters: { name__isw: `${p}-a` } });
    expect(await siteIds(`filter=${notRetired.slug}&filter_id=${byName.id}`)).toEqual([sites.active]);
  });

  it("takes the saved filter's value for a filter that takes one value (q), as NetBox's merge leaves it last", async () => {
    const sf = await saved({ parameters: { q: `${p}-retired` } });
    expect(await siteIds(`filter=${sf.slug}`)).toEqual([sites.retired]);
  });

  it('keeps filter= in the page links', async () => {
    const sf = await saved({ parameters: { status: ['active', 'planned'] } });
    const body = (await t.get(`/api/dcim/sites/?q=${p}&filter=${sf.slug}&limit=1`)).json();
    expect(body.count).toBe(2);
    expect(new URL(body.next).searchParams.get('filter')).toBe(sf.slug);
  });

  it('answers 400 under filter / filter_id for a filter that does not exist', async () => {
    const res = await t.get('/api/dcim/sites/?filter=no-such-filter');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      filter: ['Select a valid choice. no-such-filter is not one of the available choices.'],
    });
    const byId = await t.get('/api/dcim/sites/?filter_id=999999');
    expect(byId.json()).toEqual({ filter_id: ['Select a valid choice. 999999 is not one of the available choices.'] });
    expect((await t.get('/api/dcim/sites/?filter_id=abc')).json()).toEqual({
      filter_id: ['"abc" is not a valid value.'],
    });
  });

  it('answers 400 for a disabled filter and one for another object type', async () => {
    const off = await saved({ enabled: false });
    expect((await t.get(`/api/dcim/sites/?filter=${off.slug}`)).json()).toEqual({
      filter: [`Saved filter "${off.slug}" is disabled.`],
    });
    const devices = await saved({ content_types: ['dcim.device'] });
    const res = await t.get(`/api/dcim/sites/?filter_id=${devices.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ filter_id: [`Saved filter "${devices.slug}" does not apply to dcim.site.`] });
    // the same filter serves the model it is for
    expect((await t.get(`/api/dcim/devices/?filter_id=${devices.id}`)).statusCode).toBe(200);
  });

  it("lets only its owner use a filter that is not shared; another user's looks unknown", async () => {
    const mine = await saved({ shared: false, parameters: { status: 'retired' } }, alice.token);
    expect(await siteIds(`filter=${mine.slug}`, alice.token)).toEqual([sites.retired]);
    const res = await t.get(`/api/dcim/sites/?filter=${mine.slug}`, bob.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      filter: [`Select a valid choice. ${mine.slug} is not one of the available choices.`],
    });
    // superusers follow the same rule
    expect((await t.get(`/api/dcim/sites/?filter=${mine.slug}`)).statusCode).toBe(400);
    // shared, anyone may use it
    await t.patch(`/api/extras/saved-filters/${mine.id}/`, { shared: true });
    expect(await siteIds(`filter=${mine.slug}`, bob.token)).toEqual([sites.retired]);
  });

  it('answers 400 naming the saved filter when a stored value is one the list cannot take', async () => {
    const bad = await saved({ parameters: { status: 'bogus' } });
    const res = await t.get(`/api/dcim/sites/?filter=${bad.slug}`);
    expect(res.statusCode).toBe(400);
    const body = res.json() as Record<string, string[]>;
    expect(Object.keys(body)).toEqual(['filter']);
    expect(body.filter![0]).toMatch(new RegExp(`^Saved filter "${bad.slug}": status: .*bogus`));
    const badId = await saved({ parameters: { region_id: 'x' } });
    const byId = await t.get(`/api/dcim/sites/?filter_id=${badId.id}`);
    expect(byId.statusCode).toBe(400);
    expect(byId.json().filter_id[0]).toMatch(new RegExp(`^Saved filter "${badId.slug}": region_id: `));
  });

  it('ignores unknown parameter names in a saved filter, as on the request', async () => {
    const sf = await saved({ parameters: { no_such_filter: 'x', status: 'active' } });
    expect(await siteIds(`filter=${sf.slug}`)).toEqual([sites.active]);
  });
});
