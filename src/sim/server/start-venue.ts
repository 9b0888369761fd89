import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LiveClock, type Clock } from '../../core/clock.ts';
import { defaultVenueConfig, parseVenueConfig, type VenueConfig, type VenueConfigInput } from '../config/venue-config.ts';
import type { VenuePlugin, VenuePluginContext } from '../plugin.ts';
import { Venue, type DefaultCredentials } from '../venue.ts';
import { dispatch } from './dispatch.ts';
import { peerIp, readJsonBody, Router, sendText } from './http-kit.ts';
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
  /** `clock` already runs at venue speed (a stepped virtual clock): not scaled again. */
  readonly prescaled?: boolean;
  /** The clock of I/O-edge timers (heartbeats, the ticker throttle). Default LiveClock. */
  readonly ioClock?: Clock;
  readonly seed?: number;
  /**
   * Plugins to register. Default: the market plugins from `src/sim/market/index.ts`
   * (`marketPlugins(config)`) when that module exists. Pass `[]` for the bare core.
   */
  readonly plugins?: readonly VenuePlugin[];
  /** Where operational warnings go (an oversize WS frame refused), one line each. Default stderr. */
  readonly warn?: (line: string) => void;
}

/**
 * A venue without a server: the in-process handle, its router and WS registry with every plugin
 * registered. `startVenue` listens on top of it; an in-process client (`dispatch`, the market-data
 * service's `attach`) can use it directly.
 */
export interface HeadlessVenue {
  readonly venue: Venue;
  readonly router: Router;
  readonly ws: WsRegistry;
  readonly rateLimiter: RateLimiter;
  /** Stops plugins and the venue's timers (idempotent). */
  stop(): Promise<void>;
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

/** Builds the venue, its routes and plugins without listening (see `HeadlessVenue`). */
export async function buildVenue(options: VenueOptions = {}): Promise<HeadlessVenue> {
  const config = options.config ? parseVenueConfig(options.config) : defaultVenueConfig();
  const venue = new Venue({ config, ...(options.clock ? { clock: options.clock } : {}), ...(options.prescaled ? { prescaled: true } : {}), ...(options.seed !== undefined ? { seed: options.seed } : {}) });
  const router = new Router();
  const ws = new WsRegistry(venue, options.warn ? { warn: options.warn } : {});
  const rateLimiter = new RateLimiter(venue.clock, () => venue.knobs.rateLimit);
  const ioClock = options.ioClock ?? new LiveClock();
  const ctx: VenuePluginContext = { venue, router, ws, auth: venue.auth, config, rateLimiter, ioClock };
  registerAuthRoutes(ctx);
  registerPortfolioRoutes(ctx);
  registerOrderRoutes(ctx);
  registerOrderWs(ctx);
  const plugins = options.plugins ? [...options.plugins] : await discoverPlugins(config);
  for (const p of plugins) await p.register(ctx);
  let stopped = false;
  return {
    venue,
    router,
    ws,
    rateLimiter,
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const p of plugins) await p.stop?.();
      venue.stop();
    },
  };
}

/** Starts the local venue on loopback: HTTP + WS server, core routes, plugins. */
export async function startVenue(options: VenueOptions = {}): Promise<RunningVenue> {
  const built = await buildVenue(options);
  const { venue, router, ws } = built;
  const unDrop = venue.knobs.onDrop((f) => ws.drop(f));

  const server = createServer((req, res) => void handle(req, res));
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const out = await dispatch(venue, router, { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, ip: peerIp(req), readBody: () => readJsonBody(req) });
    sendText(res, out.status, out.text);
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
    rateLimiter: built.rateLimiter,
    async stop() {
      if (stopped) return;
      stopped = true;
      unDrop();
      await built.stop();
      ws.closeAll();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
