/**
 * Filter values (docs/api-differences.md, Strict input): a value a known filter cannot take - a bad number, date,
 * boolean, network, MAC address, content type, choice or related object - is a 400 keyed by the
 * parameter as given, never silently ignored. Unknown filter NAMES stay ignored (reference 8.3).
 */
import { RESERVED_PARAMS } from '../../../src/core/query/filters.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAllModels } from '../../../src/apps/index.js';
import { Registry } from '../../../src/core/model/registry.js';
import type { ModelDef } from '../../../src/core/model/types.js';
import { fkNameFilterDeclared } from '../../../src/core/query/undeclared-fk-filters.js';
import { makeTestApp, type TestApp } from '../../helpers/app.js';
import { uniq, makeDevice, makeInterface, makeSite } from '../../factories/index.js';

const registry = new Registry();
registerAllModels(registry);
registry.freeze();

let t: TestApp;
beforeAll(async () => {
  t = await makeTestApp();
});
afterAll(async () => t.close());

const STRING_SUFFIXES = ['', 'n', 'ic', 'nic', 'isw', 'nisw', 'iew', 'niew', 'ie', 'nie'];
const NUMERIC_SUFFIXES = ['', 'n', 'lt', 'lte', 'gt', 'gte', 'empty'];
/** the lookups the engine generates per field kind (spec: Filtering rules 4) */
const GENERATED: Record<string, string[]> = {
  string: [...STRING_SUFFIXES, 'empty'],
  text: [...STRING_SUFFIXES, 'empty'],
  slug: [...STRING_SUFFIXES, 'empty'],
  mac: [...STRING_SUFFIXES, 'empty'],
  integer: NUMERIC_SUFFIXES,
  decimal: NUMERIC_SUFFIXES,
  date: NUMERIC_SUFFIXES,
  datetime: NUMERIC_SUFFIXES,
  boolean: [''],
  choice: ['', 'n'],
  contenttype: ['', 'n'],
  ipaddress: ['', 'n'],
  ipprefix: ['', 'n'],
  strings: ['', 'n'],
};
/** kinds whose values are text: any string is a value (which may match nothing) */
const TEXT_KINDS = new Set(['string', 'text', 'slug', 'strings']);

/**
 * A model's own filters that take any text, as NetBox's method filters on names do (an unknown
 * name matches nothing there too): `<model> <filter>`.
 */
const FREE_TEXT_FILTERS = new Set([
  'dcim.device name',
  'dcim.device serial',
  'dcim.rack serial',
  'dcim.module serial',
  'users.token key',
  'dcim.cable device',
  'dcim.cable site',
  'dcim.cable rack',
  'dcim.cable location',
  'ipam.ipaddress device',
  'ipam.ipaddress virtual_machine',
  'ipam.fhrpgroupassignment device',
  'ipam.fhrpgroupassignment virtual_machine',
  // NetBox 3.7 MultiValueCharFilter on the proposals' names
  'vpn.ikepolicy proposal',
  'vpn.ipsecpolicy proposal',
  // NetBox 3.7 MultiValueCharFilter on a choice set's values
  'extras.customfieldchoiceset choice',
]);

const name = (base: string, suffix: string) => (suffix ? `${base}__${suffix}` : base);

/** every filter parameter of a model, and whether any text is a valid value of it */
function filterParams(model: ModelDef): Array<[string, boolean]> {
  const out: Array<[string, boolean]> = [
    ['id', false],
    ['id__gt', false],
    ['id__n', false],
  ];
  if (model.timestamps) out.push(['created', false], ['created__gte', false], ['last_updated__lt', false]);
  if (model.tags) out.push(['tag', false], ['tag__n', false]);
  if (model.changelog) out.push(['created_by_request', false]);
  for (const [key, f] of Object.entries(model.fields)) {
    // a field named as a parameter of its own (a table config's `ordering`) is not filtered on
    if (f.noFilter || f.writeOnly || f.notStored || key in model.filters || RESERVED_PARAMS.has(key)) continue;
    if (f.kind === 'fk') {
      if (!(`${key}_id` in model.filters)) out.push([`${key}_id`, false], [`${key}_id__n`, false]);
      // a name NetBox does not declare is ignored, whatever its value (core/query/undeclared-fk-filters.ts)
      const declared = fkNameFilterDeclared(model, key);
      out.push([key, !declared], [`${key}__n`, !declared]);
      continue;
    }
    for (const suffix of GENERATED[f.kind] ?? []) {
      // `__empty` takes a boolean; a MAC's exact match needs a MAC, its partial ones take text
      const text = suffix !== 'empty' && (TEXT_KINDS.has(f.kind) || (f.kind === 'mac' && !['', 'n'].includes(suffix)));
      out.push([name(key, suffix), text]);
    }
  }
  for (const [key, filter] of Object.entries(model.filters)) {
    if (key === 'q') continue;
    for (const suffix of ['', ...(filter.lookups ?? [])]) {
      const text =
        filter.type === 'string' &&
        suffix !== 'empty' &&
        (FREE_TEXT_FILTERS.has(`${model.name} ${key}`) ||
          ((key === 'mac_address' || key === 'content_types') && !['', 'n'].includes(suffix)));
      out.push([name(key, suffix), text]);
    }
  }
  return out;
}

describe('every filter of every list', () => {
  for (const model of registry.all()) {
    it(`${model.name}: a value the filter cannot take is a 400 keyed by the parameter`, {
      timeout: 120_000,
    }, async () => {
      const url = `/api/${model.app}/${model.path}/`;
      // a model only 4.4 serves (MAC addresses) is asked in 4.4
      const headers = model.dialect ? { accept: `application/json; version=${model.dialect}` } : undefined;
      for (const [param, text] of filterParams(model)) {
        const res = await t.request('GET', `${url}?${param}=%E2%98%83-not-a-value`, { headers });
        if (text) {
          expect(res.statusCode, `${param}: ${res.body}`).toBe(200);
          continue;
        }
        expect(res.statusCode, `${url}?${param}`).toBe(400);
        expect(Object.keys(res.json()), `${url}?${param}: ${res.body}`).toEqual([param]);
      }
    });
  }
});

describe('values of each kind', () => {
  const expect400 = async (url: string, param: string, message: string) => {
    const res = await t.get(url);
    expect(res.statusCode, url).toBe(400);
    expect(res.json(), url).toEqual({ [param]: [message] });
  };
  const ids = async (url: string) =>
    ((await t.get(url)).json().results as Array<{ id: number }>).map((r) => r.id).sort((a, b) => a - b);

  it('booleans: the boolean words filter, anything else is a 400 (NetBox ignores it)', async () => {
    const device = await makeDevice(t);
    const on = await makeInterface(t, device, { enabled: true });
    const off = await makeInterface(t, device, { enabled: false });
    const base = `/api/dcim/interfaces/?device_id=${device.id}`;
    for (const word of ['true', 'True', '1', 'yes', 'on'])
      expect(await ids(`${base}&enabled=${word}`), word).toEqual([on.id]);
    for (const word of ['false', 'FALSE', '0', 'no', 'off'])
      expect(await ids(`${base}&enabled=${word}`), word).toEqual([off.id]);
    await expect400(
      `${base}&enabled=2`,
      'enabled',
      'Must be a valid boolean: 2 is not one of true, false, 1, 0, yes, no, on, off.',
    );
    // a model's own boolean filters answer the same
    await expect400(
      `${base}&cabled=unknown`,
      'cabled',
      'Must be a valid boolean: unknown is not one of true, false, 1, 0, yes, no, on, off.',
    );
    await expect400(
      `/api/ipam/ip-addresses/?assigned_to_interface=maybe`,
      'assigned_to_interface',
      'Must be a valid boolean: maybe is not one of true, false, 1, 0, yes, no, on, off.',
    );
  });

  it('networks: an address or prefix that does not parse is a 400 (NetBox matches nothing); valid ones filter', async () => {
    const vrf = (await t.post('/api/ipam/vrfs/', { name: uniq('vrf') })).json();
    const prefix = (await t.post('/api/ipam/prefixes/', { prefix: '172.20.0.0/16', vrf: vrf.id })).json();
    const ip = (await t.post('/api/ipam/ip-addresses/', { address: '172.20.1.5/16', vrf: vrf.id })).json();
    const NET = 'Enter a valid IPv4 or IPv6 address or network.';
    for (const param of ['within', 'within_include', 'contains', 'prefix'])
      await expect400(`/api/ipam/prefixes/?${param}=172.20.0.0/99`, param, NET);
    for (const param of ['parent', 'address'])
      await expect400(`/api/ipam/ip-addresses/?${param}=not-an-ip`, param, NET);
    await expect400('/api/ipam/ip-ranges/?contains=1.2.3', 'contains', NET);
    await expect400('/api/ipam/aggregates/?prefix=10.0.0.0/33', 'prefix', NET);
    expect(await ids(`/api/ipam/prefixes/?vrf_id=${vrf.id}&contains=172.20.1.5`)).toEqual([prefix.id]);
    expect(await ids(`/api/ipam/ip-addresses/?vrf_id=${vrf.id}&parent=172.20.0.0/16&address=172.20.1.5`)).toEqual([
      ip.id,
    ]);
    // host bits of a prefix filter are dropped, as netaddr's .cidr does
    expect(await ids(`/api/ipam/prefixes/?vrf_id=${vrf.id}&prefix=172.20.9.9/16`)).toEqual([prefix.id]);
  });

  it('content types: an unregistered or unassignable model is a 400 (NetBox matches nothing)', async () => {
    const INVALID = (v: string) => `Select a valid choice. ${v} is not one of the available choices.`;
    await expect400(
      '/api/ipam/ip-addresses/?assigned_object_type=dcim.nothing',
      'assigned_object_type',
      INVALID('dcim.nothing'),
    );
    // addresses are assigned to interfaces only
    await expect400(
      '/api/ipam/ip-addresses/?assigned_object_type=dcim.site',
      'assigned_object_type',
      INVALID('dcim.site'),
    );
    await expect400(
      '/api/extras/journal-entries/?assigned_object_type__n=nope',
      'assigned_object_type__n',
      INVALID('nope'),
    );
    expect((await t.get('/api/ipam/ip-addresses/?assigned_object_type=dcim.interface')).statusCode).toBe(200);
  });

  it('MAC addresses: an exact match needs a MAC address in any notation, a partial one any text', async () => {
    const device = await makeDevice(t);
    const nic = await makeInterface(t, device, { mac_address: '00:1a:2b:3c:4d:5e' });
    await expect400('/api/dcim/interfaces/?mac_address=00:1a:2b', 'mac_address', 'Enter a valid MAC address.');
    await expect400('/api/dcim/devices/?mac_address__n=zz', 'mac_address__n', 'Enter a valid MAC address.');
    expect(await ids(`/api/dcim/interfaces/?mac_address=001A.2B3C.4D5E`)).toEqual([nic.id]);
    expect(await ids(`/api/dcim/interfaces/?device_id=${device.id}&mac_address__ic=4d:5e`)).toEqual([nic.id]);
    expect(await ids(`/api/dcim/devices/?mac_address=00-1A-2B-3C-4D-5E`)).toEqual([device.id]);
  });

  it("numbers: a decimal must be a number, an integer past a column's range matches nothing instead of failing", async () => {
    await expect400('/api/dcim/sites/?latitude=0x10', 'latitude', 'Enter a number.');
    await expect400('/api/dcim/sites/?latitude__gt=1e400', 'latitude__gt', 'Enter a number.');
    await expect400('/api/dcim/racks/?u_height=1.5', 'u_height', 'Enter a whole number.');
    const site = await makeSite(t);
    await t.post('/api/dcim/racks/', { name: uniq('rack'), site: site.id, u_height: 42 });
    expect((await t.get(`/api/dcim/racks/?site_id=${site.id}&u_height=99999999999`)).json().count).toBe(0);
    expect((await t.get(`/api/dcim/racks/?site_id=${site.id}&u_height__lt=99999999999`)).json().count).toBe(1);
    // a mask length has a range of its own (0-128): past it, the value is refused (invalid-input.test.ts)
    await expect400(
      '/api/ipam/prefixes/?mask_length=99999999999',
      'mask_length',
      'Ensure this value is less than or equal to 128.',
    );
    expect((await t.get('/api/ipam/services/?port=99999999999')).json().count).toBe(0);
  });

  it('names the parameter as given: lookups and filters reached through other objects', async () => {
    await expect400(
      '/api/ipam/prefixes/?region=nowhere',
      'region',
      'Select a valid choice. nowhere is not one of the available choices.',
    );
    await expect400('/api/dcim/devices/?region_id__n=x', 'region_id__n', 'Enter a whole number.');
    await expect400(
      '/api/circuits/circuits/?site__n=nowhere',
      'site__n',
      'Select a valid choice. nowhere is not one of the available choices.',
    );
    await expect400(
      '/api/dcim/interfaces/?kind=quantum',
      'kind',
      'Select a valid choice. quantum is not one of the available choices.',
    );
  });

  it('change records: request_id is a UUID, and every time bound applies', async () => {
    await expect400('/api/extras/object-changes/?request_id=abc', 'request_id', 'Enter a valid UUID.');
    await expect400(
      '/api/extras/object-changes/?time_after=2024-01-01&time_after=yesterday',
      'time_after',
      'Enter a valid date/time.',
    );
    const res = await t.post('/api/tenancy/tenants/', { name: uniq('chg'), slug: uniq('chg') });
    const rid = res.headers['x-request-id'];
    expect((await t.get(`/api/extras/object-changes/?request_id=${rid}`)).json().count).toBe(1);
    expect(
      (await t.get(`/api/extras/object-changes/?request_id=${rid}&time_after=2000-01-01&time_after=2999-01-01`)).json()
        .count,
    ).toBe(0);
  });
});
