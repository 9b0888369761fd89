import type { Instrument } from '../../domain/instrument.ts';
import type { Actor, Venue } from '../venue.ts';
import type { ResolvedFlow } from './flow-params.ts';
import { desiredLadder, diffLadder, ladderShape, levelQty, type LadderShape, type WorkingLadderOrder } from './maker-model.ts';
import type { Rng } from './rng.ts';
import { drawTaker, nextArrivalMs } from './taker-model.ts';
import type { UnderlyingPath } from './underlying-path.ts';

/** Counters for tests, demos and the preset report. */
export interface FlowStats {
  steps: number;
  makerPlaced: number;
  makerCancelled: number;
  takerOrders: number;
  informedOrders: number;
  churns: number;
}

/** What a symbol's flow needs from its driver. */
export interface SymbolFlowDeps {
  readonly venue: Venue;
  readonly ins: Instrument;
  readonly params: ResolvedFlow;
  /** The underlying path this instrument shares with every instrument on the same product. */
  readonly path: UnderlyingPath;
  /** The instrument's own price level at the path's start (its last settlement). */
  readonly startPrice: number;
  readonly rng: Rng;
  readonly makers: readonly Actor[];
  readonly taker: Actor;
  readonly stats: FlowStats;
}

/**
 * One instrument's synthetic participants: background makers keeping a ladder around the fair
 * price as they saw it `reactionMs` ago (plus the temporary impact of recent takers), wider and
 * thinner when volatile or after a jump; Poisson takers (noise and informed) whose fills move the
 * shared underlying permanently; and random depth churn.
 */
export class SymbolFlow {
  /** Next taker arrival and next churn event, venue ms. */
  nextTakerMs: number;
  nextChurnMs: number;
  #lastFairTicks = Number.NaN;
  #lastShape = '';
  #shape: LadderShape | undefined;
  #tempTicks = 0;
  #tempAtMs = 0;
  #basisNoiseBps = 0;
  readonly #tick: number;

  constructor(
    readonly d: SymbolFlowDeps,
    nowMs: number,
  ) {
    this.#tick = d.ins.grid.tickSize.toNumber();
    this.nextTakerMs = nowMs + nextArrivalMs(d.params.takers, d.rng);
    this.nextChurnMs = d.params.makers.churnPerS > 0 ? nowMs + d.rng.exponential(1000 / d.params.makers.churnPerS) : Number.POSITIVE_INFINITY;
  }

  get symbol(): string {
    return this.d.ins.symbol;
  }

  /** The underlying (benchmark) price at `tMs` in instrument units: start × exp(path + impact). */
  underlying(tMs: number): number {
    return this.d.startPrice * Math.exp(this.d.path.logReturnAt(tMs) + this.d.path.impactLog);
  }

  /** Fair value at `tMs` in ticks (float): underlying plus the basis and its noise. */
  fairTicks(tMs: number): number {
    return (this.underlying(tMs) * (1 + (this.d.params.basisBps + this.#basisNoiseBps) / 1e4)) / this.#tick;
  }

  /** The makers' temporary quote shift from recent taker flow at `nowMs`, ticks. */
  tempTicks(nowMs: number): number {
    if (this.#tempTicks === 0) return 0;
    return this.#tempTicks * 2 ** (-(nowMs - this.#tempAtMs) / this.d.params.impact.temporaryHalfLifeMs);
  }

  /** The periodic step: basis noise moves, makers requote if fair or their ladder shape changed. */
  step(nowMs: number, dtMs: number): void {
    const p = this.d.params;
    if (p.basisNoiseBps > 0 && dtMs > 0) {
      const a = Math.exp(-(dtMs / 1000) * (Math.LN2 / p.basisHalfLifeS));
      this.#basisNoiseBps = this.#basisNoiseBps * a + p.basisNoiseBps * Math.sqrt(1 - a * a) * this.d.rng.normal();
    }
    this.#requote(nowMs);
  }

  /** Runs the taker arrivals and churn events due by `nowMs`, in time order. */
  events(nowMs: number): void {
    const r = this.d.rng;
    for (let guard = 0; guard < 1000; guard++) {
      if (this.nextTakerMs <= nowMs && this.nextTakerMs <= this.nextChurnMs) {
        this.#taker(nowMs);
        this.nextTakerMs += nextArrivalMs(this.d.params.takers, r, this.d.path.volatileAt(nowMs));
      } else if (this.nextChurnMs <= nowMs) {
        this.#churn();
        this.nextChurnMs += r.exponential(1000 / this.d.params.makers.churnPerS);
      } else return;
    }
    // Far behind (a stalled clock): skip the backlog instead of firing it all at once.
    if (this.nextTakerMs <= nowMs) this.nextTakerMs = nowMs + nextArrivalMs(this.d.params.takers, r);
    if (this.nextChurnMs <= nowMs) this.nextChurnMs = nowMs + r.exponential(1000 / this.d.params.makers.churnPerS);
  }

  #requote(nowMs: number): void {
    const { venue, ins, params, path, rng } = this.d;
    const seenMs = nowMs - params.makers.reactionMs;
    const fair = this.fairTicks(seenMs) + this.tempTicks(nowMs);
    const shape = ladderShape(params.makers, path.volatileAt(seenMs), path.msSinceJumpAt(seenMs));
    const shapeKey = `${shape.halfSpreadTicks}/${shape.minLots}/${shape.maxLots}`;
    this.#shape = shape;
    const moved = !(Math.abs(fair - this.#lastFairTicks) < params.makers.requoteThresholdTicks) || shapeKey !== this.#lastShape;
    if (moved) {
      this.#lastFairTicks = fair;
      this.#lastShape = shapeKey;
    }
    const symbol = ins.symbol;
    for (const m of this.d.makers) {
      const working = this.#working(m);
      const desired = desiredLadder(this.#lastFairTicks, ins.minOrderSize, params.makers, rng, shape);
      if (!moved && working.length >= desired.length) continue;
      const diff = diffLadder(working, desired);
      for (const oid of diff.cancel) {
        venue.cancel(m, { oid });
        this.d.stats.makerCancelled++;
      }
      const band = venue.markets.get(symbol)!.band;
      for (const o of diff.place) {
        if (o.priceTicks < band.lowerTicks || o.priceTicks > band.upperTicks) continue;
        venue.placeNow(m, { symbol, side: o.side, qty: o.qty, price: ins.grid.toPrice(o.priceTicks), tif: 'GTC', postOnly: false });
        this.d.stats.makerPlaced++;
      }
    }
  }

  #working(m: Actor): WorkingLadderOrder[] {
    const acct = this.d.venue.accounts.account(m.accountId)!;
    const out: WorkingLadderOrder[] = [];
    for (const o of acct.open.values()) if (o.symbol === this.d.ins.symbol) out.push({ id: o.oid, side: o.side, priceTicks: o.priceTicks });
    return out;
  }

  #taker(nowMs: number): void {
    const { venue, ins, params, path, rng, stats } = this.d;
    const book = venue.books.get(ins.symbol)!;
    const band = venue.markets.get(ins.symbol)!.band;
    const t = params.takers;
    const future = t.informedShare > 0 ? this.fairTicks(nowMs + t.informedHorizonMs) : 0;
    const o = drawTaker(book.bestBid(), book.bestAsk(), this.fairTicks(nowMs), future, ins.minOrderSize, t, rng);
    if (!o) return;
    const limit = Math.min(Math.max(o.limitTicks, band.lowerTicks), band.upperTicks);
    const placed = venue.placeNow(this.d.taker, { symbol: ins.symbol, side: o.side, qty: o.qty, price: ins.grid.toPrice(limit), tif: 'IOC', postOnly: false });
    stats.takerOrders++;
    if (o.informed) stats.informedOrders++;
    if (placed.filledQty <= 0) return;
    // Square-root impact in size, per median-size order: permanent on the shared underlying,
    // temporary on this book's makers.
    const scale = Math.sqrt(placed.filledQty / ins.minOrderSize / t.medianLots);
    const sign = o.side === 'buy' ? 1 : -1;
    const im = params.impact;
    if (im.permanentBps > 0) path.impactLog += (sign * im.permanentBps * scale) / 1e4;
    if (im.temporaryBps > 0) {
      this.#tempTicks = this.tempTicks(nowMs) + (sign * im.temporaryBps * scale * this.fairTicks(nowMs)) / 1e4;
      this.#tempAtMs = nowMs;
    }
  }

  #churn(): void {
    const { venue, ins, params, rng, makers, stats } = this.d;
    if (makers.length === 0) return;
    const m = makers[rng.int(0, makers.length - 1)]!;
    const side = rng.chance(0.5) ? 'buy' : 'sell';
    const mine = this.#working(m).filter((w) => w.side === side);
    if (mine.length === 0) return;
    mine.sort((a, b) => (side === 'buy' ? b.priceTicks - a.priceTicks : a.priceTicks - b.priceTicks));
    const k = rng.int(0, mine.length - 1);
    const w = mine[k]!;
    const shape = this.#shape ?? params.makers;
    venue.cancel(m, { oid: w.id });
    venue.placeNow(m, { symbol: ins.symbol, side, qty: levelQty(k, ins.minOrderSize, shape, rng), price: ins.grid.toPrice(w.priceTicks), tif: 'GTC', postOnly: false });
    stats.churns++;
  }
}
