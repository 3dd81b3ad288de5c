/**
 * Reserved query parameters (docs/api-differences.md, Strict input): `brief` takes boolean words, `ordering`
 * orderable fields (counts included); anything else is a 400 naming the parameter, never ignored.
 * (limit and offset: pagination.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, makeSite } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

describe('brief', () => {
  it('takes true, 1, yes, on (any case) for the brief form on lists and details', async () => {
    const site = await makeSite(t);
    for (const word of ['true', 'True', '1', 'yes', 'ON']) {
      expect(Object.keys((await t.get(`/api/dcim/sites/${site.id}/?brief=${word}`)).json()).sort(), word).toEqual([
        'display',
        'id',
        'name',
        'slug',
        'url',
      ]);
      expect(
        Object.keys((await t.get(`/api/dcim/sites/?brief=${word}&id=${site.id}`)).json().results[0]).sort(),
        word,
      ).toEqual(['display', 'id', 'name', 'slug', 'url']);
    }
  });

  it('takes false, 0, no, off and an empty value for the full form (NetBox 3.4 would answer brief to any non-empty value)', async () => {
    const site = await makeSite(t);
    for (const word of ['false', 'FALSE', '0', 'no', 'off', '']) {
      expect((await t.get(`/api/dcim/sites/${site.id}/?brief=${word}`)).json(), word).toHaveProperty('status');
    }
  });

  it('answers any other value with 400 naming brief', async () => {
    const site = await makeSite(t);
    for (const word of ['2', 'y', 'maybe', 'truee', '1&brief=maybe']) {
      for (const url of [`/api/dcim/sites/${site.id}/?brief=${word}`, `/api/dcim/sites/?brief=${word}`]) {
        const res = await t.get(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toEqual({
          brief: [
            `Must be a valid boolean: ${word.split('&')[0] === '1' ? 'maybe' : word} is not one of true, false, 1, 0, yes, no, on, off.`,
          ],
        });
      }
    }
  });
});

describe('ordering', () => {
  const INVALID = (name: string) => ({
    ordering: [`Select a valid choice. ${name} is not one of the available choices.`],
  });

  it('answers a name that is not an orderable field with 400 naming ordering', async () => {
    for (const name of ['nope', '-nope', 'name,nope', 'tags', 'custom_fields', 'asns', '-']) {
      const res = await t.get(`/api/dcim/sites/?ordering=${name}`);
      expect(res.statusCode, name).toBe(400);
      expect(res.json(), name).toEqual(INVALID(name.split(',').pop()!));
    }
    // write-only and secret fields are not orderable either
    const res = await t.get('/api/users/users/?ordering=password');
    expect(res.json()).toEqual(INVALID('password'));
  });

  it('orders by fields, several names and repeated parameters, earlier first', async () => {
    const p = uniq('ord');
    await t.post('/api/dcim/sites/', [
      { name: `${p}-b`, slug: `${p}-b`, facility: 'f1' },
      { name: `${p}-a`, slug: `${p}-a`, facility: 'f2' },
      { name: `${p}-c`, slug: `${p}-c`, facility: 'f1' },
    ]);
    const names = async (q: string) =>
      ((await t.get(`/api/dcim/sites/?q=${p}&${q}`)).json().results as Array<{ name: string }>).map((s) => s.name);
    expect(await names('ordering=-name')).toEqual([`${p}-c`, `${p}-b`, `${p}-a`]);
    expect(await names('ordering=facility,-name')).toEqual([`${p}-c`, `${p}-b`, `${p}-a`]);
    expect(await names('ordering=-facility&ordering=name')).toEqual([`${p}-a`, `${p}-b`, `${p}-c`]);
    // blank names between commas are no names
    expect(await names('ordering=name,,')).toEqual([`${p}-a`, `${p}-b`, `${p}-c`]);
  });

  it('orders by counts, cumulative ones of trees included', async () => {
    const p = uniq('cnt');
    const [few, many] = (
      await t.post('/api/tenancy/tenants/', [
        { name: `${p}-few`, slug: `${p}-few` },
        { name: `${p}-many`, slug: `${p}-many` },
      ])
    ).json();
    await t.post(
      '/api/dcim/sites/',
      [1, 2, 3].map((i) => ({ name: `${p}-s${i}`, slug: `${p}-s${i}`, tenant: i === 1 ? few.id : many.id })),
    );
    const tenants = async (q: string) =>
      (await t.get(`/api/tenancy/tenants/?q=${p}&${q}`)).json().results as Array<{ id: number; site_count: number }>;
    expect((await tenants('ordering=-site_count')).map((x) => x.id)).toEqual([many.id, few.id]);
    expect((await tenants('ordering=site_count')).map((x) => x.site_count)).toEqual([1, 2]);

    const [parent] = (await t.post('/api/dcim/regions/', [{ name: `${p}-parent`, slug: `${p}-parent` }])).json();
    const [child, other] = (
      await t.post('/api/dcim/regions/', [
        { name: `${p}-child`, slug: `${p}-child`, parent: parent.id },
        { name: `${p}-other`, slug: `${p}-other` },
      ])
    ).json();
    await t.post('/api/dcim/sites/', [
      { name: `${p}-r1`, slug: `${p}-r1`, region: child.id },
      { name: `${p}-r2`, slug: `${p}-r2`, region: child.id },
      { name: `${p}-r3`, slug: `${p}-r3`, region: other.id },
    ]);
    const regions = (await t.get(`/api/dcim/regions/?q=${p}&ordering=-site_count,name`)).json().results as Array<{
      id: number;
      site_count: number;
    }>;
    // the parent counts its child's two sites
    expect(regions.map((r) => [r.id, r.site_count])).toEqual([
      [child.id, 2],
      [parent.id, 2],
      [other.id, 1],
    ]);
  });
});
