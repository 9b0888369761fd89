/**
 * The local venue: matching engine, accounts and risk, auth, order entry over WS and REST, and the
 * plugin seam market data / funding / rewards / synthetic flow plug into. See README.md.
 */
export { startVenue, buildVenue, type RunningVenue, type HeadlessVenue, type VenueOptions } from './server/start-venue.ts';
export { dispatch, type VenueRequest, type VenueAnswer } from './server/dispatch.ts';
export { Venue, type VenueInit, type DefaultCredentials, type FundingEstimateProvider } from './venue.ts';
export { loadVenueConfig, parseVenueConfig, defaultVenueConfig, type VenueConfig, type VenueConfigInput } from './config/venue-config.ts';
export type { VenuePlugin, VenuePluginContext } from './plugin.ts';
export { Router, HttpError, ok, parseJsonText, type RouteContext, type RouteHandler, type RouteResult } from './server/http-kit.ts';
export { WsRegistry, authorizeUpgrade, type WsPathHandler, type WsConnectionContext } from './server/ws-registry.ts';
export { resolveAccount, requirePermission } from './server/access.ts';
export { toWireOrder, toWireEvent, rfc3339Ns, tsTn, money } from './server/wire-out.ts';
export { VenueKnobs, type DropFilter } from './knobs.ts';
export { OrderBook, BookSide, type PriceLevel, type LevelView } from './book/order-book.ts';
export type { SimOrder, PlaceSpec, ReplaceSpec, VenueOrderEvent, TradeEvent, OrderSnapshot, FillDetail } from './types.ts';
export type { InstrumentMarket } from './prices.ts';
export type { Account, Position, FillRecord, LedgerEntry, Permissions } from './accounts/account.ts';
export type { RiskSnapshot, SymbolRisk } from './accounts/risk.ts';
export { defaultCatalog, defaultRawInstruments, INITIAL_PRICES, type RawInstrument } from './catalog/default-catalog.ts';
export { ScaledClock } from './clock/scaled-clock.ts';
