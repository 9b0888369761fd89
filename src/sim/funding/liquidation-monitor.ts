import { Decimal } from '../../core/decimal.ts';
import type { MarketConfig } from '../market/market-config.ts';
import type { Venue } from '../venue.ts';

/** One liquidation as `/api/liquidations` lists it (tsNs is stripped by the route). */
export interface LiquidationRecord {
  readonly tsNs: bigint;
  readonly liquidation_id: string;
  readonly account_id: string;
  readonly symbol: string;
  readonly order_id: string;
  readonly side: 'B' | 'S';
  readonly quantity: number;
  readonly limit_price: string;
  readonly filled_quantity: number;
  readonly equity: string;
  readonly maintenance_margin_required: string;
  readonly timestamp: string;
}

/**
 * Liquidation (docs/venue-rules.md §6 [I]): every check interval, each non-internal account whose equity is
 * below its maintenance margin has its open orders cancelled, then each position is closed with an
 * IOC `L-` order through the book, limit = mark ∓ slippage. Runs on the venue clock.
 */
export class LiquidationMonitor {
  #cancel: (() => void) | undefined;

  constructor(
    private readonly venue: Venue,
    private readonly cfg: MarketConfig['liquidation'],
  ) {
    if (cfg.enabled) this.#arm();
  }

  /** Checks every account now; returns how many were liquidated. */
  check(): number {
    let n = 0;
    for (const acct of this.venue.accounts.accounts.values()) {
      if (acct.internal) continue;
      let hasPos = false;
      for (const p of acct.positions.values()) if (p.signedQty !== 0) hasPos = true;
      if (!hasPos) continue;
      const risk = this.venue.risk(acct.id);
      if (!risk || risk.mm.lte(0) || risk.equity.gte(risk.mm)) continue;
      n++;
      this.venue.cancelAll(acct.id, {}, 'UNKNOWN', 'liquidation');
      const actor = { userId: acct.userId, accountId: acct.id };
      for (const [symbol, pos] of acct.positions) {
        if (pos.signedQty === 0) continue;
        const m = this.venue.markets.get(symbol);
        const mark = this.venue.mark(symbol);
        if (!m || !mark || m.state !== 'OPEN') continue;
        const grid = m.instrument.grid;
        const sell = pos.signedQty > 0;
        const slip = new Decimal(this.cfg.slippage_pct).div(100);
        const raw = sell ? mark.mul(new Decimal(1).minus(slip)) : mark.mul(new Decimal(1).plus(slip));
        let ticks = grid.decimalToTicks(raw, sell ? 'up' : 'down');
        ticks = Math.min(Math.max(ticks, m.band.lowerTicks), m.band.upperTicks);
        const qty = Math.abs(pos.signedQty);
        const order = this.venue.placeNow(actor, { symbol, side: sell ? 'sell' : 'buy', qty, price: grid.toPrice(ticks), tif: 'IOC', postOnly: false }, { liquidation: true });
        const tsNs = this.venue.clock.nowNs();
        const rec: LiquidationRecord = {
          tsNs,
          liquidation_id: this.venue.ids.ulid(),
          account_id: acct.id,
          symbol,
          order_id: order.oid,
          side: sell ? 'S' : 'B',
          quantity: qty,
          limit_price: grid.toPrice(ticks),
          filled_quantity: order.filledQty,
          equity: risk.equity.toFixed(12),
          maintenance_margin_required: risk.mm.toFixed(12),
          timestamp: new Date(Number(tsNs / 1_000_000n)).toISOString(),
        };
        acct.liquidations.push(rec);
      }
    }
    return n;
  }

  /** Stops the timer. */
  close(): void {
    this.#cancel?.();
  }

  #arm(): void {
    this.#cancel = this.venue.clock.setTimer(this.cfg.check_interval_ms, () => {
      this.check();
      this.#arm();
    });
  }
}
