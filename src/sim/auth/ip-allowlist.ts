/** Strips the IPv4-mapped IPv6 prefix so `::ffff:127.0.0.1` matches `127.0.0.1`. */
export function normalizeIp(ip: string): string {
  return ip.startsWith('::ffff:') ? ip.slice(7) : ip;
}

function ipv4ToInt(ip: string): number | null {
  const parts = ip.split('.');
  if (parts.length !== 4) return null;
  let n = 0;
  for (const p of parts) {
    if (!/^[0-9]{1,3}$/.test(p) || Number(p) > 255) return null;
    n = n * 256 + Number(p);
  }
  return n;
}

/** True when `entry` is an IP address or an IPv4 CIDR block (`10.0.0.0/8`). */
export function isIpEntry(entry: string): boolean {
  const [addr, bits] = entry.split('/');
  if (bits !== undefined) return ipv4ToInt(addr ?? '') !== null && /^[0-9]{1,2}$/.test(bits) && Number(bits) <= 32;
  return ipv4ToInt(entry) !== null || /^[0-9a-fA-F:]+$/.test(entry);
}

/** True when `ip` is allowed by `list` (null or empty = any IP). Entries are addresses or IPv4 CIDRs. */
export function ipAllowed(list: readonly string[] | null, ip: string): boolean {
  if (!list || list.length === 0) return true;
  const addr = normalizeIp(ip);
  const n = ipv4ToInt(addr);
  for (const e of list) {
    const [base, bits] = e.split('/');
    if (bits === undefined) {
      if (normalizeIp(e) === addr) return true;
      continue;
    }
    const b = ipv4ToInt(base ?? '');
    if (b === null || n === null) continue;
    const mask = Number(bits) === 0 ? 0 : (0xffffffff << (32 - Number(bits))) >>> 0;
    if (((b & mask) >>> 0) === ((n & mask) >>> 0)) return true;
  }
  return false;
}
