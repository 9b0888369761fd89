import { Redis } from 'ioredis';
import { MmError } from '../core/errors.ts';

/** Where jobs run: this machine's threads, or a Redis server that worker processes take jobs from. */
export type Backend = { readonly kind: 'embedded' } | { readonly kind: 'redis'; readonly url: string };

/** The default BullMQ queue of research jobs. */
export const DEFAULT_QUEUE = 'mmbot-research';

/** A URL with its password replaced by `***`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (!u.password) return url; // nothing to hide: show the value as given (URL() rewrites "redis://" as "redis:/")
    u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

/**
 * Parses a `--backend` value: `embedded` (the default), or `redis://[user:pass@]host[:port][/db]`
 * (`rediss://` for TLS).
 * @throws MmError USAGE naming the value and the accepted forms.
 */
export function parseBackend(spec: string | undefined): Backend {
  if (spec === undefined || spec === '' || spec === 'embedded') return { kind: 'embedded' };
  let u: URL;
  try {
    u = new URL(spec);
  } catch {
    throw new MmError('USAGE', `--backend ${redactUrl(spec)}: not a URL (expected embedded or redis://host:port)`);
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:') throw new MmError('USAGE', `--backend ${redactUrl(spec)}: unsupported scheme ${u.protocol} (expected embedded, redis://host:port or rediss://host:port)`);
  if (u.hostname === '') throw new MmError('USAGE', `--backend ${redactUrl(spec)}: no host (expected redis://host:port)`);
  if (u.port !== '' && !(Number(u.port) > 0 && Number(u.port) < 65536)) throw new MmError('USAGE', `--backend ${redactUrl(spec)}: bad port ${u.port}`);
  if (u.pathname !== '' && u.pathname !== '/' && !/^\/\d+$/.test(u.pathname)) throw new MmError('USAGE', `--backend ${redactUrl(spec)}: the path must be a database number (redis://host:port/0)`);
  return { kind: 'redis', url: spec };
}

/** Options of `connectRedis`. */
export interface ConnectOptions {
  /** Give up on the first connection after this long (ms; default 5000). */
  readonly connectTimeoutMs?: number;
  /** Errors after the first connection (the client reconnects by itself). */
  readonly onError?: (e: Error) => void;
}

/**
 * Connects to Redis, failing fast with a clear error when the server cannot be reached; the client
 * returned reconnects by itself afterwards and never fails commands while it does (BullMQ needs
 * `maxRetriesPerRequest: null`).
 * @throws MmError BACKEND_UNAVAILABLE naming the (redacted) URL and the cause.
 */
export async function connectRedis(url: string, opts: ConnectOptions = {}): Promise<Redis> {
  const probe = new Redis(url, { lazyConnect: true, connectTimeout: opts.connectTimeoutMs ?? 5000, retryStrategy: () => null, maxRetriesPerRequest: 0, enableOfflineQueue: false });
  let last: Error | null = null;
  probe.on('error', (e: Error) => (last = e));
  try {
    await probe.connect();
    await probe.ping();
  } catch (e) {
    probe.disconnect();
    const err = (last ?? e) as NodeJS.ErrnoException;
    const why = err.code ?? err.message ?? String(err);
    throw new MmError('BACKEND_UNAVAILABLE', `cannot reach the backend ${redactUrl(url)}: ${why}`, { backend: redactUrl(url) }, { cause: e });
  }
  probe.disconnect();
  const conn = new Redis(url, { maxRetriesPerRequest: null, connectTimeout: opts.connectTimeoutMs ?? 5000 });
  conn.on('error', (e: Error) => opts.onError?.(e));
  return conn;
}

