/**
 * ipv4TextPrefixNetworks (core/net/text-prefix.ts) bounds the address search's text test: every
 * IPv4 address whose text ("10.7.0.1/24") starts with the string must lie in one of the networks
 * it gives, or a search would miss it. Checked against every start of many addresses' texts.
 */
import { describe, expect, it } from 'vitest';
import { covers, parseIp } from '../../src/core/net/ip.js';
import { ipv4TextPrefixNetworks } from '../../src/core/net/text-prefix.js';

/** deterministic addresses: every octet's interesting values, masks from /0 to /32 */
function* addresses(): Generator<string> {
  const octets = [0, 1, 2, 7, 9, 10, 19, 20, 25, 70, 79, 99, 100, 101, 199, 200, 249, 250, 255];
  let m = 0;
  for (const a of [1, 10, 192])
    for (const b of octets)
      for (const c of [0, 7, 100, 255]) for (const d of [0, 1, 25, 255]) yield `${a}.${b}.${c}.${d}/${m++ % 33}`;
}

function within(text: string, networks: string[]): boolean {
  const host = parseIp(text.split('/')[0]!)!;
  return networks.some((n) => covers(parseIp(n)!, host));
}

describe('the networks of an IPv4 text start', () => {
  it('hold every address whose text starts with it', () => {
    let checked = 0;
    for (const text of addresses()) {
      for (let len = 1; len <= text.length; len++) {
        const start = text.slice(0, len);
        const networks = ipv4TextPrefixNetworks(start);
        if (networks === null) continue;
        expect(within(text, networks), `${text} starts with ${start}: ${networks.join(' ')}`).toBe(true);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it('are narrow: the octets written, and a partial one as few blocks', () => {
    expect(ipv4TextPrefixNetworks('10.7.')).toEqual(['10.7.0.0/16']);
    expect(ipv4TextPrefixNetworks('10.7')).toEqual(['10.7.0.0/16', '10.64.0.0/12']);
    expect(ipv4TextPrefixNetworks('10.25')).toEqual(['10.25.0.0/16', '10.248.0.0/13']);
    expect(ipv4TextPrefixNetworks('192.168.1.2')).toEqual(['192.168.1.2/32', '192.168.1.16/28', '192.168.1.192/26']);
    expect(ipv4TextPrefixNetworks('10.7.0.1/2')).toEqual(['10.7.0.1/32']);
    // a block inside another is left out
    expect(ipv4TextPrefixNetworks('10.1')).toEqual(['10.0.0.0/8']);
  });

  it('are none for what is no IPv4 start, or may start an IPv6 text', () => {
    for (const s of [
      '10',
      '1',
      '10::1',
      'fe80:',
      'a.b',
      '10.256.',
      '10.07.',
      '10.7.0.1.',
      '1.2.3.4.5',
      'host.example',
      '10.7.0.1/x',
      '',
    ]) {
      expect(ipv4TextPrefixNetworks(s), s).toBeNull();
    }
  });
});
