import type { Clock } from '../core/clock.ts';
import type { AuthService } from './auth/auth-service.ts';
import type { VenueConfig } from './config/venue-config.ts';
import type { Router } from './server/http-kit.ts';
import type { RateLimiter } from './server/rate-limiter.ts';
import type { WsRegistry } from './server/ws-registry.ts';
import type { Venue } from './venue.ts';

/** What a plugin gets to hook into the running venue. */
export interface VenuePluginContext {
  readonly venue: Venue;
  /** Add REST routes (`router.get('/api/ticker', handler)`); `{ auth: false }` for public ones. */
  readonly router: Router;
  /** Add WS paths (`ws.register('/md/ws', handler)`); auth (401/403) is done before your handler. */
  readonly ws: WsRegistry;
  readonly auth: AuthService;
  readonly config: VenueConfig;
  /** The per-user order-request limiter (429), if a plugin adds order-like endpoints. */
  readonly rateLimiter: RateLimiter;
  /** Real (unscaled) clock for I/O-edge timers such as socket heartbeats. */
  readonly ioClock: Clock;
}

/**
 * A part of the venue that plugs into the core: market data, funding, rewards, synthetic flow.
 * `register` runs before the server listens; `stop` runs on shutdown (clear timers there, or use
 * `venue.onStop`).
 */
export interface VenuePlugin {
  readonly name: string;
  register(ctx: VenuePluginContext): void | Promise<void>;
  stop?(): void | Promise<void>;
}
