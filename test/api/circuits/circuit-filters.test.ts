/**
 * Filters of circuits and providers that cross relations (netbox-filters.md): site, region and
 * site group through the terminations (trees include descendants), tenant group through the
 * tenant, provider network, and the contact filters through contact assignments.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import {
  uniq,
  make,
  type Json,
  makeCircuitType,
  makeContactGroup,
  makeContactRole,
  makeProvider,
  makeRegion,
  makeSite,
  makeSiteGroup,
  makeTenant,
  makeTenantGroup,
} from '../../factories/index.js';

let t: TestApp;
const ids = async (url: string) => {
  const res = await t.get(url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().results.map((r: Json) => r.id);
};

// Two providers; circuit c1 (provider p1) ends at site s1 (child region, child site group, tenant in
// a child tenant group); c2 (p2) ends at s2 and in a provider network; c3 (p1) has no terminations.
let p1: Json, p2: Json, c1: Json, c2: Json, c3: Json, s1: Json, s2: Json;
let region: Json, subRegion: Json, group: Json, subGroup: Json, tgroup: Json, pnet: Json, tenant: Json;
const scope = () => `provider_id=${p1.id}&provider_id=${p2.id}`;

beforeAll(async () => {
  t = await makeTestApp();
  region = await makeRegion(t);
  subRegion = await makeRegion(t, { parent: region.id });
  group = await makeSiteGroup(t);
  subGroup = await makeSiteGroup(t, { parent: group.id });
  const topTg = await makeTenantGroup(t);
  tgroup = await makeTenantGroup(t, { parent: topTg.id });
  tgroup.top = topTg;
  tenant = await makeTenant(t, { group: tgroup.id });
  s1 = await makeSite(t, { region: subRegion.id, group: subGroup.id });
  s2 = await makeSite(t);
  p1 = await makeProvider(t);
  p2 = await makeProvider(t);
  pnet = await make(t, '/api/circuits/provider-networks/', { provider: p2.id, name: uniq('pnet') });
  const type = await makeCircuitType(t);
  c1 = await make(t, '/api/circuits/circuits/', {
    cid: uniq('c1'),
    provider: p1.id,
    type: type.id,
    tenant: tenant.id,
    status: 'planned',
  });
  c2 = await make(t, '/api/circuits/circuits/', { cid: uniq('c2'), provider: p2.id, type: type.id });
  c3 = await make(t, '/api/circuits/circuits/', { cid: uniq('c3'), provider: p1.id, type: type.id });
  await make(t, '/api/circuits/circuit-terminations/', { circuit: c1.id, term_side: 'A', site: s1.id });
  await make(t, '/api/circuits/circuit-terminations/', { circuit: c2.id, term_side: 'A', site: s2.id });
  await make(t, '/api/circuits/circuit-terminations/', { circuit: c2.id, term_side: 'Z', provider_network: pnet.id });
});
afterAll(async () => t.close());

describe('GET /api/circuits/circuits/ relation filters', () => {
  it('filters by site and site_id through the terminations', async () => {
    expect(await ids(`/api/circuits/circuits/?site_id=${s1.id}`)).toEqual([c1.id]);
    expect(await ids(`/api/circuits/circuits/?site=${s2.slug}`)).toEqual([c2.id]);
    expect(await ids(`/api/circuits/circuits/?site_id=${s1.id}&site_id=${s2.id}&ordering=id`)).toEqual([c1.id, c2.id]);
    expect(await ids(`/api/circuits/circuits/?${scope()}&site_id__n=${s1.id}&ordering=id`)).toEqual([c2.id, c3.id]);
  });

  it('filters by region and site_group, including their descendants', async () => {
    for (const q of [
      `region=${region.slug}`,
      `region_id=${region.id}`,
      `region_id=${subRegion.id}`,
      `site_group=${group.slug}`,
      `site_group_id=${subGroup.id}`,
    ]) {
      expect(await ids(`/api/circuits/circuits/?${q}`), q).toEqual([c1.id]);
    }
    expect(await ids(`/api/circuits/circuits/?${scope()}&region__n=${region.slug}&ordering=id`)).toEqual([
      c2.id,
      c3.id,
    ]);
  });

  it('filters by tenant, tenant_group (with descendants) and provider_network_id', async () => {
    expect(await ids(`/api/circuits/circuits/?tenant=${tenant.slug}`)).toEqual([c1.id]);
    expect(await ids(`/api/circuits/circuits/?tenant_group=${tgroup.top.slug}`)).toEqual([c1.id]);
    expect(await ids(`/api/circuits/circuits/?tenant_group_id=${tgroup.id}`)).toEqual([c1.id]);
    expect(await ids(`/api/circuits/circuits/?provider_network_id=${pnet.id}`)).toEqual([c2.id]);
  });

  it('filters by provider, status and cid lookups', async () => {
    expect(await ids(`/api/circuits/circuits/?provider=${p1.slug}&ordering=id`)).toEqual([c1.id, c3.id]);
    expect(await ids(`/api/circuits/circuits/?${scope()}&status=planned`)).toEqual([c1.id]);
    expect(await ids(`/api/circuits/circuits/?cid__isw=${c2.cid.slice(0, 12)}&cid__iew=${c2.cid.slice(-6)}`)).toEqual([
      c2.id,
    ]);
  });

  it('answers 400 naming the parameter for unknown sites, regions and bad ids', async () => {
    for (const q of ['site=nope', 'region=nope', 'site_group_id=987654', 'site_id=abc', 'provider_network_id=987654']) {
      const res = await t.get(`/api/circuits/circuits/?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(Object.keys(res.json()), q).toEqual([q.split('=')[0]]);
    }
  });
});

describe('GET /api/circuits/providers/ relation filters', () => {
  it('filters providers by the sites, regions and site groups of their circuits', async () => {
    expect(await ids(`/api/circuits/providers/?site_id=${s1.id}`)).toEqual([p1.id]);
    expect(await ids(`/api/circuits/providers/?site=${s2.slug}`)).toEqual([p2.id]);
    expect(await ids(`/api/circuits/providers/?region=${region.slug}`)).toEqual([p1.id]);
    expect(await ids(`/api/circuits/providers/?site_group_id=${group.id}`)).toEqual([p1.id]);
    expect(await ids(`/api/circuits/providers/?id=${p1.id}&id=${p2.id}&site_id__n=${s1.id}`)).toEqual([p2.id]);
  });
});

describe('contact filters on circuits and providers', () => {
  it('filters by contact, contact_role and contact_group (with subgroups)', async () => {
    const top = await makeContactGroup(t);
    const sub = await makeContactGroup(t, { parent: top.id });
    const contact = await make(t, '/api/tenancy/contacts/', { name: uniq('contact'), group: sub.id });
    const other = await make(t, '/api/tenancy/contacts/', { name: uniq('contact') });
    const role = await makeContactRole(t);
    const role2 = await makeContactRole(t);
    const assign = (content_type: string, object_id: number, c: Json, r: Json) =>
      make(t, '/api/tenancy/contact-assignments/', { content_type, object_id, contact: c.id, role: r.id });
    await assign('circuits.circuit', c2.id, contact, role);
    await assign('circuits.circuit', c3.id, other, role2);
    await assign('circuits.provider', p1.id, contact, role2);
    expect(await ids(`/api/circuits/circuits/?contact=${contact.id}`)).toEqual([c2.id]);
    expect(await ids(`/api/circuits/circuits/?contact_role=${role2.id}`)).toEqual([c3.id]);
    expect(await ids(`/api/circuits/circuits/?contact_group=${top.id}`)).toEqual([c2.id]);
    expect(await ids(`/api/circuits/circuits/?${scope()}&contact__n=${contact.id}&ordering=id`)).toEqual([
      c1.id,
      c3.id,
    ]);
    expect(await ids(`/api/circuits/providers/?contact=${contact.id}`)).toEqual([p1.id]);
    expect(await ids(`/api/circuits/providers/?contact_role=${role.id}`)).toEqual([]);
    const bad = await t.get('/api/circuits/circuits/?contact=987654');
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json())).toEqual(['contact']);
  });
});
