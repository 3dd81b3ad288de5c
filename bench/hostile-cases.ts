/**
 * The requests of the hostile sweep (docs/api-differences.md, "Strict input"), every one of them
 * invalid: bad query parameters, bad bodies, bulk writes naming an id that does not exist,
 * duplicates in one bulk create, odd methods, oversized headers and bodies, malformed request
 * lines. A 2xx to any of them is a defect; so is a bulk write that changed anything (each bulk case
 * snapshots its objects first and says what changed).
 */
import { type Api, call } from './http.js';
import type { Pool } from './hostile-seed.js';

export interface HostileCase {
  name: string;
  bytes: Buffer;
  /** the class of invalid input it belongs to (hostile-fields.ts), reported with its own counts */
  cls?: string;
  /** the answer must be a 4xx whose JSON body names one of these (the field or parameter at fault) */
  names?: string[];
  /** bulk cases: snapshots the objects involved; the returned check says what changed, or null */
  snapshot?: () => Promise<() => Promise<string | null>>;
}

/** a body larger than the sweep server's MAX_BODY_SIZE */
export const SWEEP_BODY_LIMIT = 65_536;
const MISSING_ID = 987_654_321;

export function request(token: string, method: string, path: string, body?: string | Buffer, headers = ''): Buffer {
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body);
  const typed = body === undefined ? '' : `Content-Type: application/json\r\nContent-Length: ${payload.length}\r\n`;
  const head = `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Token ${token}\r\nAccept: application/json\r\n${typed}${headers}\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
}

/** query strings every list refuses */
const GENERIC_QUERIES = [
  'limit=x',
  'limit=-1',
  'limit=1.5',
  'offset=abc',
  'offset=-3',
  'brief=maybe',
  'brief=2',
  'ordering=no_such_field',
  'ordering=-',
  'id=abc',
  'id__gt=1e3',
  'id=99999999999999999999',
  'q=%00',
];
/** ... and those of models with timestamps and a change log (others do not have these filters) */
const TIMESTAMP_QUERIES = ['created__gte=2024-13-45', 'last_updated=yesterday', 'created_by_request=not-a-uuid'];
const NO_TIMESTAMPS = new Set(['/api/extras/object-changes/', '/api/users/tokens/']);

/** query strings refused by one list (a value its own filters cannot take) */
const MODEL_QUERIES: Record<string, string[]> = {
  '/api/dcim/sites/': ['status=bogus', 'region=nowhere', 'latitude=0x10', 'tag=no-such-tag', 'asn_id=x'],
  '/api/dcim/regions/': ['parent_id=x', 'slug__empty=maybe'],
  '/api/dcim/racks/': ['u_height=abc', 'desc_units=perhaps', 'site_id=987654321', 'status=nope'],
  '/api/dcim/devices/': [
    'has_primary_ip=maybe',
    'mac_address=zz',
    'position=x',
    'face=sideways',
    'virtual_chassis_member=2',
  ],
  '/api/dcim/interfaces/': ['enabled=maybe', 'kind=quantum', 'mac_address=00:11', 'mtu=big', 'cabled=yes-no'],
  '/api/dcim/cables/': ['status=bogus', 'length=x', 'site_id=x', 'color__empty=maybe'],
  '/api/ipam/prefixes/': [
    'within=junk',
    'contains=10.0.0.300',
    'mask_length=x',
    'is_pool=maybe',
    'family=x',
    'prefix=10.0.0.0/99',
  ],
  '/api/ipam/ip-addresses/': [
    'parent=junk',
    'address=1.2.3',
    'assigned_object_type=foo.bar',
    'assigned_to_interface=maybe',
    'vrf_id=x',
  ],
  '/api/ipam/vlans/': ['vid=abc', 'status=bogus', 'group_id=987654321', 'vid__gt=1.5'],
  '/api/ipam/vlan-groups/': ['scope_type=dcim.nothing', 'min_vid=x', 'site=x'],
  '/api/ipam/roles/': ['weight=heavy', 'slug__empty=maybe'],
  '/api/ipam/aggregates/': ['prefix=junk', 'rir_id=x', 'date_added=2024-02-30'],
  '/api/circuits/providers/': ['asn_id=x', 'region_id=x', 'site=nowhere'],
  '/api/circuits/circuits/': ['commit_rate=fast', 'install_date=soon', 'status=bogus', 'provider_id=x'],
  '/api/tenancy/tenants/': ['group_id=x', 'group=nowhere', 'tag__n=no-such-tag'],
  '/api/extras/tags/': ['color__empty=maybe', 'id__lt=x'],
  '/api/extras/object-changes/': ['request_id=abc', 'time_after=never', 'action=explode', 'changed_object_id=x'],
  '/api/users/tokens/': ['write_enabled=maybe', 'expires__gte=someday', 'user_id=x'],
  '/api/virtualization/virtual-machines/': ['cluster_id=x', 'vcpus=many', 'has_primary_ip=maybe', 'status=bogus'],
};

const NESTED = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;

/** bodies a single-object PATCH, PUT or POST refuses */
const BAD_OBJECT_BODIES: Array<string | Buffer> = [
  '',
  '   ',
  'null',
  '[]',
  '"x"',
  '5',
  '{"description": ',
  '{"description": "\\ud800"}',
  '{"description": "a\\u0000b"}',
  '{"description": 1e400}',
  `{"description": ${'9'.repeat(5000)}}`,
  `{"description": ${NESTED}}`,
  Buffer.concat([Buffer.from('{"description": "a'), Buffer.from([0xff, 0xfe]), Buffer.from('b"}')]),
];

/** the body of a detail, or null once the object is gone (an earlier partial write may have deleted it) */
async function detailOf(api: Api, url: string): Promise<string | null> {
  const res = await fetch(`${api.base}${url}`, { headers: { Authorization: `Token ${api.token}` } });
  if (res.status === 404) return null;
  if (!res.ok) throw new Error(`GET ${url} answered ${res.status}`);
  return JSON.stringify(await res.json());
}

async function snapshotOf(api: Api, path: string, ids: number[]): Promise<() => Promise<string | null>> {
  const before = await Promise.all(ids.map((id) => detailOf(api, `${path}${id}/`)));
  return async () => {
    for (const [i, id] of ids.entries()) {
      if (before[i] === null) continue;
      const after = await detailOf(api, `${path}${id}/`);
      if (after === null) return `${path}${id}/ was deleted`;
      if (after !== before[i]) return `${path}${id}/ changed`;
    }
    return null;
  };
}

/** bulk writes naming an id that does not exist (spec: Operations rules 1: nothing may change) */
function bulkCases(api: Api, path: string, ids: number[]): HostileCase[] {
  if (!ids.length) return [];
  const [a, b] = [ids[0]!, ids[1] ?? ids[0]!];
  const snapshot = () => snapshotOf(api, path, [a, b]);
  const body = (items: unknown[]) => JSON.stringify(items);
  return [
    {
      name: 'bulk PATCH with a missing id',
      bytes: request(
        api.token,
        'PATCH',
        path,
        body([
          { id: a, description: 'bulk' },
          { id: MISSING_ID, description: 'bulk' },
        ]),
      ),
      snapshot,
    },
    {
      name: 'bulk PATCH listing an object twice',
      bytes: request(
        api.token,
        'PATCH',
        path,
        body([{ id: a, description: 'one' }, { id: b }, { id: a, description: 'two' }]),
      ),
      snapshot,
    },
    {
      name: 'bulk PUT with a missing id',
      bytes: request(
        api.token,
        'PUT',
        path,
        body([
          { id: MISSING_ID, description: 'bulk' },
          { id: a, description: 'bulk' },
        ]),
      ),
      snapshot,
    },
    {
      name: 'bulk DELETE with a missing id',
      bytes: request(api.token, 'DELETE', path, body([{ id: a }, { id: b }, { id: MISSING_ID }])),
      snapshot,
    },
    {
      name: 'bulk DELETE with a bad id',
      bytes: request(api.token, 'DELETE', path, body([{ id: a }, { id: 'x' }])),
      snapshot,
    },
  ];
}

/** a bulk create listing one object twice where a uniqueness rule applies: nothing may be created */
function duplicateCreate(api: Api, path: string): HostileCase | null {
  const slugged = [
    '/api/dcim/regions/',
    '/api/dcim/sites/',
    '/api/tenancy/tenants/',
    '/api/extras/tags/',
    '/api/ipam/roles/',
    '/api/circuits/providers/',
  ];
  if (!slugged.includes(path)) return null;
  const name = `dup-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
  const item = { name, slug: name };
  return {
    name: 'bulk create listing an object twice',
    bytes: request(api.token, 'POST', path, JSON.stringify([item, item])),
    snapshot: async () => async () => {
      const found = await call<{ count: number }>(api, 'GET', `${path}?slug=${name}`);
      return found.count ? `${path} created ${found.count} of a refused duplicate` : null;
    },
  };
}

/** every case of one endpoint */
export function casesFor(api: Api, pool: Pool, path: string): HostileCase[] {
  const ids = pool.get(path) ?? [];
  const detail = ids.length ? `${path}${ids[0]}/` : `${path}1/`;
  const out: HostileCase[] = [];
  const generic = NO_TIMESTAMPS.has(path) ? GENERIC_QUERIES : [...GENERIC_QUERIES, ...TIMESTAMP_QUERIES];
  for (const q of [...generic, ...(MODEL_QUERIES[path] ?? [])])
    out.push({ name: `GET ?${q.split('=')[0]}`, bytes: request(api.token, 'GET', `${path}?${q}`) });
  out.push({ name: 'GET detail ?brief=maybe', bytes: request(api.token, 'GET', `${detail}?brief=maybe`) });
  for (const [i, body] of BAD_OBJECT_BODIES.entries()) {
    out.push({ name: `PATCH bad body #${i}`, bytes: request(api.token, 'PATCH', detail, body) });
    out.push({ name: `PUT bad body #${i}`, bytes: request(api.token, 'PUT', detail, body) });
  }
  for (const body of [
    '',
    'null',
    '{"name": "\\udc00"}',
    '[{"name": "x"}, {"name": "\\ud800"}]',
    '{"name": 1e999}',
    '[1, 2',
  ]) {
    out.push({ name: `POST bad body ${body.slice(0, 12)}`, bytes: request(api.token, 'POST', path, body) });
  }
  out.push({
    name: 'POST text/plain',
    bytes: Buffer.from(
      request(api.token, 'POST', path, '{}')
        .toString('latin1')
        .replace('Content-Type: application/json', 'Content-Type: text/plain'),
      'latin1',
    ),
  });
  out.push({
    name: 'POST body too large',
    bytes: request(api.token, 'POST', path, `{"name": "${'x'.repeat(SWEEP_BODY_LIMIT)}"}`),
  });
  out.push(...bulkCases(api, path, ids));
  const dup = duplicateCreate(api, path);
  if (dup) out.push(dup);
  for (const method of ['PROPFIND', 'TRACE', 'FOO', 'get', 'M-SEARCH'])
    out.push({ name: `${method} method`, bytes: request(api.token, method, path) });
  out.push({ name: 'CONNECT', bytes: Buffer.from(`CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n`) });
  out.push({
    name: 'headers too large',
    bytes: request(api.token, 'GET', path, undefined, `X-Filler: ${'f'.repeat(20_000)}\r\n`),
  });
  out.push({ name: 'URL too large', bytes: request(api.token, 'GET', `${path}?q=${'u'.repeat(20_000)}`) });
  out.push({ name: 'bad percent-encoding', bytes: request(api.token, 'GET', `${path}%zz/`) });
  out.push({ name: 'malformed request line', bytes: Buffer.from(`GET ${path}\r\n\r\n`) });
  out.push({ name: 'unknown HTTP version', bytes: Buffer.from(`GET ${path} HTTP/7.0\r\nHost: 127.0.0.1\r\n\r\n`) });
  out.push({ name: 'Expect: tea', bytes: request(api.token, 'POST', path, '{}', 'Expect: tea\r\n') });
  return out;
}
