import type { Clock } from '../core/clock.ts';
import type { InstrumentCatalog } from '../domain/instrument.ts';
import type { BackoffPolicy } from './backoff.ts';
import { MarketDataWsClient } from './md-ws-client.ts';
import { OrderWsClient } from './order-ws-client.ts';
import { RestClient, type ApiCredentials } from './rest-client.ts';
import { venueAccountReader, venueGateway, type GatewayStats, type VenueAccountReader, type VenueOrderGateway } from './venue-gateway.ts';

/** Options of `connectVenue`. */
export interface ConnectVenueOptions {
  readonly baseUrl: string;
  /** Defaults to `baseUrl` with the ws scheme. */
  readonly wsUrl?: string;
  readonly clock: Clock;
  readonly credentials: ApiCredentials;
  readonly accountId?: string;
  /** Fetched from the venue when absent. */
  readonly instruments?: InstrumentCatalog;
  readonly tokenLifetimeS?: number;
  readonly cancelOnDisconnect?: boolean;
  readonly clientHeartbeatTimeoutS?: number;
  readonly requestTimeoutMs?: number;
  readonly snapshotTimeoutMs?: number;
  readonly staleAfterMs?: number;
  readonly reconnect?: BackoffPolicy;
}

/** A wired set of venue clients sharing one token lifecycle. */
export interface VenueConnection {
  readonly rest: RestClient;
  readonly orders: OrderWsClient;
  readonly marketData: MarketDataWsClient;
  readonly gateway: VenueOrderGateway & { readonly stats: GatewayStats };
  readonly accounts: VenueAccountReader;
  readonly instruments: InstrumentCatalog;
  /** Stops both sockets, the token timer and the HTTP pool. */
  close(): Promise<void>;
}

/**
 * Builds REST + order WS + market-data WS against one venue (instruments loaded first), starts
 * both sockets, and returns them with the gateway and account reader. The composition root's
 * one-liner; tests and the daemon may also build the pieces by hand.
 */
export async function connectVenue(o: ConnectVenueOptions): Promise<VenueConnection> {
  const rest = new RestClient({
    baseUrl: o.baseUrl,
    clock: o.clock,
    credentials: o.credentials,
    ...(o.accountId !== undefined ? { accountId: o.accountId } : {}),
    ...(o.instruments ? { instruments: o.instruments } : {}),
    ...(o.tokenLifetimeS !== undefined ? { tokenLifetimeS: o.tokenLifetimeS } : {}),
    ...(o.requestTimeoutMs !== undefined ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
  });
  const instruments = o.instruments ?? (await rest.loadInstruments());
  const tokens = rest.tokens!;
  const wsUrl = o.wsUrl ?? o.baseUrl.replace(/^http/, 'ws');
  const orders = new OrderWsClient({
    wsUrl,
    clock: o.clock,
    tokens,
    instruments,
    ...(o.accountId !== undefined ? { accountId: o.accountId } : {}),
    ...(o.cancelOnDisconnect !== undefined ? { cancelOnDisconnect: o.cancelOnDisconnect } : {}),
    ...(o.clientHeartbeatTimeoutS !== undefined ? { clientHeartbeatTimeoutS: o.clientHeartbeatTimeoutS } : {}),
    ...(o.requestTimeoutMs !== undefined ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
    ...(o.reconnect ? { reconnect: o.reconnect } : {}),
  });
  const marketData = new MarketDataWsClient({
    wsUrl,
    clock: o.clock,
    tokens,
    instruments,
    ...(o.snapshotTimeoutMs !== undefined ? { snapshotTimeoutMs: o.snapshotTimeoutMs } : {}),
    ...(o.staleAfterMs !== undefined ? { staleAfterMs: o.staleAfterMs } : {}),
    ...(o.reconnect ? { reconnect: o.reconnect } : {}),
  });
  orders.start();
  marketData.start();
  return {
    rest,
    orders,
    marketData,
    gateway: venueGateway(orders, rest),
    accounts: venueAccountReader(rest),
    instruments,
    async close() {
      await Promise.all([orders.stop(), marketData.stop()]);
      await rest.close();
    },
  };
}
