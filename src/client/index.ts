/**
 * Venue I/O: REST (undici keep-alive pool), the order-entry WebSocket and the market-data
 * WebSocket, with token lifecycle, retries, reconnects and resyncs, all exposed as domain types
 * and RxJS Observables.
 */
export { RestClient, type ApiCredentials, type RestClientOptions } from './rest-client.ts';
export { RestCore, withQuery, type CallSpec, type RestCoreOptions, type RestStats, type QueryValue } from './rest-core.ts';
export { undiciTransport, RequestTimedOut, type HttpTransport, type HttpRequest, type HttpResponse } from './http-transport.ts';
export { TokenManager, type TokenManagerOptions } from './token-manager.ts';
export { OrderWsClient, type OrderWsClientOptions, type OrderWsStats } from './order-ws-client.ts';
export { BearerUpgrade, type TokenSource } from './ws-bearer.ts';
export { MarketDataWsClient, type MarketDataWsClientOptions, type MdStats, type StaleState } from './md-ws-client.ts';
export type { BookSubscription, BookLevelName } from './md-subscriptions.ts';
export { venueGateway, venueAccountReader, type VenueOrderGateway, type VenueAccountReader, type GatewayStats } from './venue-gateway.ts';
export { resolvePlaceOutcome, resolveReplaceOutcome, isUnknownOutcome } from './order-outcome.ts';
export { offsetPaged, cursorPaged, collect, type OffsetPage, type CursorPage } from './paging.ts';
export { backoffDelayMs, parseRetryAfterMs, DEFAULT_RETRY_BACKOFF, DEFAULT_RECONNECT_BACKOFF, type BackoffPolicy } from './backoff.ts';
export { BookKeeper, type BookApplyResult } from './book-keeper.ts';
export { wsSocketFactory, type SocketFactory, type SocketLike, type SocketHandlers } from './socket.ts';
export type { StreamConnection } from './stream-types.ts';
export type { FillWithFee } from './wire-port.ts';
export { orderOpCode } from './order-errors.ts';
export { connectVenue, type VenueConnection, type ConnectVenueOptions } from './connect.ts';
export { parseReferenceLine, startReferenceFeed, type ReferenceFeed, type ReferenceFeedSpec, type ReferenceSource } from './reference-feed.ts';
