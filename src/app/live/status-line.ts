import type { Decimal } from '../../core/decimal.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';
import type { EngineSnapshot, SymbolSnapshot } from '../../engine/index.ts';

const signed = (d: Decimal, dp = 2): string => `${d.isNegative() ? '' : '+'}${d.toFixed(dp)}`;

function quotesPart(s: SymbolSnapshot, px: (ticks: number) => string, running: boolean): string {
  // A stopped engine keeps its last desired quotes in the snapshot, but nothing quotes them any more.
  if (!running) return `stopped (${s.working.length} working)`;
  const bid = s.desired?.bids[0];
  const ask = s.desired?.asks[0];
  const quotes = bid || ask ? `${bid ? `${bid.qty}@${px(bid.priceTicks)}` : '-'} / ${ask ? `${ask.qty}@${px(ask.priceTicks)}` : '-'}` : 'no quotes';
  const levels = s.desired ? ` (${s.desired.bids.length}x${s.desired.asks.length} lvls, ${s.working.length} working)` : ` (${s.working.length} working)`;
  return `${quotes}${levels}`;
}

function symbolPart(s: SymbolSnapshot, catalog: InstrumentCatalog, running: boolean, ownPnl: boolean): string {
  const grid = catalog.get(s.symbol)?.grid;
  const px = (ticks: number): string => (grid ? grid.toPrice(ticks) : `${ticks}t`);
  const pos = s.position.qty === 0 ? 'flat' : `${s.position.qty > 0 ? '+' : ''}${s.position.qty}${s.position.avgPrice ? `@${s.position.avgPrice.toFixed(grid?.decimals ?? 4)}` : ''}`;
  const state = s.tradingState === 'ACTIVE' ? '' : ` ${s.tradingState}(${s.tradingReason})`;
  const err = s.strategyError ? ` STRATEGY ERROR: ${s.strategyError}` : '';
  // One symbol: its PnL is the total printed after it, so it is not repeated.
  return `${s.symbol} ${quotesPart(s, px, running)} pos ${pos}${ownPnl ? ` pnl ${signed(s.pnl.total)}` : ''}${state}${err}`;
}

/**
 * The daemon's one-line status: per symbol the best desired bid/ask, levels and working orders
 * (`stopped` and the working count once the engine stopped), position and PnL (with several symbols); then fills, total
 * PnL (fees, and funding once any was booked), and the kill switch when tripped.
 */
export function formatStatusLine(snap: EngineSnapshot, catalog: InstrumentCatalog): string {
  const parts = snap.symbols.map((s) => symbolPart(s, catalog, snap.running, snap.symbols.length > 1));
  const c = snap.counters;
  const kill = snap.killSwitch.tripped ? ` | KILL SWITCH: ${snap.killSwitch.reason ?? '?'} ${snap.killSwitch.detail ?? ''}`.trimEnd() : '';
  const slow = snap.execution.slowedDown ? ' (slowed down)' : '';
  return `${parts.join(' | ')} | fills ${c.fills} pnl ${signed(snap.pnl.total)} USD (fees ${signed(snap.pnl.fees)}${snap.pnl.funding.isZero() ? '' : `, funding ${signed(snap.pnl.funding)}`}) | sent ${c.intentsSent.place}p/${c.intentsSent.replace}r/${c.intentsSent.cancel}c rejects ${c.rejects.venue + c.rejects.risk + c.rejects.gateway}${slow}${kill}`;
}
