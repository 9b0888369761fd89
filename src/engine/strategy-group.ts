import type { Subscription } from 'rxjs';
import { MmError } from '../core/errors.ts';
import type { Symbol } from '../core/ids.ts';
import type { OwnFill, Strategy, StrategyContext, SymbolView, WorkingOrder } from '../strategy/contract.ts';
import type { FillEvent } from './events.ts';
import type { MutableContext } from './mutable-context.ts';
import type { StrategyBinding } from './types.ts';
import type { OwnRestingOrder } from '../domain/others-book.ts';

/** Where the working orders of a symbol come from (the engine's order store). */
export interface WorkingOrders {
  view(symbol: Symbol): readonly WorkingOrder[];
  /** Where the venue's book may still show orders of ours that have left (OrderStore.keepGhosts). */
  ghosts?(symbol: Symbol): readonly OwnRestingOrder[];
}

const NO_FILLS: readonly OwnFill[] = Object.freeze([]);
/** Fills kept for a strategy that is not being called (not ready, isolated): oldest dropped beyond this. */
const MAX_PENDING_FILLS = 10_000;

/**
 * The symbols a binding declares, primary first.
 * @throws MmError CONFIG_INVALID when `symbols` is empty, does not start with `symbol`, or repeats one.
 */
export function declaredSymbols(b: StrategyBinding): readonly Symbol[] {
  const xs = b.symbols;
  if (xs === undefined) return [b.symbol];
  if (xs.length === 0 || xs[0] !== b.symbol)
    throw new MmError('CONFIG_INVALID', `strategy ${b.id}: symbols must list the primary symbol ${b.symbol} first, got [${xs.join(', ')}]`, { strategy: b.id, symbols: xs });
  const seen = new Set<Symbol>();
  for (const x of xs) {
    if (seen.has(x)) throw new MmError('CONFIG_INVALID', `strategy ${b.id}: symbol ${x} is listed twice in symbols`, { strategy: b.id, symbol: x });
    seen.add(x);
  }
  return xs;
}

/** What a group needs of a symbol's slot (structural: the slot module imports this one). */
export interface GroupSlot {
  readonly symbol: Symbol;
  readonly ctx: MutableContext;
  group: unknown;
  refresh(nowMs: number, working: readonly WorkingOrder[], ghosts?: readonly OwnRestingOrder[]): unknown;
  inputsUnchanged(working: readonly WorkingOrder[]): boolean;
}

/**
 * One strategy instance and the symbols it declares (primary first): the unit the engine evaluates.
 * A single-symbol strategy is a group of one. Holds what is per strategy rather than per symbol:
 * our fills since its previous call and its wake-up timer.
 */
export class StrategyGroup<S extends GroupSlot = GroupSlot> {
  readonly symbols: readonly Symbol[];
  /** Our fills on any of the symbols since the previous call, oldest first. */
  #fills: OwnFill[] = [];
  /** The wake-up time armed by the latest plan (epoch ms), null when none. */
  wakeAtMs: number | null = null;
  wakeTimer: Subscription | null = null;
  /** Set when the strategy threw: it is not called again. */
  failed: string | null = null;
  /** After the last call, the strategy's `stableUntilMs()` (−Infinity when it has none). */
  stableUntilMs = -Infinity;

  constructor(
    readonly id: string,
    /** Replaced (not mutated) when the operator changes the strategy's parameters. */
    public strategy: Strategy,
    /** The slots of the declared symbols, primary first. */
    readonly slots: readonly S[],
  ) {
    this.symbols = Object.freeze(slots.map((s) => s.symbol));
    const primary = slots[0]!;
    const bySymbol = new Map<Symbol, SymbolView>(slots.map((s) => [s.symbol, s.ctx]));
    const view =
      slots.length === 1
        ? (s: Symbol): SymbolView => {
            if (s === primary.symbol) return primary.ctx;
            throw new MmError('INVARIANT_BROKEN', `strategy ${id} asked for ${s}, which it does not declare`, { strategy: id, symbol: s });
          }
        : (s: Symbol): SymbolView => {
            const v = bySymbol.get(s);
            if (v) return v;
            throw new MmError('INVARIANT_BROKEN', `strategy ${id} asked for ${s}, which it does not declare (it declares ${this.symbols.join(', ')})`, { strategy: id, symbol: s });
          };
    for (const s of slots) {
      s.group = this;
      s.ctx.symbols = this.symbols;
      s.ctx.view = view;
    }
  }

  /** The primary symbol's slot (whose context the strategy gets). */
  get primary(): S {
    return this.slots[0]!;
  }

  /** Cancels the wake-up timer. */
  disarm(): void {
    this.wakeTimer?.unsubscribe();
    this.wakeTimer = null;
    this.wakeAtMs = null;
  }

  /**
   * True when calling the strategy at `nowMs` cannot change anything: before the time its last call
   * said it is stable until, no fill since, and every symbol's inputs as that call saw them.
   */
  quietAt(nowMs: number, orders: WorkingOrders): boolean {
    if (!(nowMs < this.stableUntilMs) || this.#fills.length > 0) return false;
    const slots = this.slots;
    for (let i = 0; i < slots.length; i++) if (!slots[i]!.inputsUnchanged(orders.view(slots[i]!.symbol))) return false;
    return true;
  }

  /** Records one of our fills (booked by the engine's accounting) for the next call. */
  addFill(ev: FillEvent): void {
    if (this.#fills.length >= MAX_PENDING_FILLS) this.#fills.splice(0, this.#fills.length - MAX_PENDING_FILLS / 2);
    this.#fills.push({ symbol: ev.symbol, side: ev.side, priceTicks: ev.priceTicks, qty: ev.qty, liquidity: ev.liquidity, tsMs: ev.tsMs, clientOrderId: ev.clientOrderId });
  }

  /** Refreshes every declared symbol's view and returns the primary context for a call at `nowMs`. */
  refresh(nowMs: number, orders: WorkingOrders): StrategyContext {
    const slots = this.slots;
    for (let i = 1; i < slots.length; i++) slots[i]!.refresh(nowMs, orders.view(slots[i]!.symbol), orders.ghosts?.(slots[i]!.symbol));
    const primary = slots[0]!;
    primary.refresh(nowMs, orders.view(primary.symbol), orders.ghosts?.(primary.symbol));
    const ctx = primary.ctx;
    if (this.#fills.length === 0) ctx.fills = NO_FILLS;
    else {
      ctx.fills = this.#fills;
      this.#fills = [];
    }
    return ctx;
  }
}
