/**
 * ASNs assigned to sites and providers (NetBox 3.4 Site.asns, Provider.asns): written by id,
 * rendered nested, counted on the ASN, filtered from both sides, and cleared when the ASN goes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { idsAt, makeRir, makeSite, named } from '../../factories/index.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';

type Obj = { id: number; url: string; [k: string]: unknown };

let t: TestApp;
let asns: Obj[];
let site: Obj;
let other: Obj;
let provider: Obj;
const ids = (url: string) => idsAt(t, url);

beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

/**
 * Each test's own ASNs 65001, 65002 and 4200000000 (AS numbers are unique, so the previous test's
 * go first, which also clears their assignments): `site` holds the first two, `other` the third,
 * `provider` the second (by id) and the third (by attributes).
 */
beforeEach(async () => {
  const old = await ids('/api/ipam/asns/?asn=65001&asn=65002&asn=4200000000');
  if (old.length)
    expect(
      (
        await t.del(
          '/api/ipam/asns/',
          old.map((id) => ({ id })),
        )
      ).statusCode,
    ).toBe(204);
  const rir = await makeRir(t);
  const res = await t.post(
    '/api/ipam/asns/',
    [65001, 65002, 4_200_000_000].map((asn) => ({ asn, rir: rir.id })),
  );
  expect(res.statusCode, res.body).toBe(201);
  asns = res.json();
  site = (await makeSite(t, { asns: [asns[1]!.id, asns[0]!.id] })) as Obj;
  other = (await makeSite(t, { ...named('other'), asns: [asns[2]!.id] })) as Obj;
  const made = await t.post('/api/circuits/providers/', { ...named('provider'), asns: [asns[1]!.id, asns[2]!.id] });
  expect(made.statusCode, made.body).toBe(201);
  provider = made.json();
});

describe('writing and rendering', () => {
  it('writes site ASNs by id and renders them nested', async () => {
    const res = await t.post('/api/dcim/sites/', { ...named('site'), asns: [asns[1]!.id, asns[0]!.id] });
    expect(res.statusCode, res.body).toBe(201);
    const written: Obj = res.json();
    expect(written.asns).toEqual([
      { id: asns[0]!.id, url: asns[0]!.url, display: 'AS65001', asn: 65001 },
      { id: asns[1]!.id, url: asns[1]!.url, display: 'AS65002', asn: 65002 },
    ]);
    expect((await t.get(`/api/dcim/sites/${written.id}/`)).json().asns.map((a: Obj) => a.id)).toEqual([
      asns[0]!.id,
      asns[1]!.id,
    ]);
    expect((await makeSite(t)).asns).toEqual([]);
  });

  it('writes provider ASNs by id or by attributes', async () => {
    const res = await t.post('/api/circuits/providers/', {
      ...named('provider'),
      asns: [asns[1]!.id, { asn: 4_200_000_000 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().asns).toEqual([
      { id: asns[1]!.id, url: asns[1]!.url, display: 'AS65002', asn: 65002 },
      { id: asns[2]!.id, url: asns[2]!.url, display: 'AS4200000000 (64086.59904)', asn: 4_200_000_000 },
    ]);
  });

  it('answers 400 for an unknown ASN id and a value that is not a list', async () => {
    expect((await t.post('/api/dcim/sites/', { ...named('bad'), asns: [999999] })).json()).toEqual({
      asns: ['Invalid pk "999999" - object does not exist.'],
    });
    expect((await t.patch(`/api/circuits/providers/${provider.id}/`, { asns: 5 })).statusCode).toBe(400);
  });

  it('replaces the set on PATCH and leaves it alone when not sent', async () => {
    const patched = (await t.patch(`/api/dcim/sites/${other.id}/`, { asns: [asns[0]!.id] })).json();
    expect(patched.asns.map((a: Obj) => a.id)).toEqual([asns[0]!.id]);
    const untouched = (await t.patch(`/api/dcim/sites/${other.id}/`, { description: 'kept' })).json();
    expect(untouched.asns.map((a: Obj) => a.id)).toEqual([asns[0]!.id]);
  });

  it('logs the ASN ids in the change record', async () => {
    const res = (
      await t.get(`/api/extras/object-changes/?changed_object_type=dcim.site&changed_object_id=${site.id}`)
    ).json();
    expect(res.results[0].postchange_data.asns).toEqual([asns[0]!.id, asns[1]!.id]);
  });
});

describe('counts on the ASN', () => {
  it('counts the sites and providers holding each ASN', async () => {
    const counts = async (a: Obj) => {
      const o = (await t.get(`/api/ipam/asns/${a.id}/`)).json();
      return [o.site_count, o.provider_count];
    };
    expect(await counts(asns[0]!)).toEqual([1, 0]);
    expect(await counts(asns[1]!)).toEqual([1, 1]);
    expect(await counts(asns[2]!)).toEqual([1, 1]);
    const listed = (await t.get(`/api/ipam/asns/?id=${asns[1]!.id}`)).json().results[0];
    expect([listed.site_count, listed.provider_count]).toEqual([1, 1]);
  });
});

describe('filters', () => {
  it('filters sites by asn_id and asn, with __n', async () => {
    expect(await ids(`/api/dcim/sites/?asn_id=${asns[0]!.id}`)).toEqual([site.id]);
    expect(await ids(`/api/dcim/sites/?asn=65002&asn=4200000000&ordering=id`)).toEqual([site.id, other.id]);
    expect(await ids(`/api/dcim/sites/?id=${site.id}&id=${other.id}&asn_id__n=${asns[0]!.id}`)).toEqual([other.id]);
    expect(await ids(`/api/dcim/sites/?id=${site.id}&id=${other.id}&asn__n=4200000000`)).toEqual([site.id]);
  });

  it('filters providers by asn_id and asn', async () => {
    expect(await ids(`/api/circuits/providers/?asn_id=${asns[2]!.id}`)).toEqual([provider.id]);
    expect(await ids('/api/circuits/providers/?asn=65002')).toEqual([provider.id]);
    expect(await ids('/api/circuits/providers/?asn=65001')).toEqual([]);
  });

  it('filters ASNs by site_id and site (slug)', async () => {
    expect(await ids(`/api/ipam/asns/?site_id=${site.id}&ordering=asn`)).toEqual([asns[0]!.id, asns[1]!.id]);
    expect(await ids(`/api/ipam/asns/?site=${other.slug}`)).toEqual([asns[2]!.id]);
    expect(await ids(`/api/ipam/asns/?site_id__n=${site.id}&id=${asns[2]!.id}`)).toEqual([asns[2]!.id]);
  });

  it('answers 400 naming the parameter for unknown values', async () => {
    for (const url of [
      '/api/dcim/sites/?asn_id=999999',
      '/api/dcim/sites/?asn=64999',
      '/api/circuits/providers/?asn_id=999999',
      '/api/ipam/asns/?site=no-such-site',
    ]) {
      const res = await t.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(Object.keys(res.json()), url).toEqual([url.split('?')[1]!.split('=')[0]]);
    }
  });

  it('finds a site by an exact AS number with q=, besides its text fields', async () => {
    // ten-digit numbers: no test name (they carry the pid) can contain them by chance
    expect(await ids('/api/dcim/sites/?q=4200000000')).toEqual([other.id]);
    expect(await ids('/api/dcim/sites/?q=420000000')).toEqual([]);
    expect(await ids(`/api/dcim/sites/?q=${other.name}`)).toEqual([other.id]);
  });
});

describe('deletion', () => {
  it('deleting an ASN removes its assignments and keeps the sites and providers', async () => {
    expect((await t.del(`/api/ipam/asns/${asns[1]!.id}/`)).statusCode).toBe(204);
    expect((await t.get(`/api/dcim/sites/${site.id}/`)).json().asns.map((a: Obj) => a.id)).toEqual([asns[0]!.id]);
    expect((await t.get(`/api/circuits/providers/${provider.id}/`)).json().asns.map((a: Obj) => a.id)).toEqual([
      asns[2]!.id,
    ]);
  });

  it('deleting a site or provider removes its assignments and keeps the ASNs', async () => {
    expect((await t.del(`/api/dcim/sites/${other.id}/`)).statusCode).toBe(204);
    expect((await t.del(`/api/circuits/providers/${provider.id}/`)).statusCode).toBe(204);
    const a = (await t.get(`/api/ipam/asns/${asns[2]!.id}/`)).json();
    expect([a.site_count, a.provider_count]).toEqual([0, 0]);
  });
});
