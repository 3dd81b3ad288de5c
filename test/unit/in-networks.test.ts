import { describe, expect, it } from 'vitest';
import { inNetworks } from '../../src/http/auth.js';

describe('inNetworks', () => {
  it('answers per list of networks, the same when asked again, past the bound of its remembered answers', () => {
    const proxies = Object.freeze(['127.0.0.1', '::1', '192.0.2.0/24']);
    const other = Object.freeze(['10.0.0.0/8']);
    for (let round = 0; round < 2; round++) {
      expect(inNetworks('127.0.0.1', proxies)).toBe(true);
      expect(inNetworks('127.0.0.1', other)).toBe(false);
      expect(inNetworks('::1', proxies)).toBe(true);
      expect(inNetworks('192.0.2.200', proxies)).toBe(true);
      expect(inNetworks('192.0.3.1', proxies)).toBe(false);
      expect(inNetworks('10.200.1.1', other)).toBe(true);
      expect(inNetworks('not an address', proxies)).toBe(false);
    }
    // more addresses than it remembers: each still answered by its own network
    for (let i = 0; i < 2_500; i++) {
      const ip = `192.0.${2 + (i % 2)}.${i % 256}`;
      expect(inNetworks(ip, proxies), ip).toBe(i % 2 === 0);
    }
  });
});
