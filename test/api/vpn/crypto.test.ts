import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, ids, make, makeIkeProposal, makeIpsecProposal, makeTunnel } from '../../factories/index.js';

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const get = async (url: string) => (await t.get(url)).json();

describe('IKE and IPSec proposals, policies and profiles', () => {
  it('offers proposals through policies (M2M written by id, rendered nested) and filters by them', async () => {
    const [p1, p2] = [
      await makeIkeProposal(t, { name: uniq('alpha') }),
      await makeIkeProposal(t, { name: uniq('beta'), group: 19, sa_lifetime: 28800 }),
    ];
    expect(p2).toMatchObject({
      group: { value: 19, label: 'Group 19' },
      authentication_method: { value: 'preshared-keys', label: 'Pre-shared keys' },
      sa_lifetime: 28800,
    });
    const policy = await make(t, '/api/vpn/ike-policies/', {
      name: uniq('ike'),
      version: 1,
      mode: 'main',
      proposals: [p1.id, p2.id],
      preshared_key: 's3cret',
    });
    expect(policy).toMatchObject({
      version: { value: 1, label: 'IKEv1' },
      mode: { value: 'main', label: 'Main' },
      preshared_key: 's3cret',
    });
    expect(policy.proposals.map((p: { id: number }) => p.id).sort()).toEqual([p1.id, p2.id].sort());
    const other = await make(t, '/api/vpn/ike-policies/', { name: uniq('ike'), proposals: [p2.id] });
    expect(other).toMatchObject({ version: { value: 2, label: 'IKEv2' }, mode: null });
    // NetBox 3.7 IKEPolicyFilterSet proposal / proposal_id, IKEProposalFilterSet ike_policy(_id)
    const policies = (q: string) => get(`/api/vpn/ike-policies/?id=${policy.id}&id=${other.id}&${q}`).then(ids);
    expect(await policies(`proposal_id=${p1.id}`)).toEqual([policy.id]);
    expect((await policies(`proposal_id=${p2.id}`)).sort()).toEqual([policy.id, other.id].sort());
    expect(await policies(`proposal=${p1.name}`)).toEqual([policy.id]);
    expect(await policies(`proposal__isw=${p1.name.slice(0, 5)}`)).toEqual([policy.id]);
    expect(await policies(`proposal__n=${p1.name}`)).toEqual([other.id]);
    expect(await policies(`preshared_key__ic=3cr`)).toEqual([policy.id]);
    expect(await policies(`version=2`)).toEqual([other.id]);
    expect(ids(await get(`/api/vpn/ike-proposals/?ike_policy_id=${other.id}`))).toEqual([p2.id]);
    expect(ids(await get(`/api/vpn/ike-proposals/?ike_policy=${policy.name}&group=14`))).toEqual([p1.id]);
    // replacing the members
    const patched = await t.patch(`/api/vpn/ike-policies/${policy.id}/`, { proposals: [p2.id] });
    expect(patched.json().proposals.map((p: { id: number }) => p.id)).toEqual([p2.id]);
    expect((await t.post('/api/vpn/ike-policies/', { name: uniq('ike'), proposals: [999999] })).statusCode).toBe(400);
  });

  it('applies NetBox 3.7 clean() rules: IKE mode by version, an IPSec proposal needs an algorithm', async () => {
    const v1 = await t.post('/api/vpn/ike-policies/', { name: uniq('ike'), version: 1 });
    expect(v1.json()).toEqual({ __all__: ['Mode is required for selected IKE version'] });
    const v2 = await t.post('/api/vpn/ike-policies/', { name: uniq('ike'), version: 2, mode: 'aggressive' });
    expect(v2.json()).toEqual({ __all__: ['Mode cannot be used for selected IKE version'] });
    expect((await t.post('/api/vpn/ike-policies/', { name: uniq('ike'), version: 3 })).json()).toEqual({
      version: ['"3" is not a valid choice.'],
    });
    const bare = await t.post('/api/vpn/ipsec-proposals/', { name: uniq('ipsec') });
    expect(bare.json()).toEqual({ __all__: ['Encryption and/or authentication algorithm must be defined'] });
    const authOnly = await makeIpsecProposal(t, {
      encryption_algorithm: '',
      authentication_algorithm: 'hmac-sha256',
      sa_lifetime_data: 1000,
    });
    expect(authOnly).toMatchObject({
      encryption_algorithm: null,
      authentication_algorithm: { value: 'hmac-sha256', label: 'SHA-256 HMAC' },
    });
    expect(
      (
        await t.post('/api/vpn/ike-proposals/', {
          name: uniq('x'),
          authentication_method: 'certificates',
          encryption_algorithm: 'des-cbc',
          group: 3,
        })
      ).json(),
    ).toEqual({
      group: ['"3" is not a valid choice.'],
    });
  });

  it('builds an IPSec profile from an IKE and an IPSec policy and protects them while a tunnel uses it', async () => {
    const ipsecProposal = await makeIpsecProposal(t);
    const ipsecPolicy = await make(t, '/api/vpn/ipsec-policies/', {
      name: uniq('ipsec'),
      proposals: [ipsecProposal.id],
      pfs_group: 14,
    });
    expect(ipsecPolicy).toMatchObject({
      pfs_group: { value: 14, label: 'Group 14' },
      proposals: [{ id: ipsecProposal.id, name: ipsecProposal.name }],
    });
    expect(ids(await get(`/api/vpn/ipsec-policies/?proposal_id=${ipsecProposal.id}`))).toEqual([ipsecPolicy.id]);
    const ikePolicy = await make(t, '/api/vpn/ike-policies/', {
      name: uniq('ike'),
      proposals: [(await makeIkeProposal(t)).id],
    });
    const profile = await make(t, '/api/vpn/ipsec-profiles/', {
      name: uniq('prof'),
      mode: 'esp',
      ike_policy: ikePolicy.id,
      ipsec_policy: ipsecPolicy.id,
    });
    expect(profile).toMatchObject({
      mode: { value: 'esp', label: 'ESP' },
      ike_policy: { id: ikePolicy.id, name: ikePolicy.name },
      ipsec_policy: { id: ipsecPolicy.id },
    });
    expect(
      ids(await get(`/api/vpn/ipsec-profiles/?ike_policy=${ikePolicy.name}&ipsec_policy_id=${ipsecPolicy.id}`)),
    ).toEqual([profile.id]);
    const missing = await t.post('/api/vpn/ipsec-profiles/', { name: uniq('prof'), mode: 'ah' });
    expect(Object.keys(missing.json()).sort()).toEqual(['ike_policy', 'ipsec_policy']);
    const tun = await makeTunnel(t, { encapsulation: 'ipsec-tunnel', ipsec_profile: profile.id });
    expect(tun.ipsec_profile).toMatchObject({ id: profile.id, name: profile.name });
    expect(ids(await get(`/api/vpn/tunnels/?ipsec_profile=${profile.name}`))).toEqual([tun.id]);
    expect((await t.del(`/api/vpn/ipsec-profiles/${profile.id}/`)).statusCode).toBe(409);
    expect((await t.del(`/api/vpn/ike-policies/${ikePolicy.id}/`)).statusCode).toBe(409);
    // proposals leave their policies when deleted (the M2M rows go with them)
    expect((await t.del(`/api/vpn/ipsec-proposals/${ipsecProposal.id}/`)).statusCode).toBe(204);
    expect((await get(`/api/vpn/ipsec-policies/${ipsecPolicy.id}/`)).proposals).toEqual([]);
  });
});
