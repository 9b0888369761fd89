/**
 * Which kind of venue host a URL names. Only a loopback host (a local venue) or a sandbox host
 * (a `sandbox` label in the host name, as the venue names its paper-trading gateway) counts as
 * safe; every other host is treated as production, where an order is real money.
 */

/** `loopback` (a local venue), `sandbox` (paper money) or `production` (everything else). */
export type HostKind = 'loopback' | 'sandbox' | 'production';

/** Classifies `url`'s host. @throws Error when `url` is not a URL. */
export function hostKind(url: string): HostKind {
  const host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host)) return 'loopback';
  if (host.split('.').includes('sandbox')) return 'sandbox';
  return 'production';
}
