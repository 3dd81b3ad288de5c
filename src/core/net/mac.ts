/**
 * MAC addresses in any common notation (colons, dashes, dots, bare) -> "00:1A:2B:3C:4D:5E"
 * (netaddr's mac_unix_expanded_uppercase, as NetBox stores them); null when it is not one.
 */
export function normaliseMac(v: string): string | null {
  const hex = v.trim().replace(/[:.\-\s]/g, '');
  return /^[0-9a-fA-F]{12}$/.test(hex) ? hex.toUpperCase().match(/../g)!.join(':') : null;
}
