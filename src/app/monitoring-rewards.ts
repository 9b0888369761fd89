import { Subject, type Observable, type Subscription } from 'rxjs';
import type { Clock } from '../core/clock.ts';
import { Decimal } from '../core/decimal.ts';
import type { Symbol } from '../core/ids.ts';
import type { OrderEvent } from '../domain/events.ts';
import type { InstrumentCatalog } from '../domain/instrument.ts';
import type { Engine, RewardUpdate } from '../engine/index.ts';
import type { RewardMetrics } from '../obs/reward-metrics.ts';
import { impliedPoolUsd } from '../rewards/ledger.ts';
import { OwnOrderTimeline } from '../rewards/own-orders.ts';
import { RewardScoreEstimator, type OwnOrderInput } from '../rewards/score-estimator.ts';
import type { RewardTracker, RewardTrackerState } from '../rewards/tracker.ts';
import { statusLabel } from '../rewards/types.ts';

const MINUTE_MS = 60_000;

/** What the reward side of monitoring needs. */
export interface RewardMonitoringDeps {
  readonly engine: Pick<Engine, 'events$' | 'snapshot'>;
  readonly tracker: RewardTracker | null;
  readonly estimator: RewardScoreEstimator;
  readonly metrics: RewardMetrics;
  readonly instruments: InstrumentCatalog | null;
  readonly symbols: readonly string[];
  /**
   * How long after each venue minute to sample it (venue ms, default 1000): the estimator then
   * scores the book as of the minute from its history, with frames up to the minute delivered.
   */
  readonly sampleLagMs?: number;
  /** Venue time: minute samples and epochs follow the venue's clock (scaled in fast demos). */
  readonly venueClock: Clock;
  /** Our order events from the venue: `createdMs` there is the venue's own rest-time origin. */
  readonly orderEvents$?: Observable<OrderEvent>;
  /** The engine's clock (our orders' `createdMs` are on it). */
  readonly engineClock: Clock;
  /** Learn the epoch length from the venue's accruals (when the model config does not fix it). */
  readonly learnEpoch: boolean;
  readonly onError: (msg: string, err: unknown) => void;
}

/** The running reward monitor. */
export interface RewardMonitoring {
  /** Reward updates for the engine's `EngineInputs.rewards$` (strategy RewardView + accrued PnL). */
  readonly rewards$: Observable<RewardUpdate>;
  /** Samples every symbol now (tests; the timer does it at each venue minute). */
  sampleNow(): void;
  stop(): void;
}

/**
 * Feeds the reward metrics and the engine from the tracker (venue ledger) and the estimator (our
 * local score each venue minute), and publishes the estimate-vs-venue share gap per symbol.
 */
export function startRewardMonitoring(d: RewardMonitoringDeps): RewardMonitoring {
  const rewards$ = new Subject<RewardUpdate>();
  const subs: Subscription[] = [];
  // When each of our orders started resting, on the venue clock (rest time is judged in venue time).
  const restingSince = new Map<string, number>();
  let stopped = false;
  let cancelTimer: (() => void) | null = null;
  let pools = new Map<string, Decimal>();
  // Rewards enter PnL from the epochs this run took part in (ending after start), like trading PnL.
  const startedVenueMs = d.venueClock.nowMs();

  // Our orders over time from the venue's order events (exact rest origins, as-of lookups).
  const timeline = new OwnOrderTimeline();
  if (d.orderEvents$) subs.push(d.orderEvents$.subscribe((e) => timeline.apply(e)));
  // Fallback for orders the timeline never saw (placed before we started): when the engine saw
  // the request accepted, on the venue clock.
  subs.push(
    d.engine.events$.subscribe((e) => {
      if (e.type === 'intent-result' && e.ok && (e.kind === 'place' || e.kind === 'replace') && e.clientOrderId) restingSince.set(e.clientOrderId, d.venueClock.nowMs());
    }),
  );

  const sampleAt = (atMs: number): void => {
    const snap = d.engine.snapshot();
    const venueNow = atMs;
    const engineNow = d.engineClock.nowMs();
    const live = new Set<string>();
    for (const symbol of d.symbols) {
      const inst = d.instruments?.get(symbol);
      if (!inst) continue;
      const s = snap.symbols.find((x) => x.symbol === symbol);
      const own: OwnOrderInput[] = [];
      own.push(...timeline.at(symbol, atMs));
      for (const w of s?.working ?? []) {
        live.add(w.clientOrderId);
        // Only orders the venue has acknowledged rest in its book; the timeline covers those it saw.
        if (w.status !== 'open' && w.status !== 'pending-cancel' && w.status !== 'pending-replace') continue;
        if (w.orderId !== null && timeline.knows(w.orderId)) continue;
        const since = restingSince.get(w.clientOrderId) ?? venueNow - Math.max(0, engineNow - w.createdMs);
        own.push({ id: w.clientOrderId, side: w.side, priceTicks: w.priceTicks, qty: w.qty, restingSinceMs: since });
      }
      const est = d.estimator.sample(
        symbol,
        {
          ownOrders: own,
          priceOf: (t) => inst.grid.toDecimal(t).toNumber(),
          multiplier: inst.multiplier.toNumber(),
          open: s?.instrumentState === undefined || s.instrumentState === null || s.instrumentState === 'OPEN',
        },
        venueNow,
      );
      const epochShare = d.estimator.epochShare(symbol, est.epochStartMs) ?? 0;
      const pool = pools.get(symbol);
      d.metrics.estimate(symbol, { minuteShare: est.share, epochShare, scoreUsd: est.score, expectedUsd: pool ? pool.mul(epochShare).toNumber() : null });
      rewards$.next({
        symbol: symbol as Symbol,
        view: { estimatedShare: est.share, maxSpreadBps: d.estimator.params.maxSpreadBps, minNotionalUsd: d.estimator.params.minNotionalUsd },
      });
    }
    for (const cid of restingSince.keys()) if (!live.has(cid)) restingSince.delete(cid);
    timeline.prune(atMs);
  };

  // Timers may fire a little early (a scaled venue clock magnifies setTimeout's 1 ms slack), so
  // the next boundary is taken from the nearest minute, not the current one: one sample a minute.
  const lagMs = d.sampleLagMs ?? 1_000;
  const arm = (): void => {
    if (stopped) return;
    const now = d.venueClock.nowMs() - lagMs;
    const minute = (Math.floor((now + MINUTE_MS / 2) / MINUTE_MS) + 1) * MINUTE_MS;
    cancelTimer = d.venueClock.setTimer(minute + lagMs - d.venueClock.nowMs(), () => {
      try {
        sampleAt(minute);
      } catch (e) {
        d.onError('reward score sample failed', e);
      }
      arm();
    });
  };
  const sampleNow = (): void => sampleAt(d.venueClock.nowMs());
  arm();

  if (d.tracker) {
    subs.push(
      d.tracker.state$.subscribe((st) => {
        if (!st) return;
        try {
          pools = applyLedger(d, st, rewards$, startedVenueMs);
        } catch (e) {
          d.onError('reward ledger update failed', e);
        }
      }),
    );
  }

  return {
    rewards$: rewards$.asObservable(),
    sampleNow,
    stop() {
      stopped = true;
      cancelTimer?.();
      subs.forEach((s) => s.unsubscribe());
      rewards$.complete();
    },
  };
}

/** Copies one tracker state into metrics and engine updates; returns the implied pool per symbol. */
function applyLedger(d: RewardMonitoringDeps, st: RewardTrackerState, out: Subject<RewardUpdate>, sinceMs: number): Map<string, Decimal> {
  const accruals = st.ledger.accruals;
  d.metrics.totals(st.bySymbol.map((r) => ({ symbol: r.symbol, status: r.status, usd: r.finalUsd.toNumber() })));
  const s = st.ledger.summary;
  d.metrics.summary({
    accruedTodayUsd: s.accruedTodayUsd.toNumber(),
    awaitingApprovalUsd: s.awaitingApprovalUsd.toNumber(),
    paidThisMonthUsd: s.paidThisMonthUsd.toNumber(),
    retainedUsd: s.retainedUsd.toNumber(),
  });
  const latest = [...st.latestShare.values()][0];
  if (d.learnEpoch && latest && latest.epochEndMs > latest.epochStartMs && d.estimator.epochMs !== latest.epochEndMs - latest.epochStartMs) {
    d.estimator.setEpoch(latest.epochEndMs - latest.epochStartMs, latest.epochStartMs % (latest.epochEndMs - latest.epochStartMs));
  }
  const pools = new Map<string, Decimal>();
  for (const [symbol, l] of st.latestShare) {
    d.metrics.venueShare(symbol, l.share);
    const est = d.estimator.epochShare(symbol, l.epochStartMs);
    if (est !== null) d.metrics.shareGap(symbol, est - l.share);
    const pool = impliedPoolUsd(accruals, symbol);
    if (pool) pools.set(symbol, pool);
  }
  const earned = new Map<string, Decimal>();
  for (const a of accruals) {
    if (statusLabel(a.status) === 'retained' || a.epochEndMs <= sinceMs) continue;
    earned.set(a.symbol, (earned.get(a.symbol) ?? new Decimal(0)).plus(a.finalUsd));
  }
  for (const symbol of d.symbols) out.next({ symbol: symbol as Symbol, accruedUsd: earned.get(symbol) ?? new Decimal(0) });
  return pools;
}
