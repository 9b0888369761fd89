/** Public REST (and shared-object) decoders: `decodeXxx(value)` → Result, never throws. */
import type { Result } from '../../core/result.ts';
import { runDecoder, type Decoder, type DecodeError } from './kit.ts';
import { readAuthenticateRequest, readAuthenticateResponse, readCreateApiKeyRequest, readCreateApiKeyResponse, readRevokeApiKeyRequest, readUpdateAllowedIpsRequest, readHealthResponse, readErrorBody, readEmpty } from './rest-auth.ts';
import { readPlaceOrderRequest, readOrderIdResponse, readCancelOrderRequest, readCancelOrderResponse, readReplaceOrderRequest, readCancelAllOrdersRequest, readOrderStatusQuery, readOrderStatusResponse, readOpenOrdersQuery, readOpenOrdersResponse, readOrderHistoryQuery, readOrderHistoryResponse, readOrderFillsQuery, readFill, readOrderFillsResponse, readInitialMarginResponse } from './rest-orders.ts';
import { readWhoAmI, readBalancesResponse, readPositionsResponse, readRiskSnapshotResponse, readTimeseriesQuery, readTransactionsQuery, readFillsResponse, readTransactionsResponse, readLiquidationsResponse, readFundingTransactionsResponse, readSandboxTransferRequest, readSandboxTransferResponse } from './rest-portfolio.ts';
import { readInstrumentsResponse, readSymbolQuery, readBookQuery, readBookResponse, readTickerResponse, readTickersQuery, readTickersResponse, readTradesQuery, readTradesResponse, readCandlesQuery, readCandlesResponse, readCandleQuery, readCandleResponse, readFundingRatesQuery, readFundingRatesResponse, readFundingSlotsQuery, readUnderlyingPricesQuery, readUnderlyingPricesResponse, readPreviewRequest, readPreviewResponse } from './rest-market.ts';
import { readRewardAccrualsQuery, readRewardAccrualsResponse } from './rest-rewards.ts';
import { readEstimatedFunding, readFundingRate, readFundingSlotsReport } from './funding.ts';
import { readInstrument } from './instrument.ts';
import { readTicker, readTrade, readCandle, readBboCandle } from './market.ts';
import { readOrderStatus } from './order.ts';

/** The value type a decoder produces. */
export type DecodedBy<D> = D extends Decoder<infer T> ? T : never;

/** Decodes AuthenticateRequest (see the matching Wire type). */
export const decodeAuthenticateRequest = (v: unknown): Result<DecodedBy<typeof readAuthenticateRequest>, DecodeError> => runDecoder(readAuthenticateRequest, v);
/** Decodes AuthenticateResponse (see the matching Wire type). */
export const decodeAuthenticateResponse = (v: unknown): Result<DecodedBy<typeof readAuthenticateResponse>, DecodeError> => runDecoder(readAuthenticateResponse, v);
/** Decodes CreateApiKeyRequest (see the matching Wire type). */
export const decodeCreateApiKeyRequest = (v: unknown): Result<DecodedBy<typeof readCreateApiKeyRequest>, DecodeError> => runDecoder(readCreateApiKeyRequest, v);
/** Decodes CreateApiKeyResponse (see the matching Wire type). */
export const decodeCreateApiKeyResponse = (v: unknown): Result<DecodedBy<typeof readCreateApiKeyResponse>, DecodeError> => runDecoder(readCreateApiKeyResponse, v);
/** Decodes RevokeApiKeyRequest (see the matching Wire type). */
export const decodeRevokeApiKeyRequest = (v: unknown): Result<DecodedBy<typeof readRevokeApiKeyRequest>, DecodeError> => runDecoder(readRevokeApiKeyRequest, v);
/** Decodes UpdateAllowedIpsRequest (see the matching Wire type). */
export const decodeUpdateAllowedIpsRequest = (v: unknown): Result<DecodedBy<typeof readUpdateAllowedIpsRequest>, DecodeError> => runDecoder(readUpdateAllowedIpsRequest, v);
/** Decodes HealthResponse (see the matching Wire type). */
export const decodeHealthResponse = (v: unknown): Result<DecodedBy<typeof readHealthResponse>, DecodeError> => runDecoder(readHealthResponse, v);
/** Decodes ErrorBody (see the matching Wire type). */
export const decodeErrorBody = (v: unknown): Result<DecodedBy<typeof readErrorBody>, DecodeError> => runDecoder(readErrorBody, v);
/** Decodes Empty (see the matching Wire type). */
export const decodeEmpty = (v: unknown): Result<DecodedBy<typeof readEmpty>, DecodeError> => runDecoder(readEmpty, v);
/** Decodes PlaceOrderRequest (see the matching Wire type). */
export const decodePlaceOrderRequest = (v: unknown): Result<DecodedBy<typeof readPlaceOrderRequest>, DecodeError> => runDecoder(readPlaceOrderRequest, v);
/** Decodes OrderIdResponse (see the matching Wire type). */
export const decodeOrderIdResponse = (v: unknown): Result<DecodedBy<typeof readOrderIdResponse>, DecodeError> => runDecoder(readOrderIdResponse, v);
/** Decodes CancelOrderRequest (see the matching Wire type). */
export const decodeCancelOrderRequest = (v: unknown): Result<DecodedBy<typeof readCancelOrderRequest>, DecodeError> => runDecoder(readCancelOrderRequest, v);
/** Decodes CancelOrderResponse (see the matching Wire type). */
export const decodeCancelOrderResponse = (v: unknown): Result<DecodedBy<typeof readCancelOrderResponse>, DecodeError> => runDecoder(readCancelOrderResponse, v);
/** Decodes ReplaceOrderRequest (see the matching Wire type). */
export const decodeReplaceOrderRequest = (v: unknown): Result<DecodedBy<typeof readReplaceOrderRequest>, DecodeError> => runDecoder(readReplaceOrderRequest, v);
/** Decodes CancelAllOrdersRequest (see the matching Wire type). */
export const decodeCancelAllOrdersRequest = (v: unknown): Result<DecodedBy<typeof readCancelAllOrdersRequest>, DecodeError> => runDecoder(readCancelAllOrdersRequest, v);
/** Decodes OrderStatusQuery (see the matching Wire type). */
export const decodeOrderStatusQuery = (v: unknown): Result<DecodedBy<typeof readOrderStatusQuery>, DecodeError> => runDecoder(readOrderStatusQuery, v);
/** Decodes OrderStatusResponse (see the matching Wire type). */
export const decodeOrderStatusResponse = (v: unknown): Result<DecodedBy<typeof readOrderStatusResponse>, DecodeError> => runDecoder(readOrderStatusResponse, v);
/** Decodes OpenOrdersQuery (see the matching Wire type). */
export const decodeOpenOrdersQuery = (v: unknown): Result<DecodedBy<typeof readOpenOrdersQuery>, DecodeError> => runDecoder(readOpenOrdersQuery, v);
/** Decodes OpenOrdersResponse (see the matching Wire type). */
export const decodeOpenOrdersResponse = (v: unknown): Result<DecodedBy<typeof readOpenOrdersResponse>, DecodeError> => runDecoder(readOpenOrdersResponse, v);
/** Decodes OrderHistoryQuery (see the matching Wire type). */
export const decodeOrderHistoryQuery = (v: unknown): Result<DecodedBy<typeof readOrderHistoryQuery>, DecodeError> => runDecoder(readOrderHistoryQuery, v);
/** Decodes OrderHistoryResponse (see the matching Wire type). */
export const decodeOrderHistoryResponse = (v: unknown): Result<DecodedBy<typeof readOrderHistoryResponse>, DecodeError> => runDecoder(readOrderHistoryResponse, v);
/** Decodes OrderFillsQuery (see the matching Wire type). */
export const decodeOrderFillsQuery = (v: unknown): Result<DecodedBy<typeof readOrderFillsQuery>, DecodeError> => runDecoder(readOrderFillsQuery, v);
/** Decodes Fill (see the matching Wire type). */
export const decodeFill = (v: unknown): Result<DecodedBy<typeof readFill>, DecodeError> => runDecoder(readFill, v);
/** Decodes OrderFillsResponse (see the matching Wire type). */
export const decodeOrderFillsResponse = (v: unknown): Result<DecodedBy<typeof readOrderFillsResponse>, DecodeError> => runDecoder(readOrderFillsResponse, v);
/** Decodes InitialMarginResponse (see the matching Wire type). */
export const decodeInitialMarginResponse = (v: unknown): Result<DecodedBy<typeof readInitialMarginResponse>, DecodeError> => runDecoder(readInitialMarginResponse, v);
/** Decodes WhoAmI (see the matching Wire type). */
export const decodeWhoAmI = (v: unknown): Result<DecodedBy<typeof readWhoAmI>, DecodeError> => runDecoder(readWhoAmI, v);
/** Decodes BalancesResponse (see the matching Wire type). */
export const decodeBalancesResponse = (v: unknown): Result<DecodedBy<typeof readBalancesResponse>, DecodeError> => runDecoder(readBalancesResponse, v);
/** Decodes PositionsResponse (see the matching Wire type). */
export const decodePositionsResponse = (v: unknown): Result<DecodedBy<typeof readPositionsResponse>, DecodeError> => runDecoder(readPositionsResponse, v);
/** Decodes RiskSnapshotResponse (see the matching Wire type). */
export const decodeRiskSnapshotResponse = (v: unknown): Result<DecodedBy<typeof readRiskSnapshotResponse>, DecodeError> => runDecoder(readRiskSnapshotResponse, v);
/** Decodes TimeseriesQuery (see the matching Wire type). */
export const decodeTimeseriesQuery = (v: unknown): Result<DecodedBy<typeof readTimeseriesQuery>, DecodeError> => runDecoder(readTimeseriesQuery, v);
/** Decodes TransactionsQuery (see the matching Wire type). */
export const decodeTransactionsQuery = (v: unknown): Result<DecodedBy<typeof readTransactionsQuery>, DecodeError> => runDecoder(readTransactionsQuery, v);
/** Decodes FillsResponse (see the matching Wire type). */
export const decodeFillsResponse = (v: unknown): Result<DecodedBy<typeof readFillsResponse>, DecodeError> => runDecoder(readFillsResponse, v);
/** Decodes TransactionsResponse (see the matching Wire type). */
export const decodeTransactionsResponse = (v: unknown): Result<DecodedBy<typeof readTransactionsResponse>, DecodeError> => runDecoder(readTransactionsResponse, v);
/** Decodes LiquidationsResponse (see the matching Wire type). */
export const decodeLiquidationsResponse = (v: unknown): Result<DecodedBy<typeof readLiquidationsResponse>, DecodeError> => runDecoder(readLiquidationsResponse, v);
/** Decodes FundingTransactionsResponse (see the matching Wire type). */
export const decodeFundingTransactionsResponse = (v: unknown): Result<DecodedBy<typeof readFundingTransactionsResponse>, DecodeError> => runDecoder(readFundingTransactionsResponse, v);
/** Decodes SandboxTransferRequest (see the matching Wire type). */
export const decodeSandboxTransferRequest = (v: unknown): Result<DecodedBy<typeof readSandboxTransferRequest>, DecodeError> => runDecoder(readSandboxTransferRequest, v);
/** Decodes SandboxTransferResponse (see the matching Wire type). */
export const decodeSandboxTransferResponse = (v: unknown): Result<DecodedBy<typeof readSandboxTransferResponse>, DecodeError> => runDecoder(readSandboxTransferResponse, v);
/** Decodes InstrumentsResponse (see the matching Wire type). */
export const decodeInstrumentsResponse = (v: unknown): Result<DecodedBy<typeof readInstrumentsResponse>, DecodeError> => runDecoder(readInstrumentsResponse, v);
/** Decodes SymbolQuery (see the matching Wire type). */
export const decodeSymbolQuery = (v: unknown): Result<DecodedBy<typeof readSymbolQuery>, DecodeError> => runDecoder(readSymbolQuery, v);
/** Decodes BookQuery (see the matching Wire type). */
export const decodeBookQuery = (v: unknown): Result<DecodedBy<typeof readBookQuery>, DecodeError> => runDecoder(readBookQuery, v);
/** Decodes BookResponse (see the matching Wire type). */
export const decodeBookResponse = (v: unknown): Result<DecodedBy<typeof readBookResponse>, DecodeError> => runDecoder(readBookResponse, v);
/** Decodes TickerResponse (see the matching Wire type). */
export const decodeTickerResponse = (v: unknown): Result<DecodedBy<typeof readTickerResponse>, DecodeError> => runDecoder(readTickerResponse, v);
/** Decodes TickersQuery (see the matching Wire type). */
export const decodeTickersQuery = (v: unknown): Result<DecodedBy<typeof readTickersQuery>, DecodeError> => runDecoder(readTickersQuery, v);
/** Decodes TickersResponse (see the matching Wire type). */
export const decodeTickersResponse = (v: unknown): Result<DecodedBy<typeof readTickersResponse>, DecodeError> => runDecoder(readTickersResponse, v);
/** Decodes TradesQuery (see the matching Wire type). */
export const decodeTradesQuery = (v: unknown): Result<DecodedBy<typeof readTradesQuery>, DecodeError> => runDecoder(readTradesQuery, v);
/** Decodes TradesResponse (see the matching Wire type). */
export const decodeTradesResponse = (v: unknown): Result<DecodedBy<typeof readTradesResponse>, DecodeError> => runDecoder(readTradesResponse, v);
/** Decodes CandlesQuery (see the matching Wire type). */
export const decodeCandlesQuery = (v: unknown): Result<DecodedBy<typeof readCandlesQuery>, DecodeError> => runDecoder(readCandlesQuery, v);
/** Decodes CandlesResponse (see the matching Wire type). */
export const decodeCandlesResponse = (v: unknown): Result<DecodedBy<typeof readCandlesResponse>, DecodeError> => runDecoder(readCandlesResponse, v);
/** Decodes CandleQuery (see the matching Wire type). */
export const decodeCandleQuery = (v: unknown): Result<DecodedBy<typeof readCandleQuery>, DecodeError> => runDecoder(readCandleQuery, v);
/** Decodes CandleResponse (see the matching Wire type). */
export const decodeCandleResponse = (v: unknown): Result<DecodedBy<typeof readCandleResponse>, DecodeError> => runDecoder(readCandleResponse, v);
/** Decodes FundingRatesQuery (see the matching Wire type). */
export const decodeFundingRatesQuery = (v: unknown): Result<DecodedBy<typeof readFundingRatesQuery>, DecodeError> => runDecoder(readFundingRatesQuery, v);
/** Decodes FundingRatesResponse (see the matching Wire type). */
export const decodeFundingRatesResponse = (v: unknown): Result<DecodedBy<typeof readFundingRatesResponse>, DecodeError> => runDecoder(readFundingRatesResponse, v);
/** Decodes FundingSlotsQuery (see the matching Wire type). */
export const decodeFundingSlotsQuery = (v: unknown): Result<DecodedBy<typeof readFundingSlotsQuery>, DecodeError> => runDecoder(readFundingSlotsQuery, v);
/** Decodes UnderlyingPricesQuery (see the matching Wire type). */
export const decodeUnderlyingPricesQuery = (v: unknown): Result<DecodedBy<typeof readUnderlyingPricesQuery>, DecodeError> => runDecoder(readUnderlyingPricesQuery, v);
/** Decodes UnderlyingPricesResponse (see the matching Wire type). */
export const decodeUnderlyingPricesResponse = (v: unknown): Result<DecodedBy<typeof readUnderlyingPricesResponse>, DecodeError> => runDecoder(readUnderlyingPricesResponse, v);
/** Decodes PreviewRequest (see the matching Wire type). */
export const decodePreviewRequest = (v: unknown): Result<DecodedBy<typeof readPreviewRequest>, DecodeError> => runDecoder(readPreviewRequest, v);
/** Decodes PreviewResponse (see the matching Wire type). */
export const decodePreviewResponse = (v: unknown): Result<DecodedBy<typeof readPreviewResponse>, DecodeError> => runDecoder(readPreviewResponse, v);
/** Decodes RewardAccrualsQuery (see the matching Wire type). */
export const decodeRewardAccrualsQuery = (v: unknown): Result<DecodedBy<typeof readRewardAccrualsQuery>, DecodeError> => runDecoder(readRewardAccrualsQuery, v);
/** Decodes RewardAccrualsResponse (see the matching Wire type). */
export const decodeRewardAccrualsResponse = (v: unknown): Result<DecodedBy<typeof readRewardAccrualsResponse>, DecodeError> => runDecoder(readRewardAccrualsResponse, v);
/** Decodes EstimatedFunding (see the matching Wire type). */
export const decodeEstimatedFunding = (v: unknown): Result<DecodedBy<typeof readEstimatedFunding>, DecodeError> => runDecoder(readEstimatedFunding, v);
/** Decodes FundingRate (see the matching Wire type). */
export const decodeFundingRate = (v: unknown): Result<DecodedBy<typeof readFundingRate>, DecodeError> => runDecoder(readFundingRate, v);
/** Decodes FundingSlotsReport (see the matching Wire type). */
export const decodeFundingSlotsReport = (v: unknown): Result<DecodedBy<typeof readFundingSlotsReport>, DecodeError> => runDecoder(readFundingSlotsReport, v);
/** Decodes Instrument (see the matching Wire type). */
export const decodeInstrument = (v: unknown): Result<DecodedBy<typeof readInstrument>, DecodeError> => runDecoder(readInstrument, v);
/** Decodes Ticker (see the matching Wire type). */
export const decodeTicker = (v: unknown): Result<DecodedBy<typeof readTicker>, DecodeError> => runDecoder(readTicker, v);
/** Decodes Trade (see the matching Wire type). */
export const decodeTrade = (v: unknown): Result<DecodedBy<typeof readTrade>, DecodeError> => runDecoder(readTrade, v);
/** Decodes Candle (see the matching Wire type). */
export const decodeCandle = (v: unknown): Result<DecodedBy<typeof readCandle>, DecodeError> => runDecoder(readCandle, v);
/** Decodes BboCandle (see the matching Wire type). */
export const decodeBboCandle = (v: unknown): Result<DecodedBy<typeof readBboCandle>, DecodeError> => runDecoder(readBboCandle, v);
/** Decodes OrderStatus (see the matching Wire type). */
export const decodeOrderStatus = (v: unknown): Result<DecodedBy<typeof readOrderStatus>, DecodeError> => runDecoder(readOrderStatus, v);
