import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { hostAllowList } from './host-check.ts';
import { renderMetricsYielding } from './render-metrics.ts';
import type { Readiness } from './readiness.ts';

/** The default metrics/health port (the OpenTelemetry Prometheus exporter's conventional port). */
export const DEFAULT_METRICS_PORT = 9464;

/** Options of `startHealthServer`. */
export interface HealthServerOptions {
  /** Bind address (default 127.0.0.1). */
  readonly host?: string;
  /** Port (default 9464; 0 picks a free one). */
  readonly port?: number;
  /** The registry `/metrics` serves. */
  readonly registry: Registry;
  /** Called on every `/readyz`; must be cheap and must not throw. */
  readonly readiness: () => Readiness;
  /** Called before every `/metrics` render (e.g. to copy a snapshot into gauges); errors answer 500. */
  readonly beforeMetrics?: () => void | Promise<void>;
  /** Asked first for every path other than /metrics, /healthz and /readyz (any method). */
  readonly routes?: HttpRoutes;
  /**
   * Host names answered besides loopback names, the bind address and IP literals (a DNS name
   * Prometheus or a proxy uses to reach this server). Other `Host` headers get 421 on every path
   * but /healthz and /readyz: the DNS-rebinding guard.
   */
  readonly allowedHosts?: readonly string[];
  /** Open connections at most; more are closed on accept (default MAX_CONNECTIONS). */
  readonly maxConnections?: number;
  /** A connection with no traffic either way for this long is closed (default IDLE_TIMEOUT_MS). */
  readonly idleTimeoutMs?: number;
}

/**
 * Connections at most: a local process opening thousands of idle sockets would otherwise hold as
 * many descriptors (and the ones /readyz, Prometheus and the operator's page need).
 */
export const MAX_CONNECTIONS = 256;
/** Idle connections (nothing sent or received; an event stream writes every second) close after 15 s. */
export const IDLE_TIMEOUT_MS = 15_000;
/** Headers must arrive within 10 s of the first byte (slow-header clients), checked every second. */
const HEADERS_TIMEOUT_MS = 10_000;

/** Extra routes served beside the health endpoints (the operator console); answers true when it handled the request. */
export interface HttpRoutes {
  handle(req: IncomingMessage, res: ServerResponse): Promise<boolean>;
  /**
   * Asked before `/metrics` is served (it shows positions, PnL and open orders, like the console's
   * state): false when it refused and answered the request itself (401). Absent = open.
   */
  authorizeRead?(req: IncomingMessage, res: ServerResponse): boolean;
}

/** A running health server. */
export interface HealthServer {
  /** `http://host:port` */
  readonly url: string;
  readonly port: number;
  /** Stops accepting connections and closes idle ones. */
  close(): Promise<void>;
}

/**
 * Serves `/metrics` (Prometheus text format from `registry`, behind `routes.authorizeRead` when
 * given), `/healthz` (200 while the process runs) and `/readyz` (200 when ready, 503 with
 * `{ ready, reasons }` JSON otherwise); probes are never behind a token.
 * @throws the listen error (e.g. EADDRINUSE) through the returned promise.
 */
export async function startHealthServer(options: HealthServerOptions): Promise<HealthServer> {
  const { registry, readiness } = options;
  const host = options.host ?? '127.0.0.1';
  const hostAllowed = hostAllowList(host, options.allowedHosts);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    // Probes stay reachable whatever name they use; everything else (state, metrics, actions)
    // answers only to names this server is known by.
    if (path !== '/healthz' && path !== '/readyz' && !hostAllowed(req.headers.host)) {
      send(res, 421, 'application/json', JSON.stringify({ error: 'misdirected request: this server does not answer to that Host name (add it to monitoring.allowed_hosts)' }));
      return;
    }
    if (options.routes && path !== '/metrics' && path !== '/healthz' && path !== '/readyz' && (await options.routes.handle(req, res))) return;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'application/json', JSON.stringify({ error: 'method not allowed' }), { allow: 'GET, HEAD' });
      return;
    }
    switch (path) {
      case '/metrics':
        if (options.routes?.authorizeRead && !options.routes.authorizeRead(req, res)) return;
        // A frame read in the same poll as this request goes first; the render then yields (see renderMetricsYielding).
        await new Promise((resolve) => setImmediate(resolve));
        await options.beforeMetrics?.();
        send(res, 200, registry.contentType, await renderMetricsYielding(registry));
        return;
      case '/healthz':
        send(res, 200, 'application/json', JSON.stringify({ status: 'ok' }));
        return;
      case '/readyz': {
        const r = readiness();
        send(res, r.ready ? 200 : 503, 'application/json', JSON.stringify({ ready: r.ready, reasons: r.reasons }));
        return;
      }
      default:
        send(res, 404, 'application/json', JSON.stringify({ error: `not found: ${path}`, endpoints: ['/metrics', '/healthz', '/readyz'] }));
    }
  };

  const idleTimeoutMs = options.idleTimeoutMs ?? IDLE_TIMEOUT_MS;
  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: 2 * HEADERS_TIMEOUT_MS, connectionsCheckingInterval: 1_000 }, (req, res) => {
    handle(req, res).catch((e: unknown) => {
      // A failing collector must not take the endpoint down: answer 500 with the message.
      if (!res.headersSent) send(res, 500, 'application/json', JSON.stringify({ error: e instanceof Error ? e.message : String(e) }));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = Math.min(5_000, idleTimeoutMs);
  server.maxConnections = options.maxConnections ?? MAX_CONNECTIONS;
  // headersTimeout only starts at a request's first byte: a socket that never sends one is closed
  // by this inactivity timer instead of being held until the peer gives up.
  server.on('connection', (socket) => socket.setTimeout(idleTimeoutMs, () => socket.destroy()));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_METRICS_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(res.req.method === 'HEAD' ? undefined : body);
}
