/**
 * The IPv4 networks holding every address whose text starts with a given string: NetBox's address
 * search (`q=`) matches `address__istartswith`, a test on the text ("10.7.0.1/24") that no index on
 * the address can serve. For a dotted start ("10.7.", "10.7", "192.168.1.2/2") the addresses it
 * can match lie in a few networks, so a search can read them as index ranges; the text test stays
 * the exact one, the networks only bound it (a superset is fine, a subset never).
 */
import { format } from './ip.js';

/** decimal octet text as PostgreSQL writes it: 0-255, no leading zero */
const OCTET = /^(?:0|[1-9]\d{0,2})$/;

/**
 * The networks (CIDR text, e.g. "10.7.0.0/16") covering every IPv4 address whose text starts with
 * `start`, or null when `start` is not such a start (no dot yet: "10" also starts IPv6 texts such as
 * "10::1"; a hex letter or colon; an octet above 255) or would need more than `max` networks.
 */
export function ipv4TextPrefixNetworks(start: string, max = 3): string[] | null {
  const slash = start.indexOf('/');
  const dotted = slash === -1 ? start : start.slice(0, slash);
  if (!dotted.includes('.')) return null;
  const parts = dotted.split('.');
  if (parts.length > 4) return null;
  if (slash !== -1) {
    // "a.b.c.d/2": one host, whatever its mask
    if (parts.length !== 4 || !parts.every(validOctet) || !/^\d{0,3}$/.test(start.slice(slash + 1))) return null;
    return [cidr(parts.map(Number), 32)];
  }
  const last = parts.pop()!;
  if (!parts.every(validOctet)) return null;
  const fixed = parts.map(Number);
  if (last === '') return [cidr(fixed, 8 * fixed.length)];
  const runs = octetRuns(last);
  if (runs === null) return null;
  // each run of octet values within its smallest covering block ("10.1": 10.1/16, 10.0/11 and
  // 10.0/8), then only the blocks no other block holds (10.0/8)
  const blocks = runs.map(([lo, hi]) => {
    let bits = 8;
    while (bits > 0 && lo >> (8 - bits) !== hi >> (8 - bits)) bits--;
    return { first: lo, bits };
  });
  const kept = blocks.filter(
    (b, i) =>
      !blocks.some(
        (o, j) =>
          j !== i &&
          o.bits <= b.bits &&
          (o.bits < b.bits || j < i) &&
          b.first >> (8 - o.bits) === o.first >> (8 - o.bits),
      ),
  );
  if (kept.length > max) return null;
  return kept.map((b) => cidr([...fixed, b.first], 8 * fixed.length + b.bits));
}

function validOctet(s: string): boolean {
  return OCTET.test(s) && Number(s) <= 255;
}

/** the octet values (0-255) whose text starts with `digits`, as runs [lo, hi]; null if none can */
function octetRuns(digits: string): Array<[number, number]> | null {
  if (!/^\d{1,3}$/.test(digits) || (digits.length > 1 && digits[0] === '0')) return null;
  const runs: Array<[number, number]> = [];
  const d = Number(digits);
  // the value itself, then every value with one or two more digits
  if (d <= 255) runs.push([d, d]);
  if (d === 0) return runs;
  for (let more = 1; more + digits.length <= 3; more++) {
    const lo = d * 10 ** more;
    const hi = Math.min(255, (d + 1) * 10 ** more - 1);
    if (lo <= 255) runs.push([lo, hi]);
  }
  return runs;
}

function cidr(octets: number[], prefixLength: number): string {
  const padded = [...octets, 0, 0, 0].slice(0, 4);
  const value = padded.reduce((v, o) => (v << 8n) | BigInt(o), 0n);
  const mask = prefixLength === 0 ? 0n : ((1n << BigInt(prefixLength)) - 1n) << BigInt(32 - prefixLength);
  return format({ family: 4, value: value & mask, prefixLength });
}
