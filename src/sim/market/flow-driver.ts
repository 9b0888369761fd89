import type { Instrument } from '../../domain/instrument.ts';
import type { Actor, Venue } from '../venue.ts';
import { resolveFlow, type ResolvedFlow } from './flow-params.ts';
import { desiredLadder, diffLadder, type WorkingLadderOrder } from './maker-model.ts';
import type { MarketConfig } from './market-config.ts';
import { PriceProcess } from './price-process.ts';
import { Rng, deriveSeed } from './rng.ts';
import { drawTaker, nextArrivalMs } from './taker-model.ts';

interface SymbolFlow {
  readonly ins: Instrument;
  readonly params: ResolvedFlow;
  readonly proc: PriceProcess;
  readonly rng: Rng;
  readonly makers: readonly Actor[];
  readonly taker: Actor;
  lastFairTicks: number;
  nextTakerMs: number;
}

/** Counters for tests and demos. */
export interface FlowStats {
  steps: number;
  makerPlaced: number;
  makerCancelled: number;
  takerOrders: number;
}

/**
 * Synthetic market flow: per instrument an underlying price process, background makers keeping a
 * multi-level ladder around fair (= underlying plus basis) and Poisson takers sending IOC orders at
 * the touch — all real orders of internal accounts through the venue's matching engine. One timer
 * drives every symbol; everything random is seeded per symbol.
 */
export class FlowDriver {
  readonly stats: FlowStats = { steps: 0, makerPlaced: 0, makerCancelled: 0, takerOrders: 0 };
  readonly flows = new Map<string, SymbolFlow>();
  readonly #stepMs: number;
  #lastMs: number;
  #lastSecondMs: number;
  #cancel: (() => void) | undefined;
  readonly #enabled: boolean;

  constructor(
    private readonly venue: Venue,
    cfg: MarketConfig['market'],
    seed: number,
    /** Called about once a venue second with the time (for underlying history and funding samples). */
    private readonly onSecond: (nowMs: number) => void,
  ) {
    const speed = venue.config.clock_speed;
    this.#stepMs = Math.max(cfg.step_ms, 20 * speed);
    this.#lastMs = venue.clock.nowMs();
    this.#lastSecondMs = this.#lastMs;
    const symbols = cfg.symbols ?? venue.catalog.all().map((i) => i.symbol);
    for (const symbol of symbols) {
      const ins = venue.catalog.get(symbol);
      if (!ins) throw new RangeError(`market.symbols: unknown symbol ${symbol}`);
      const start = venue.markets.get(symbol)!.lastSettlement.toNumber();
      const params = resolveFlow(cfg, ins, start);
      const rng = new Rng(deriveSeed(seed, symbol));
      const actor = (name: string): Actor => {
        const a = venue.createInternalAccount(name);
        return { userId: a.userId, accountId: a.id };
      };
      const makers = Array.from({ length: params.makerAccounts }, (_, k) => actor(`mm-${symbol}-${k + 1}`));
      this.flows.set(symbol, {
        ins,
        params,
        proc: new PriceProcess(params.underlying, rng),
        rng,
        makers,
        taker: actor(`taker-${symbol}`),
        lastFairTicks: Number.NaN,
        nextTakerMs: this.#lastMs + nextArrivalMs(params.takers, rng),
      });
    }
    this.#enabled = cfg.enabled;
  }

  /** Starts the flow (first step now, then every step interval) when `market.enabled`. */
  start(): void {
    if (!this.#enabled || this.#cancel) return;
    this.step();
    this.#arm();
  }

  /** The current underlying price of `symbol`, if it has flow. */
  underlying(symbol: string): number | undefined {
    return this.flows.get(symbol)?.proc.price;
  }

  /** Advances every symbol to the venue's current time (the timer calls this; tests may too). */
  step(): void {
    const now = this.venue.clock.nowMs();
    const dt = now - this.#lastMs;
    this.#lastMs = now;
    this.stats.steps++;
    for (const f of this.flows.values()) {
      f.proc.step(dt);
      if (this.venue.markets.get(f.ins.symbol)?.state !== 'OPEN') continue;
      this.#requote(f);
      this.#takers(f, now);
    }
    if (now - this.#lastSecondMs >= 1000 || this.stats.steps === 1) {
      this.#lastSecondMs = now;
      this.onSecond(now);
    }
  }

  /** Stops the timer. */
  close(): void {
    this.#cancel?.();
    this.#cancel = undefined;
  }

  #arm(): void {
    this.#cancel = this.venue.clock.setTimer(this.#stepMs, () => {
      this.step();
      this.#arm();
    });
  }

  #fairTicks(f: SymbolFlow): number {
    return (f.proc.price * (1 + f.params.basisBps / 1e4)) / f.ins.grid.tickSize.toNumber();
  }

  #requote(f: SymbolFlow): void {
    const fair = this.#fairTicks(f);
    const moved = !(Math.abs(fair - f.lastFairTicks) < f.params.makers.requoteThresholdTicks);
    if (moved) f.lastFairTicks = fair;
    const symbol = f.ins.symbol;
    for (const m of f.makers) {
      const acct = this.venue.accounts.account(m.accountId)!;
      const working: WorkingLadderOrder[] = [];
      for (const o of acct.open.values()) if (o.symbol === symbol) working.push({ id: o.oid, side: o.side, priceTicks: o.priceTicks });
      const desired = desiredLadder(f.lastFairTicks, f.ins.minOrderSize, f.params.makers, f.rng);
      if (!moved && working.length >= desired.length) continue;
      const diff = diffLadder(working, desired);
      for (const oid of diff.cancel) {
        this.venue.cancel(m, { oid });
        this.stats.makerCancelled++;
      }
      const band = this.venue.markets.get(symbol)!.band;
      for (const o of diff.place) {
        if (o.priceTicks < band.lowerTicks || o.priceTicks > band.upperTicks) continue;
        this.venue.placeNow(m, { symbol, side: o.side, qty: o.qty, price: f.ins.grid.toPrice(o.priceTicks), tif: 'GTC', postOnly: false });
        this.stats.makerPlaced++;
      }
    }
  }

  #takers(f: SymbolFlow, now: number): void {
    const book = this.venue.books.get(f.ins.symbol)!;
    const band = this.venue.markets.get(f.ins.symbol)!.band;
    for (let guard = 0; f.nextTakerMs <= now && guard < 1000; guard++) {
      f.nextTakerMs += nextArrivalMs(f.params.takers, f.rng);
      const o = drawTaker(book.bestBid(), book.bestAsk(), this.#fairTicks(f), f.ins.minOrderSize, f.params.takers, f.rng);
      if (!o) continue;
      const limit = Math.min(Math.max(o.limitTicks, band.lowerTicks), band.upperTicks);
      this.venue.placeNow(f.taker, { symbol: f.ins.symbol, side: o.side, qty: o.qty, price: f.ins.grid.toPrice(limit), tif: 'IOC', postOnly: false });
      this.stats.takerOrders++;
    }
    if (f.nextTakerMs <= now) f.nextTakerMs = now + nextArrivalMs(f.params.takers, f.rng);
  }
}
