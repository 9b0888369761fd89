/**
 * The live mark (rules.md §5, [I]): the last trade price while it is recent, else the last
 * settlement price; optionally clamped into [best bid, best ask]. All prices in ticks.
 */
export interface MarkInputs {
  readonly lastTradeTicks: number | undefined;
  readonly lastTradeMs: number | undefined;
  readonly nowMs: number;
  /** How long a trade stays "recent", in ms. */
  readonly recentMs: number;
  readonly lastSettlementTicks: number;
  readonly bestBidTicks: number | undefined;
  readonly bestAskTicks: number | undefined;
  /** Clamp the mark into the current touch when both sides exist. */
  readonly clampToTouch: boolean;
}

/** The mark price in ticks. */
export function markPriceTicks(m: MarkInputs): number {
  const recent = m.lastTradeTicks !== undefined && m.lastTradeMs !== undefined && m.nowMs - m.lastTradeMs <= m.recentMs;
  let mark = recent ? m.lastTradeTicks! : m.lastSettlementTicks;
  if (m.clampToTouch && m.bestBidTicks !== undefined && m.bestAskTicks !== undefined && m.bestBidTicks <= m.bestAskTicks) {
    mark = Math.min(Math.max(mark, m.bestBidTicks), m.bestAskTicks);
  }
  return mark;
}
