/**
 * available-prefixes (reference 3.8): the free space of a prefix as CIDR blocks, and allocation of
 * the first free block large enough for each requested length, in request order.
 */
import type { RequestContext } from '../../core/context.js';
import { Errors } from '../../core/errors.js';
import { format, maxLength } from '../../core/net/ip.js';
import { prefixFreeSpace } from './allocators.js';
import { cidrBlocks, subtract } from './available.js';
import type { Row } from '../../core/model/types.js';

const isObject = (v: unknown): v is Row => typeof v === 'object' && v !== null && !Array.isArray(v);

export async function listAvailablePrefixes(
  rc: RequestContext,
  parent: Row,
  nestedVrf: (rc: RequestContext, id: unknown) => Promise<Row | null>,
): Promise<unknown[]> {
  const { net, free } = await prefixFreeSpace(rc, parent);
  const vrf = await nestedVrf(rc, parent.vrf_id);
  return cidrBlocks(free, net.family).map((b) => ({
    family: net.family,
    prefix: format({ family: net.family, ...b }),
    vrf,
  }));
}

/** prefix_length of each item, or the 400 (aligned with a bulk request) */
function requestedLengths(items: unknown[], family: 4 | 6, bulk: boolean): number[] {
  const errors = items.map((item): Record<string, string[]> => {
    if (!isObject(item)) return { non_field_errors: ['Invalid data. Expected a dictionary.'] };
    const n = item.prefix_length;
    if (n === undefined || n === null) return { prefix_length: ['This field is required.'] };
    if (typeof n !== 'number' || !Number.isInteger(n)) return { prefix_length: ['A valid integer is required.'] };
    if (n < 0 || n > maxLength(family)) return { prefix_length: [`Invalid prefix length (${n}) for IPv${family}`] };
    return {};
  });
  const bad = errors.find((e) => Object.keys(e).length);
  if (bad) throw Errors.validation(bulk ? errors : bad);
  return items.map((item) => (item as Row).prefix_length as number);
}

export async function allocatePrefixes(
  rc: RequestContext,
  parent: Row,
  items: unknown[],
  bulk: boolean,
): Promise<unknown[]> {
  const { net, free: initial } = await prefixFreeSpace(rc, parent);
  const lengths = requestedLengths(items, net.family, bulk);
  let free = initial;
  return items.map((item, i) => {
    const length = lengths[i]!;
    const block = cidrBlocks(free, net.family).find((b) => b.prefixLength <= length);
    if (!block) throw Errors.conflict('Insufficient space is available to accommodate the requested prefix size(s)');
    const size = 1n << BigInt(maxLength(net.family) - length);
    free = subtract(free, { start: block.value, end: block.value + size - 1n });
    const { prefix_length: _omit, prefix: _p, vrf: _v, ...rest } = item as Row;
    return {
      ...rest,
      prefix: format({ family: net.family, value: block.value, prefixLength: length }),
      vrf: parent.vrf_id ?? null,
    };
  });
}
