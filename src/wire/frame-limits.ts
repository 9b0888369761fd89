/**
 * WebSocket frame bounds (`ws` maxPayload; its default is 100 MiB, which let one frame add
 * hundreds of MB to a process). A frame over the bound closes that connection with 1009
 * (message too big) as soon as its header announces the length: nothing of it is buffered.
 */

/**
 * What the venue accepts from a client: order-WS and md-WS requests are a few hundred bytes (one
 * order, one subscription, a cancel list); 1 MiB is thousands of times the largest.
 */
export const MAX_CLIENT_FRAME_BYTES = 1024 * 1024;

/**
 * What a client accepts from the venue: the largest frame is an order-level (LEVEL_3) book
 * snapshot, depth levels per side each with its order sizes (100 levels × 100 orders × 2 sides ≈
 * 150 KB); 16 MiB leaves a hundredfold margin for deep books.
 */
export const MAX_VENUE_FRAME_BYTES = 16 * 1024 * 1024;

/** The close code `ws` sends when a frame is over maxPayload (RFC 6455 "message too big"). */
export const CLOSE_MESSAGE_TOO_BIG = 1009;
