/**
 * Allocation endpoints (reference 3.8): GET lists what is free under a parent, POST allocates one
 * object or a list through the one write path (createObjects) in one transaction, so change
 * records are written. Allocations are serialised by a PostgreSQL advisory lock taken inside that
 * transaction, keyed on the parent's address space (its VRF) or VLAN group, so two requests never
 * hand out the same address even across processes; overlapping parents (a prefix and a child
 * prefix or range) share the key.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requirePermission } from '../../core/auth/permissions.js';
import type { AppContext, RequestContext } from '../../core/context.js';
import type { Shape, Row } from '../../core/model/types.js';
import type { RouteDoc } from '../../core/openapi/types.js';
import { fetchOne } from '../../core/crud/read.js';
import { inTransaction, parseId, queryParams } from '../../core/crud/routes.js';
import { createObjects } from '../../core/crud/write-service.js';
import { Errors } from '../../core/errors.js';
import { countParam } from '../../core/query/pagination.js';
import { render } from '../../core/represent/render.js';
import { renderWritten } from '../../core/represent/render-written.js';
import { LOCK_ADDRESSES, LOCK_ASNS, LOCK_PREFIXES, LOCK_VLANS, lockAllocation } from './common.js';
import {
  type AddressSpace,
  addressText,
  availableAsns,
  availableVids,
  prefixAddressSpace,
  rangeAddressSpace,
} from './allocators.js';
import { countFree, firstFree } from './available.js';
import { allocatePrefixes, listAvailablePrefixes } from './prefix-allocation.js';

interface Endpoint {
  url: string;
  name: string;
  parent: string;
  child: string;
  lockKey(parent: Row): [number, unknown];
  list(rc: RequestContext, parent: Row, limit: number): Promise<unknown[]>;
  /** the create inputs for the requested items, or a 409 */
  allocate(rc: RequestContext, parent: Row, items: unknown[], bulk: boolean): Promise<unknown[]>;
  /** the shape of one item the GET lists (OpenAPI) */
  item: Shape;
}

const FAMILY = { type: 'integer', enum: [4, 6] };
const VRF = { $model: 'ipam.vrf', nullable: true };
const itemShape = (properties: Record<string, Shape>): Shape => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
});

const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);
// the allocator sets these itself
const without = (item: unknown, keys: string[]) =>
  isObject(item) ? Object.fromEntries(Object.entries(item).filter(([k]) => !keys.includes(k))) : item;

/** NetBox get_results_limit: `limit` (default PAGINATE_COUNT, 0 = MAX_PAGE_SIZE), capped by MAX_PAGE_SIZE */
function resultsLimit(rc: RequestContext, request: FastifyRequest): number {
  const { paginateCount, maxPageSize } = rc.app.config;
  const n = countParam(queryParams(request), 'limit');
  let limit = n === undefined ? paginateCount : n || maxPageSize;
  if (maxPageSize) limit = Math.min(limit, maxPageSize);
  // no maximum configured: an IPv6 prefix would list forever, so keep a generous ceiling
  return limit || 100_000;
}

async function nestedVrf(rc: RequestContext, vrfId: unknown): Promise<Row | null> {
  if (vrfId == null) return null;
  const model = rc.app.registry.get('ipam.vrf');
  const rows = await render(rc, model, [await fetchOne(rc, model, Number(vrfId), null)], 'nested');
  return rows[0] ?? null;
}

function addressEndpoint(
  url: string,
  parent: string,
  space: (rc: RequestContext, p: Row) => Promise<AddressSpace>,
): Endpoint {
  return {
    url,
    name: 'Available IPs',
    parent,
    child: 'ipam.ipaddress',
    item: itemShape({ family: FAMILY, address: { type: 'string' }, vrf: VRF }),
    lockKey: (p) => [LOCK_ADDRESSES, p.vrf_id],
    async list(rc, p, limit) {
      const s = await space(rc, p);
      const vrf = await nestedVrf(rc, s.vrfId);
      return firstFree(s.free, limit).map((v) => ({ family: s.family, address: addressText(s, v), vrf }));
    },
    async allocate(rc, p, items) {
      const s = await space(rc, p);
      const picked = firstFree(s.free, items.length);
      if (picked.length < items.length) {
        throw Errors.conflict(
          `An insufficient number of IP addresses are available within ${s.label} (${items.length} requested, ${countFree(s.free)} available)`,
        );
      }
      return items.map((item, i) =>
        isObject(item)
          ? { ...(without(item, ['address', 'vrf']) as Row), address: addressText(s, picked[i]!), vrf: s.vrfId }
          : item,
      );
    },
  };
}

const ENDPOINTS: Endpoint[] = [
  {
    url: '/api/ipam/prefixes/:id/available-prefixes/',
    name: 'Available Prefixes',
    parent: 'ipam.prefix',
    child: 'ipam.prefix',
    item: itemShape({ family: FAMILY, prefix: { type: 'string' }, vrf: VRF }),
    lockKey: (p) => [LOCK_PREFIXES, p.vrf_id],
    list: (rc, p) => listAvailablePrefixes(rc, p, nestedVrf),
    allocate: allocatePrefixes,
  },
  addressEndpoint('/api/ipam/prefixes/:id/available-ips/', 'ipam.prefix', prefixAddressSpace),
  addressEndpoint('/api/ipam/ip-ranges/:id/available-ips/', 'ipam.iprange', rangeAddressSpace),
  {
    url: '/api/ipam/vlan-groups/:id/available-vlans/',
    name: 'Available VLANs',
    parent: 'ipam.vlangroup',
    child: 'ipam.vlan',
    item: itemShape({ vid: { type: 'integer' }, group: { $model: 'ipam.vlangroup' } }),
    lockKey: (g) => [LOCK_VLANS, g.id],
    async list(rc, g, limit) {
      const model = rc.app.registry.get('ipam.vlangroup');
      const [group] = await render(rc, model, [g], 'nested');
      return (await availableVids(rc, g)).slice(0, limit).map((vid) => ({ vid, group }));
    },
    async allocate(rc, g, items) {
      const vids = await availableVids(rc, g);
      if (vids.length < items.length) throw Errors.conflict('The requested number of VLANs is not available');
      return items.map((item, i) =>
        isObject(item) ? { ...(without(item, ['vid', 'group']) as Row), vid: vids[i], group: g.id } : item,
      );
    },
  },
  {
    url: '/api/ipam/asn-ranges/:id/available-asns/',
    name: 'Available ASNs',
    parent: 'ipam.asnrange',
    child: 'ipam.asn',
    item: itemShape({ rir: { $model: 'ipam.rir' }, asn: { type: 'integer' } }),
    lockKey: () => [LOCK_ASNS, 0],
    async list(rc, r, limit) {
      const rir = await nestedRir(rc, r.rir_id);
      return (await availableAsns(rc, r, limit)).map((asn) => ({ rir, asn }));
    },
    async allocate(rc, r, items) {
      const asns = await availableAsns(rc, r, items.length);
      // NetBox 3.7 AvailableObjectsView
      if (asns.length < items.length)
        throw Errors.conflict('Insufficient resources are available to satisfy the request');
      return items.map((item, i) =>
        isObject(item) ? { ...(without(item, ['asn', 'rir']) as Row), asn: asns[i], rir: r.rir_id } : item,
      );
    },
  },
];

async function nestedRir(rc: RequestContext, rirId: unknown): Promise<Row | null> {
  const model = rc.app.registry.get('ipam.rir');
  const rows = await render(rc, model, [await fetchOne(rc, model, Number(rirId), null)], 'nested');
  return rows[0] ?? null;
}

export function registerAllocationRoutes(app: FastifyInstance, ctx: AppContext): void {
  for (const ep of ENDPOINTS) {
    const parentModel = ctx.registry.get(ep.parent);
    const childModel = ctx.registry.get(ep.child);
    app.route<{ Params: { id: string } }>({
      method: ['GET', 'HEAD', 'POST', 'OPTIONS'],
      url: ep.url,
      config: { allow: 'GET, POST, HEAD, OPTIONS' },
      handler: async (request, reply) => {
        const rc = request.rc;
        if (request.method === 'OPTIONS')
          return { name: ep.name, description: '', renders: ['application/json'], parses: ['application/json'] };
        const id = parseId(request.params.id);
        const parent = await fetchOne(rc, parentModel, id, await requirePermission(rc, parentModel, 'view'));
        if (request.method !== 'POST') {
          await requirePermission(rc, childModel, 'view');
          return ep.list(rc, parent, resultsLimit(rc, request));
        }
        // no body allocates one object with defaults (NetBox); `null` is no object and is refused below
        const body = request.body === undefined ? {} : request.body;
        const bulk = Array.isArray(body);
        if (!bulk && !isObject(body))
          throw Errors.validation({
            non_field_errors: ['Invalid data. Expected a dictionary or a list of dictionaries.'],
          });
        const items = bulk ? (body as unknown[]) : [body];
        await requirePermission(rc, childModel, 'add');
        const out = await inTransaction(rc, async (trx) => {
          const [lockClass, key] = ep.lockKey(parent);
          await lockAllocation(trx, lockClass, key);
          // read the parent again under the lock: what is free is decided inside this transaction
          const fresh = await fetchOne(trx, parentModel, id, null);
          const inputs = await ep.allocate(trx, fresh, items, bulk);
          const rows = await createObjects(trx, childModel, inputs, bulk);
          return renderWritten(trx, childModel, rows, { created: true });
        });
        reply.code(201);
        return bulk ? out : out[0];
      },
    });
  }
}

/** The allocation routes in the OpenAPI document (NetBox's operationIds: ipam_prefixes_available_ips_list). */
export function allocationDocs(): RouteDoc[] {
  return ENDPOINTS.flatMap((ep): RouteDoc[] => {
    const path = ep.url.replace(':id', '{id}');
    const op = path
      .split('/')
      .filter((p) => p && p !== 'api' && p !== '{id}')
      .join('_')
      .replace(/-/g, '_');
    const parameters = [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }];
    const written = { $model: ep.child, form: 'patched' };
    const made = { $model: ep.child, form: 'full' };
    return [
      {
        path,
        method: 'get',
        operationId: `${op}_list`,
        tag: 'ipam',
        summary: `${ep.name} under this object, the first \`limit\` of them`,
        parameters: [
          ...parameters,
          { name: 'limit', in: 'query', required: false, schema: { type: 'integer', minimum: 0 } },
        ],
        responses: {
          200: { type: 'array', items: ep.item },
          403: { $ref: '#/components/schemas/Detail' },
          404: { $ref: '#/components/schemas/Detail' },
        },
      },
      {
        path,
        method: 'post',
        operationId: `${op}_create`,
        tag: 'ipam',
        summary: `Allocate one object, or a list of them, from the ${ep.name.toLowerCase()} (all or nothing)`,
        parameters,
        requestBody: { oneOf: [written, { type: 'array', items: written }] },
        responses: {
          201: { oneOf: [made, { type: 'array', items: made }] },
          400: { $ref: '#/components/schemas/ValidationError' },
          404: { $ref: '#/components/schemas/Detail' },
          409: { $ref: '#/components/schemas/Detail' },
        },
      },
    ];
  });
}
