import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LiveClock, type Clock } from '../../core/clock.ts';
import { defaultVenueConfig, parseVenueConfig, type VenueConfig, type VenueConfigInput } from '../config/venue-config.ts';
import type { VenuePlugin, VenuePluginContext } from '../plugin.ts';
import { Venue, type DefaultCredentials } from '../venue.ts';
import { HttpError, peerIp, readJsonBody, Router, sendError, sendJson } from './http-kit.ts';
import { registerOrderWs } from './order-ws.ts';
import { RateLimiter } from './rate-limiter.ts';
import { registerAuthRoutes } from './routes-auth.ts';
import { registerOrderRoutes } from './routes-orders.ts';
import { registerPortfolioRoutes } from './routes-portfolio.ts';
import { WsRegistry } from './ws-registry.ts';

/** Options of `startVenue`. */
export interface VenueOptions {
  /** 0 (default) = any free port. */
  readonly port?: number;
  readonly host?: string;
  /** Parsed config (or a partial one to be defaulted). */
  readonly config?: VenueConfig | VenueConfigInput;
  /** Base clock of the venue (the clock-speed knob scales it). Default LiveClock. */
  readonly clock?: Clock;
  readonly seed?: number;
  /**
   * Plugins to register. Default: the market plugins from `src/sim/market/index.ts`
   * (`marketPlugins(config)`) when that module exists. Pass `[]` for the bare core.
   */
  readonly plugins?: readonly VenuePlugin[];
}

/** A running venue: addresses, the default credentials, the in-process handle and `stop`. */
export interface RunningVenue {
  /** `http://127.0.0.1:PORT` */
  readonly baseUrl: string;
  /** `ws://127.0.0.1:PORT` */
  readonly wsUrl: string;
  readonly credentials: DefaultCredentials;
  readonly venue: Venue;
  readonly rateLimiter: RateLimiter;
  stop(): Promise<void>;
}

async function discoverPlugins(config: VenueConfig): Promise<VenuePlugin[]> {
  const spec = '../market/index.ts';
  try {
    const mod = (await import(new URL(spec, import.meta.url).href)) as { marketPlugins?: (c: VenueConfig) => VenuePlugin[] };
    return mod.marketPlugins ? mod.marketPlugins(config) : [];
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_MODULE_NOT_FOUND' && String((e as Error).message).includes('market/index.ts')) return [];
    throw e;
  }
}

/** Starts the local venue on loopback: HTTP + WS server, core routes, plugins. */
export async function startVenue(options: VenueOptions = {}): Promise<RunningVenue> {
  const config = options.config ? parseVenueConfig(options.config) : defaultVenueConfig();
  const venue = new Venue({ config, ...(options.clock ? { clock: options.clock } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) });
  const router = new Router();
  const ws = new WsRegistry(venue);
  const rateLimiter = new RateLimiter(venue.clock, () => venue.knobs.rateLimit);
  const ioClock = new LiveClock();
  const ctx: VenuePluginContext = { venue, router, ws, auth: venue.auth, config, rateLimiter, ioClock };
  registerAuthRoutes(ctx);
  registerPortfolioRoutes(ctx);
  registerOrderRoutes(ctx);
  registerOrderWs(ctx);
  const plugins = options.plugins ? [...options.plugins] : await discoverPlugins(config);
  for (const p of plugins) await p.register(ctx);
  const unDrop = venue.knobs.onDrop((f) => ws.drop(f));

  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const route = router.match(req.method ?? 'GET', url.pathname);
      if (route === undefined) return sendError(res, 404, `no endpoint ${req.method} ${url.pathname}`);
      if (route === 'method') return sendError(res, 405, `method ${req.method} not allowed on ${url.pathname}`);
      let session = null;
      if (route.auth) {
        const a = venue.auth.resolve(req.headers.authorization, peerIp(req));
        if (!a.ok) return sendError(res, a.error.status, a.error.message);
        session = a.value;
      }
      const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : await readJsonBody(req);
      const out = await route.handler({ req, method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, body, ip: peerIp(req), session, venue });
      sendJson(res, out.status, out.body);
    } catch (e) {
      if (e instanceof HttpError) return sendError(res, e.status, e.message);
      sendError(res, 500, `internal error: ${(e as Error).message}`);
    }
  }
  server.on('upgrade', (req, socket, head) => ws.handleUpgrade(req, socket, head));
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  let stopped = false;
  return {
    baseUrl: `http://${host}:${port}`,
    wsUrl: `ws://${host}:${port}`,
    credentials: venue.credentials,
    venue,
    rateLimiter,
    async stop() {
      if (stopped) return;
      stopped = true;
      unDrop();
      for (const p of plugins) await p.stop?.();
      venue.stop();
      ws.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
