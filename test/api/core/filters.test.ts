import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq } from '../../factories/index.js';

let t: TestApp;
const p = uniq('flt');
let tenantA: { id: number; slug: string };
let tenantB: { id: number; slug: string };
let group: { id: number; slug: string };
let parentRegion: { id: number; slug: string };
let childRegion: { id: number; slug: string };

const names = (res: { json(): { results: Array<{ name: string }> } }) =>
  res
    .json()
    .results.map((r) => r.name)
    .sort();

beforeAll(async () => {
  t = await makeTestApp();
  group = (await t.post('/api/tenancy/tenant-groups/', { name: `${p}-g`, slug: `${p}-g` })).json();
  tenantA = (await t.post('/api/tenancy/tenants/', { name: `${p}-ta`, slug: `${p}-ta`, group: group.id })).json();
  tenantB = (await t.post('/api/tenancy/tenants/', { name: `${p}-tb`, slug: `${p}-tb` })).json();
  parentRegion = (await t.post('/api/dcim/regions/', { name: `${p}-r`, slug: `${p}-r` })).json();
  childRegion = (
    await t.post('/api/dcim/regions/', { name: `${p}-rc`, slug: `${p}-rc`, parent: parentRegion.id })
  ).json();
  await t.post('/api/extras/tags/', [
    { name: `${p}-red`, slug: `${p}-red` },
    { name: `${p}-blue`, slug: `${p}-blue` },
  ]);
  const res = await t.post('/api/dcim/sites/', [
    {
      name: `${p}-s1`,
      slug: `${p}-s1`,
      status: 'active',
      tenant: tenantA.id,
      facility: 'Alpha DC',
      region: parentRegion.id,
      tags: [{ slug: `${p}-red` }],
    },
    {
      name: `${p}-s2`,
      slug: `${p}-s2`,
      status: 'planned',
      tenant: tenantB.id,
      facility: 'beta',
      region: childRegion.id,
      tags: [{ slug: `${p}-red` }, { slug: `${p}-blue` }],
    },
    { name: `${p}-s3`, slug: `${p}-s3`, status: 'retired', facility: '', latitude: 10.5 },
    {
      name: `${p}-s10`,
      slug: `${p}-s10`,
      status: 'active',
      facility: 'gamma',
      description: 'Needle in haystack',
      latitude: 40.25,
    },
  ]);
  expect(res.statusCode).toBe(201);
});
afterAll(async () => t.close());

const list = (q: string) => t.get(`/api/dcim/sites/?name__isw=${p}-s&${q}`);

describe('field lookups', () => {
  it('ORs repeated values of one parameter', async () => {
    expect(names(await list('status=active&status=retired'))).toEqual([`${p}-s1`, `${p}-s10`, `${p}-s3`]);
  });

  it('ANDs different parameters', async () => {
    expect(names(await list('status=active&facility__ic=alpha'))).toEqual([`${p}-s1`]);
  });

  it('supports the string lookups', async () => {
    expect(names(await list('facility__ic=ALPHA'))).toEqual([`${p}-s1`]);
    expect(names(await list('facility__nic=a'))).toEqual([`${p}-s3`]);
    expect(names(await list('facility__isw=BE'))).toEqual([`${p}-s2`]);
    expect(names(await list('facility__nisw=be'))).toEqual([`${p}-s1`, `${p}-s10`, `${p}-s3`]);
    expect(names(await list('facility__iew=DC'))).toEqual([`${p}-s1`]);
    expect(names(await list('facility__niew=a'))).toEqual([`${p}-s1`, `${p}-s3`]);
    expect(names(await list('facility__ie=GAMMA'))).toEqual([`${p}-s10`]);
    expect(names(await list('facility__nie=gamma&facility__nie=beta'))).toEqual([`${p}-s1`, `${p}-s3`]);
    expect(names(await list('facility=beta'))).toEqual([`${p}-s2`]);
    expect(names(await list('facility__n=beta'))).toEqual([`${p}-s1`, `${p}-s10`, `${p}-s3`]);
    expect(names(await list('facility__empty=true'))).toEqual([`${p}-s3`]);
    expect(names(await list('facility__empty=false'))).toHaveLength(3);
  });

  it('treats LIKE wildcards in values literally', async () => {
    expect(names(await list('facility__ic=%25'))).toEqual([]);
    expect(names(await list('facility__ic=_'))).toEqual([]);
  });

  it('supports numeric lookups', async () => {
    expect(names(await list('latitude__gt=20'))).toEqual([`${p}-s10`]);
    expect(names(await list('latitude__lte=10.5'))).toEqual([`${p}-s3`]);
    expect(names(await list('latitude__empty=true'))).toEqual([`${p}-s1`, `${p}-s2`]);
    expect(names(await list('latitude=40.25'))).toEqual([`${p}-s10`]);
  });

  it('answers a bad numeric value with 400 naming the parameter', async () => {
    const res = await list('latitude__gt=north');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ latitude__gt: ['Enter a number.'] });
    expect((await t.get('/api/dcim/sites/?id=abc')).json()).toEqual({ id: ['Enter a whole number.'] });
    expect((await t.get('/api/dcim/sites/?created__gte=yesterday')).json()).toEqual({
      created__gte: ['Enter a valid date/time.'],
    });
  });

  it('answers an unknown choice with 400', async () => {
    const res = await list('status=bogus');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: ['Select a valid choice. bogus is not one of the available choices.'] });
  });

  it('ignores unknown filter names', async () => {
    expect((await list('no_such_filter=1')).json().count).toBe(4);
  });

  it('filters by created date', async () => {
    expect((await list('created__gte=2000-01-01')).json().count).toBe(4);
    expect((await list('created__lt=2000-01-01')).json().count).toBe(0);
  });
});

describe('foreign key filters', () => {
  it('filters by <fk>_id and by <fk> slug, with n', async () => {
    expect(names(await list(`tenant_id=${tenantA.id}`))).toEqual([`${p}-s1`]);
    expect(names(await list(`tenant=${tenantB.slug}`))).toEqual([`${p}-s2`]);
    expect(names(await list(`tenant_id=${tenantA.id}&tenant_id=${tenantB.id}`))).toEqual([`${p}-s1`, `${p}-s2`]);
    expect(names(await list(`tenant_id__n=${tenantA.id}`))).toEqual([`${p}-s10`, `${p}-s2`, `${p}-s3`]);
    expect(names(await list('tenant_id=null'))).toEqual([`${p}-s10`, `${p}-s3`]);
  });

  it('answers an unknown related id or slug with 400', async () => {
    expect((await list('tenant_id=999999')).json()).toEqual({
      tenant_id: ['Select a valid choice. 999999 is not one of the available choices.'],
    });
    expect((await list('tenant=nope')).json()).toEqual({
      tenant: ['Select a valid choice. nope is not one of the available choices.'],
    });
  });

  it('includes descendants for tree filters', async () => {
    expect(names(await list(`region_id=${parentRegion.id}`))).toEqual([`${p}-s1`, `${p}-s2`]);
    expect(names(await list(`region=${childRegion.slug}`))).toEqual([`${p}-s2`]);
  });

  it('filters through a relation (tenant_group)', async () => {
    expect(names(await list(`tenant_group_id=${group.id}`))).toEqual([`${p}-s1`]);
    expect(names(await list(`tenant_group=${group.slug}`))).toEqual([`${p}-s1`]);
  });
});

describe('tags, search and ordering', () => {
  it('ANDs repeated tag values and supports tag__n', async () => {
    expect(names(await list(`tag=${p}-red`))).toEqual([`${p}-s1`, `${p}-s2`]);
    expect(names(await list(`tag=${p}-red&tag=${p}-blue`))).toEqual([`${p}-s2`]);
    expect(names(await list(`tag__n=${p}-blue`))).toEqual([`${p}-s1`, `${p}-s10`, `${p}-s3`]);
    expect((await list('tag=missing-tag')).statusCode).toBe(400);
  });

  it('searches with q', async () => {
    expect(names(await list('q=HAYSTACK'))).toEqual([`${p}-s10`]);
    expect(names(await list('q=alpha dc'))).toEqual([`${p}-s1`]);
  });

  it('orders naturally by name by default and reverses with -', async () => {
    const asc = (await list('')).json().results.map((r: { name: string }) => r.name);
    expect(asc).toEqual([`${p}-s1`, `${p}-s2`, `${p}-s3`, `${p}-s10`]);
    const desc = (await list('ordering=-name')).json().results.map((r: { name: string }) => r.name);
    expect(desc).toEqual([`${p}-s10`, `${p}-s3`, `${p}-s2`, `${p}-s1`]);
  });

  it('orders by several fields, earlier first; an unknown name is a 400 (NetBox drops it; issue 9)', async () => {
    const res = await list('ordering=status,-latitude');
    expect(res.statusCode).toBe(200);
    // descending puts nulls first (PostgreSQL and Django's default)
    expect(res.json().results.map((r: { name: string }) => r.name)).toEqual([
      `${p}-s1`,
      `${p}-s10`,
      `${p}-s2`,
      `${p}-s3`,
    ]);
    const bogus = await list('ordering=status,-latitude,bogus');
    expect(bogus.statusCode).toBe(400);
    expect(bogus.json()).toEqual({ ordering: ['Select a valid choice. bogus is not one of the available choices.'] });
  });
});
