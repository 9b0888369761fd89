import type { EngineEvent } from './events.ts';
import type { SymbolSlot } from './symbol-slot.ts';
import type { EngineLog } from './types.ts';

/** Prefix of a symbol's trading reason while its market data is suspect (`mmbot status`, the state endpoint). */
export const DATA_SUSPECT_REASON = 'market data suspect';

/**
 * Re-checks a symbol's market data (its `MdSanity`) before the symbol's state is decided. On the
 * edges of an episode only: an event for metrics and one WARN line naming the symbol and the value
 * when it starts, an INFO line when the data is sane again (so a glitch that lasts an hour logs two
 * lines, not one per book update).
 */
export function watchMarketData(slot: SymbolSlot, now: number, out: { emit(ev: EngineEvent): void }, log: EngineLog | undefined): void {
  const m = slot.market;
  const s = slot.sanity;
  const t = s.update(m.bestBid(), m.bestAsk(), m.ticker === null ? null : m.ticker.markTicks, m.indexTicks, now);
  if (t === null) return;
  if (t === 'suspect') {
    out.emit({ type: 'market-data-suspect', symbol: slot.symbol, kind: s.kind, detail: s.detail, tsMs: now });
    log?.warn({ symbol: slot.symbol, kind: s.kind, detail: s.detail }, `${DATA_SUSPECT_REASON} on ${slot.symbol}: ${s.detail}; quotes pulled until it is sane again`);
  } else {
    out.emit({ type: 'market-data-suspect', symbol: slot.symbol, kind: null, detail: '', tsMs: now });
    log?.info({ symbol: slot.symbol }, `market data on ${slot.symbol} sane again: quoting resumes`);
  }
}
