import { Subject } from 'rxjs';
import { clockScheduler, Decimal, VirtualClock, asSymbol, type Symbol } from '../../src/core/index.ts';
import { TickGrid, instrumentCatalog, type BookUpdated, type Instrument, type MarketEvent, type Order, type TickerUpdated } from '../../src/domain/index.ts';
import {
  createEngine,
  DEFAULT_EXECUTION_CONFIG,
  DEFAULT_ORDER_MANAGER_CONFIG,
  DEFAULT_RISK_CONFIG,
  type AccountReader,
  type ConnectionState,
  type OperableEngine,
  type EngineDeps,
  type EngineEvent,
  type StrategyBinding,
} from '../../src/engine/index.ts';
import { FakeGateway } from '../support/fake-gateway.ts';
import type { Strategy, StrategyContext } from '../../src/strategy/contract.ts';
import type { DesiredQuotes } from '../../src/domain/index.ts';
import type { FundingPayment } from '../../src/domain/funding.ts';

export const EURUSD = asSymbol('EURUSD-PERP');
export const XAU = asSymbol('XAU-PERP');

/** A test instrument (tick 0.0001 unless given, multiplier 1). */
export function makeInstrument(symbol: Symbol, tick = '0.0001'): Instrument {
  return {
    symbol,
    product: symbol,
    kind: 'perpetual',
    category: 'fx',
    description: symbol,
    expirationMs: null,
    grid: new TickGrid(tick),
    multiplier: new Decimal(1),
    minOrderSize: 1,
    initialMarginPct: new Decimal(6),
    maintenanceMarginPct: new Decimal(3),
    bandLowerPct: new Decimal(10),
    bandUpperPct: new Decimal(10),
    fundingCapUpperPct: null,
    fundingCapLowerPct: null,
    fundingSchedule: null,
    fundingVariant: null,
    estimatedFundingSupported: false,
  };
}

/** A strategy whose next output the test sets. */
export class ScriptedStrategy implements Strategy {
  next: DesiredQuotes | null = null;
  throwWith: Error | null = null;
  calls = 0;
  lastCtx: { position: number; working: number } | null = null;
  quote(ctx: StrategyContext): DesiredQuotes | null {
    this.calls++;
    this.lastCtx = { position: ctx.position.qty, working: ctx.workingOrders.length };
    if (this.throwWith) throw this.throwWith;
    return this.next;
  }
}

/** A one-level-per-side ladder. */
export const quotes = (symbol: Symbol, bid: number | null, ask: number | null, qty = 1): DesiredQuotes => ({
  symbol,
  bids: bid === null ? [] : [{ priceTicks: bid, qty }],
  asks: ask === null ? [] : [{ priceTicks: ask, qty }],
});

/** A full book snapshot with one level a side. */
export const bookEv = (symbol: Symbol, bid: number, ask: number, t: number, qty = 10): BookUpdated => ({
  type: 'book',
  symbol,
  level: 2,
  isSnapshot: true,
  bids: [{ priceTicks: bid, qty }],
  asks: [{ priceTicks: ask, qty }],
  tsEvent: t,
  tsRecv: t,
});

/** A book of several levels a side (`[priceTicks, qty]` pairs, best first) at `t`. */
export const l2Book = (t: number, bids: [number, number][], asks: [number, number][], symbol: Symbol = EURUSD): BookUpdated => ({
  type: 'book',
  symbol,
  level: 2,
  isSnapshot: true,
  bids: bids.map(([priceTicks, qty]) => ({ priceTicks, qty })),
  asks: asks.map(([priceTicks, qty]) => ({ priceTicks, qty })),
  tsEvent: t,
  tsRecv: t,
});

/** A ticker with bands and state. */
export const tickerEv = (symbol: Symbol, t: number, over: Partial<TickerUpdated> = {}): TickerUpdated => ({
  type: 'ticker',
  symbol,
  lastTicks: null,
  lastQty: 0,
  markTicks: null,
  bestBidTicks: null,
  bestAskTicks: null,
  bandLowerTicks: null,
  bandUpperTicks: null,
  lastSettlementTicks: null,
  lastSettlementMs: null,
  state: 'OPEN',
  volume: 0,
  openInterest: 0,
  funding: null,
  tsEvent: t,
  tsRecv: t,
  ...over,
});

export interface Harness {
  readonly clock: VirtualClock;
  readonly gw: FakeGateway;
  readonly engine: OperableEngine;
  readonly market$: Subject<MarketEvent>;
  readonly resync$: Subject<readonly Order[]>;
  readonly connection$: Subject<ConnectionState>;
  /** The venue's funding transactions on our account (the daemon's funding poller). */
  readonly fundingPayments$: Subject<FundingPayment>;
  readonly events: EngineEvent[];
  /** Lets promise continuations run (no clock time passes). */
  settle(): Promise<void>;
  /** Advances the virtual clock in `stepMs` steps, settling promises between steps. */
  advance(ms: number, stepMs?: number): Promise<void>;
  of<T extends EngineEvent['type']>(type: T): Extract<EngineEvent, { type: T }>[];
}

/** Builds an engine over a FakeGateway on a VirtualClock; starts it and waits for start-up reconciliation. */
export async function harness(
  strategies: readonly StrategyBinding[],
  over: Partial<EngineDeps> = {},
  opts: { startMs?: number; accounts?: AccountReader | 'fake'; beforeStart?: (gw: FakeGateway) => void; instruments?: Instrument[] } = {},
): Promise<Harness> {
  const clock = new VirtualClock(opts.startMs ?? 1_700_000_000_000);
  const gw = new FakeGateway(clock);
  const instruments = instrumentCatalog(opts.instruments ?? [makeInstrument(EURUSD), makeInstrument(XAU, '0.1')]);
  const engine = createEngine({
    clock,
    scheduler: clockScheduler(clock),
    gateway: gw,
    instruments,
    strategies,
    risk: DEFAULT_RISK_CONFIG,
    execution: DEFAULT_EXECUTION_CONFIG,
    orderManager: { ...DEFAULT_ORDER_MANAGER_CONFIG, minOrderLifetimeMs: 0 },
    ...(opts.accounts ? { accounts: opts.accounts === 'fake' ? gw.accountReader() : opts.accounts } : {}),
    ...over,
  });
  const events: EngineEvent[] = [];
  engine.events$.subscribe((e) => events.push(e));
  const market$ = new Subject<MarketEvent>();
  const resync$ = new Subject<readonly Order[]>();
  const connection$ = new Subject<ConnectionState>();
  const fundingPayments$ = new Subject<FundingPayment>();
  opts.beforeStart?.(gw);
  const settle = async (): Promise<void> => {
    for (let i = 0; i < 5; i++) await new Promise<void>((r) => setImmediate(r));
  };
  engine.start({ market$, orders$: gw.events$, resync$, connection$, fundingPayments$ });
  await settle();
  return {
    clock,
    gw,
    engine,
    market$,
    resync$,
    connection$,
    fundingPayments$,
    events,
    settle,
    async advance(ms: number, stepMs = 10): Promise<void> {
      const end = clock.nowMs() + ms;
      while (clock.nowMs() < end) {
        clock.advanceTo(Math.min(end, clock.nowMs() + stepMs));
        await settle();
      }
    },
    of: <T extends EngineEvent['type']>(type: T) => events.filter((e): e is Extract<EngineEvent, { type: T }> => e.type === type),
  };
}

/**
 * Two scripted strategies quoting one level each side, `a` on EURUSD (11000/11010 around a
 * 11004/11006 book) and `b` on XAU (20000/20010 around 20004/20006), settled: 4 orders out.
 */
export async function twoStrategies(): Promise<{ a: ScriptedStrategy; b: ScriptedStrategy; h: Harness }> {
  const a = new ScriptedStrategy();
  const b = new ScriptedStrategy();
  const h = await harness([
    { id: 'a', symbol: EURUSD, strategy: a },
    { id: 'b', symbol: XAU, strategy: b },
  ]);
  a.next = quotes(EURUSD, 11000, 11010);
  b.next = quotes(XAU, 20000, 20010);
  h.market$.next(bookEv(EURUSD, 11004, 11006, h.clock.nowMs()));
  h.market$.next(bookEv(XAU, 20004, 20006, h.clock.nowMs()));
  await h.settle();
  return { a, b, h };
}
