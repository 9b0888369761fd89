import { isIP } from 'node:net';

/** Host names that always mean this machine's loopback interface. */
const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '::1'];

/** True when `host` (a bind address or a Host name) is a loopback one: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = bare(host);
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** True when `host` is a wildcard bind address (every interface). */
export function isWildcardHost(host: string): boolean {
  const h = bare(host);
  return h === '0.0.0.0' || h === '::';
}

/**
 * Decides which `Host` headers a local server answers, against DNS rebinding: a page on
 * `evil.test` whose name was re-pointed at 127.0.0.1 reaches the port with `Host: evil.test`.
 * Allowed: loopback names, the bind address, `extra` names, and any IP literal (a browser that
 * sends an IP as Host was pointed at that IP, not at a name an attacker controls). Ports are ignored.
 */
export function hostAllowList(bindHost: string, extra: readonly string[] = []): (hostHeader: string | undefined) => boolean {
  const names = new Set([...LOOPBACK_NAMES, ...extra, bindHost].map((n) => bare(n).toLowerCase()));
  return (hostHeader) => {
    // HTTP/1.0 clients may omit Host; a browser never does, so an absent Host is no rebinding.
    if (hostHeader === undefined || hostHeader === '') return true;
    const name = bare(stripPort(hostHeader)).toLowerCase();
    return names.has(name) || name.endsWith('.localhost') || isIP(name) !== 0;
  };
}

/** `[::1]` → `::1`. */
const bare = (h: string): string => (h.startsWith('[') && h.endsWith(']') ? h.slice(1, -1) : h);

/** `name:port` / `[v6]:port` → the name part. */
function stripPort(h: string): string {
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h : h.slice(0, end + 1);
  }
  const colon = h.indexOf(':');
  // Two or more colons without brackets: a bare IPv6 address (not valid in Host, but harmless).
  return colon >= 0 && h.indexOf(':', colon + 1) < 0 ? h.slice(0, colon) : h;
}
