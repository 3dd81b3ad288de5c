import { describe, expect, it } from 'vitest';
import { broadcastOf, format, formatIpv4, networkOf, parseIp, size } from '../../src/core/net/ip.js';

const norm = (s: string) => {
  const ip = parseIp(s);
  return ip ? format(ip) : null;
};

describe('parseIp / format', () => {
  it('adds the full-length mask when none is given', () => {
    expect(norm('10.0.0.1')).toBe('10.0.0.1/32');
    expect(norm('2001:db8::1')).toBe('2001:db8::1/128');
  });

  it('compresses IPv6 per RFC 5952, lower case', () => {
    expect(norm('2001:0DB8:0000:0000:0000:0000:0000:0001/64')).toBe('2001:db8::1/64');
    expect(norm('2001:db8:0:0:1:0:0:1')).toBe('2001:db8::1:0:0:1/128');
    expect(norm('::')).toBe('::/128');
    expect(norm('::ffff:192.0.2.1')).toBe('::ffff:c000:201/128');
    expect(norm('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1/128');
  });

  it('rejects junk', () => {
    for (const bad of [
      'nope',
      '10.0.0.300/24',
      '10.0.0.1/33',
      '2001:db8::1/129',
      '10.0.0.1/',
      '10.0.0.1/a',
      '1.2.3',
      'fe80::1%eth0',
    ]) {
      expect(parseIp(bad), bad).toBeNull();
    }
  });

  it('formats IPv4 without BigInt exactly as parseIp and format do, and leaves the rest to them', () => {
    const inputs = [
      '10.0.0.1',
      ' 10.0.0.1/24 ',
      '0.0.0.0/0',
      '255.255.255.255/32',
      '10.1.2.3/024',
      '192.168.0.1/8',
      '10.0.0.1/0',
      '10.0.0.300/24',
      '10.0.0.1/33',
      '10.0.0.1/',
      '10.0.0.1/a',
      '1.2.3',
      '01.2.3.4',
      '2001:db8::1/64',
      '::ffff:192.0.2.1',
      'nope',
      '',
    ];
    for (let i = 0; i < 2000; i++)
      inputs.push(`${i % 256}.${(i * 7) % 256}.${(i * 13) % 256}.${(i * 31) % 256}/${i % 33}`);
    for (const s of inputs) {
      const fast = formatIpv4(s);
      if (fast !== null) expect(fast, s).toBe(norm(s));
      else expect(parseIp(s)?.family ?? null, s).not.toBe(4);
    }
    expect(formatIpv4('10.1.2.3/024')).toBe('10.1.2.3/24');
    expect(formatIpv4('2001:db8::1')).toBeNull();
  });

  it('computes network, broadcast and size', () => {
    const ip = parseIp('10.1.2.3/24')!;
    expect(format(networkOf(ip))).toBe('10.1.2.0/24');
    expect(broadcastOf(ip)).toBe(parseIp('10.1.2.255')!.value);
    expect(size(ip)).toBe(256n);
  });
});
