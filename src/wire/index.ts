/**
 * The venue's wire protocol: types for every message, decoders (never throw; errors name the JSON
 * path), compact encoders (events with `t` first) and wire ⇄ domain mappers. Wire types stay inside
 * client/, sim/ and rewards/; the rest of mmbot sees domain types.
 */
export * from './types/index.ts';
export { CLOSE_MESSAGE_TOO_BIG, MAX_CLIENT_FRAME_BYTES, MAX_VENUE_FRAME_BYTES } from './frame-limits.ts';
export { quote, quoteEnum, writeJson, encodeQuery } from './encode/json.ts';
export { encodeOrder, writeOrder, writeFillDetail } from './encode/order.ts';
export { encodeOrderWsEvent, encodeOrderWsReply, encodeOrderWsRequest } from './encode/order-ws.ts';
export { encodeMdEvent, encodeMdReply, encodeMdRequest, encodeTicker, writeLevels } from './encode/md-ws.ts';
export { encodeRestBody, encodeRestQuery, encodeErrorBody, encodeIndexPricesResponse, encodeInstrumentsResponse } from './encode/rest.ts';
export { runDecoder, decodeError, pathOf, type DecodeError, type Decoder, type PathKey } from './decode/kit.ts';
export { runDecoderOnText, parseWireJson, quoteLongIds } from './decode/json-text.ts';
export {
  decodeOrderWsFrame,
  decodeOrderWsEvent,
  decodeOrderWsReply,
  decodeLoginReply,
  decodeOrderWsRequest,
  decodeOrderWsRequestText,
  decodeOrder,
} from './decode/order-ws.ts';
export { decodeMdWsFrame, decodeMdEvent, decodeMdReply, decodeMdRequest, decodeMdRequestText } from './decode/md-ws.ts';
export * from './decode/rest.ts';
export {
  WIRE_MESSAGE_DECODERS,
  WIRE_MESSAGE_TYPES,
  isWireMessageType,
  decodeAs,
  inferWireMessageType,
  type WireMessageType,
} from './decode/registry.ts';
export { toDomainInstrument, toWireInstrument, fundingVariantOf } from './map/instrument.ts';
export { toDomainOrder, toWireOrder, toDomainOrderStatus, toWireOrderStatus, toDomainFill } from './map/order.ts';
export { toOrderEvent, toWireOrderEvent } from './map/order-event.ts';
export { toVenuePosition } from './map/position.ts';
export {
  toMarketEvent,
  toTickerUpdated,
  toFundingEstimate,
  toFundingSettlement,
  toWireLevels,
  toWireBookFrame,
  toWireTrade,
} from './map/market.ts';
export { tsTnToMs, msToTsTn, wireSide, stpOf, rawOrNull } from './map/kit.ts';
export { checkWireText, type WireCheckResult } from './check.ts';
