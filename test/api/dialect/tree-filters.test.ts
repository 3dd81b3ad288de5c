/**
 * NetBox 4.0 (#15383): a location's `parent` filter matches its direct children, the old meaning
 * (every level below) moved to `ancestor`; every tree model gained `ancestor`. The 3.4 dialect keeps
 * 3.4's meaning and ignores `ancestor`, as NetBox 3.4 ignores a parameter it does not know.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSite, uniq } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

let t: TestApp;
const V44 = { accept: 'application/json; version=4.4' };
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

async function names(url: string, dialect: '3.4' | '4.4') {
  const res = await t.request('GET', url, { headers: dialect === '4.4' ? V44 : {} });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().results as Array<{ name: string }>).map((r) => r.name).sort();
}

describe('tree filters per dialect', () => {
  it('a location: parent is every level below in 3.4, the children in 4.4; ancestor is 4.4 only', async () => {
    const site = await makeSite(t);
    const loc = async (name: string, parent?: number) =>
      (await t.post('/api/dcim/locations/', { name, slug: uniq(name), site: site.id, parent })).json();
    const top = await loc('top');
    const mid = await loc('mid', top.id);
    await loc('low', mid.id);
    const at = `/api/dcim/locations/?site_id=${site.id}`;
    expect(await names(`${at}&parent_id=${top.id}`, '3.4')).toEqual(['low', 'mid']);
    expect(await names(`${at}&parent_id=${top.id}`, '4.4')).toEqual(['mid']);
    expect(await names(`${at}&parent=${top.slug}`, '4.4')).toEqual(['mid']);
    expect(await names(`${at}&ancestor_id=${top.id}`, '4.4')).toEqual(['low', 'mid']);
    expect(await names(`${at}&ancestor=${top.slug}`, '4.4')).toEqual(['low', 'mid']);
    expect(await names(`${at}&ancestor_id__n=${top.id}`, '4.4')).toEqual(['top']);
    expect(await names(`${at}&ancestor_id=${top.id}`, '3.4')).toEqual(['low', 'mid', 'top']);
    const bad = await t.request('GET', `${at}&ancestor_id=987654321`, { headers: V44 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['ancestor_id']);
  });

  it('a region: parent stays the children, ancestor every level below', async () => {
    const region = async (name: string, parent?: number) =>
      (await t.post('/api/dcim/regions/', { name: uniq(name), slug: uniq(name), parent })).json();
    const top = await region('r-top');
    const mid = await region('r-mid', top.id);
    const low = await region('r-low', mid.id);
    const ids = async (url: string) =>
      ((await t.request('GET', url, { headers: V44 })).json().results as Array<{ id: number }>).map((r) => r.id);
    expect(await ids(`/api/dcim/regions/?parent_id=${top.id}`)).toEqual([mid.id]);
    expect((await ids(`/api/dcim/regions/?ancestor_id=${top.id}`)).sort()).toEqual([mid.id, low.id].sort());
  });
});
