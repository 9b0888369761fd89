import { Decimal } from '../core/decimal.ts';
import type { BacktestRun } from './runner.ts';

/** What the strategies' hedges did in a run (report.json `total.hedges`). */
export interface HedgeReport {
  /** Hedge orders sent (IOC) and refused by the risk gate before sending. */
  readonly sent: number;
  readonly refused: number;
  /** Hedge fills and the contracts they traded. */
  readonly fills: number;
  readonly filled_qty: number;
  /** Fees paid on hedge fills, USD. */
  readonly fees_usd: string;
  /**
   * What hedging cost against the mid at fill time: Σ (price − mid) × side × qty × tick value, plus
   * the fees (positive = a cost), USD. Fills without a mid count their fees only.
   */
  readonly cost_usd: string;
}

/** Sums the run's hedges and the fills that carry their client order ids. */
export function hedgeReport(run: BacktestRun): HedgeReport {
  const cids = new Set<string>();
  let sent = 0;
  let refused = 0;
  for (const h of run.hedges) {
    if (h.sent && h.clientOrderId !== null) {
      sent++;
      cids.add(h.clientOrderId);
    } else refused++;
  }
  const tickValue = new Map(run.exchange.ledgers.map((l) => [l.instrument.symbol as string, l.instrument.grid.tickSize.mul(l.instrument.multiplier)]));
  let fills = 0;
  let qty = 0;
  let fees = new Decimal(0);
  let slippage = new Decimal(0);
  for (const f of run.fills) {
    if (f.clientOrderId === null || !cids.has(f.clientOrderId)) continue;
    fills++;
    qty += f.qty;
    fees = fees.plus(f.fee);
    if (Number.isFinite(f.midTicks)) {
      const ticks = (f.side === 'buy' ? f.priceTicks - f.midTicks : f.midTicks - f.priceTicks) * f.qty;
      slippage = slippage.plus(tickValue.get(f.symbol)!.mul(ticks));
    }
  }
  return { sent, refused, fills, filled_qty: qty, fees_usd: fees.toFixed(6), cost_usd: slippage.plus(fees).toFixed(6) };
}
