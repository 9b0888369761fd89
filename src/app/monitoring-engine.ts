/**
 * The engine side of monitoring: its snapshot and events, and the clients' frame counters, turned
 * into metric updates and readiness facts. Pure translation; startMonitoring (monitoring.ts) wires it.
 */
import { notional, type InstrumentCatalog } from '../domain/instrument.ts';
import type { EngineEvent, EngineSnapshot, WorkingOrderView } from '../engine/index.ts';
import type { BotMetrics, OrderOp, PnlComponent, StreamName } from '../obs/metrics.ts';
import type { ReadinessTracker } from '../obs/readiness.ts';

/** An order the venue acknowledged and still holds (a cancel or replace may be on its way). */
export const isResting = (w: WorkingOrderView): boolean =>
  w.orderId !== null && (w.status === 'open' || w.status === 'pending-replace' || w.status === 'pending-cancel');

const OP: Record<string, OrderOp> = { place: 'place', replace: 'replace', cancel: 'cancel', 'cancel-all': 'cancel_all' };

/**
 * A symbol should have working orders: the engine runs and is not halted, the symbol is ACTIVE and
 * its strategy (not isolated) wants quotes after the risk gate. REDUCING symbols are left out (a flat
 * position quotes nothing there, legitimately).
 */
export function quoteExpected(snap: EngineSnapshot, s: EngineSnapshot['symbols'][number]): boolean {
  if (!snap.running || snap.killSwitch.tripped || snap.tradingState !== 'ACTIVE') return false;
  if (s.tradingState !== 'ACTIVE' || s.strategyError !== null || s.desired === null) return false;
  return s.desired.bids.length + s.desired.asks.length > 0;
}

/** Copies an engine snapshot into the gauges (kill switch, execution queue, positions, working orders, PnL) and readiness. */
export function snapshotToMetrics(snap: EngineSnapshot, metrics: BotMetrics, readiness: ReadinessTracker, catalog: InstrumentCatalog | null): void {
  metrics.killSwitch(snap.killSwitch.tripped);
  readiness.halted(snap.killSwitch.tripped ? `kill switch (${snap.killSwitch.reason ?? 'unknown'})` : snap.tradingState === 'HALTED' ? 'trading state HALTED' : null);
  metrics.orderBudget('minute', snap.orderBudget.lastMinute, snap.orderBudget.perMinute);
  metrics.orderBudget('day', snap.orderBudget.today, snap.orderBudget.perDay);
  metrics.execution(snap.execution.queued, snap.execution.inFlight, snap.execution.slowedDown);
  for (const b of snap.execution.budgets) metrics.rateLimiterBudget(b.name, b.available, b.capacity, b.ratePerSec);
  for (const s of snap.symbols) {
    const inst = catalog?.get(s.symbol);
    const mark = s.position.markTicks;
    metrics.position(s.symbol, s.position.qty, inst && mark !== null ? notional(inst, mark, Math.abs(s.position.qty)).toNumber() : 0);
    metrics.positionLimit(s.symbol, s.maxPosition);
    metrics.quoteExpected(s.symbol, quoteExpected(snap, s));
    metrics.marketDataSuspect(s.symbol, s.marketDataSuspect);
    // Only what the venue holds: queued, unacknowledged and unresolved orders have their own gauge.
    const resting = s.working.filter(isResting);
    metrics.openOrders(s.symbol, 'buy', resting.filter((w) => w.side === 'buy').length);
    metrics.openOrders(s.symbol, 'sell', resting.filter((w) => w.side === 'sell').length);
    metrics.pendingOrders(s.symbol, 'queued', s.working.filter((w) => w.status === 'queued').length);
    metrics.pendingOrders(s.symbol, 'in_flight', s.working.filter((w) => w.status === 'pending-new').length);
    metrics.pendingOrders(s.symbol, 'unknown', s.working.filter((w) => w.status === 'unknown').length);
    const p = s.pnl;
    const parts: [PnlComponent, number][] = [
      ['spread_capture', p.spreadCapture.toNumber()],
      ['inventory', p.inventory.toNumber()],
      ['fees', p.fees.toNumber()],
      ['funding', p.funding.toNumber()],
      ['rewards', p.rewards.toNumber()],
      ['total', p.total.toNumber()],
    ];
    for (const [c, v] of parts) metrics.pnl(s.symbol, c, v);
  }
}

/** Turns a client's running frame counters into metric increments since the previous call. */
export function frameDeltas(stream: StreamName, metrics: BotMetrics): (framesIn: number, bad: number) => void {
  let seen = 0;
  let seenBad = 0;
  return (framesIn, bad) => {
    metrics.frames(stream, framesIn - seen);
    for (let i = seenBad; i < bad; i++) metrics.decodeError(stream);
    seen = framesIn;
    seenBad = bad;
  };
}

/** Counts one engine event (intents, round trips, rejects, throttling, kill switch, fills, latency samples). */
export function engineEventToMetrics(e: EngineEvent, metrics: BotMetrics, readiness: ReadinessTracker): void {
  switch (e.type) {
    case 'intent-sent':
      metrics.intent(OP[e.kind] ?? e.kind, e.symbol ?? 'all');
      return;
    case 'intent-result':
      metrics.orderRoundTrip(OP[e.kind] ?? 'place', e.latencyMs / 1000);
      return;
    case 'reject':
      metrics.reject(e.reason, e.source);
      return;
    case 'throttled':
      metrics.throttled();
      return;
    case 'backoff':
      metrics.venueBackoff(e.code);
      return;
    case 'position-mismatch':
      metrics.positionMismatch(e.symbol);
      return;
    case 'unknown-fill':
      metrics.unknownFill(e.kind);
      return;
    case 'kill-switch-tripped':
      metrics.killSwitchTrip(e.reason);
      metrics.killSwitch(true);
      readiness.halted(`kill switch (${e.reason})`);
      return;
    case 'kill-switch-cleared':
      metrics.killSwitch(false);
      readiness.halted(null);
      return;
    case 'reconciled':
      readiness.reconciled(true);
      return;
    case 'tick-to-intent':
      metrics.tickToIntent(e.us / 1e6);
      return;
    case 'fill':
      metrics.fill(e.symbol, e.liquidity, e.qty);
      return;
    case 'market-data-suspect':
      metrics.marketDataSuspect(e.symbol, e.kind);
      if (e.kind !== null) metrics.marketDataSuspectEpisode(e.symbol, e.kind);
      return;
    default:
      return;
  }
}
