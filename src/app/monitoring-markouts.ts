/**
 * Live fill markouts: the engine's fills and the market-data client's books feed one
 * `MarkoutTracker` per symbol (the same tracker the backtest report uses); each markout that
 * matures is observed in `mmbot_fill_markout_bps{symbol,horizon}` and the rolling mean of recent
 * ones set in `mmbot_fill_markout_recent_mean_bps`. startMonitoring (monitoring.ts) wires it.
 */
import type { Observable, Subscription } from 'rxjs';
import type { BookUpdated } from '../domain/events.ts';
import type { EngineEvent } from '../engine/index.ts';
import type { BotMetrics } from '../obs/metrics.ts';
import { MarkoutTracker } from '../strategy/estimators/index.ts';

/** The live horizons and their metric label values. */
export const LIVE_MARKOUT_HORIZONS: readonly { readonly label: string; readonly ms: number }[] = [
  { label: '1s', ms: 1_000 },
  { label: '10s', ms: 10_000 },
  { label: '60s', ms: 60_000 },
];

/** What `startMarkoutMonitoring` reads. */
export interface MarkoutMonitoringDeps {
  readonly books$: Observable<BookUpdated>;
  readonly events$: Observable<EngineEvent>;
  readonly metrics: Pick<BotMetrics, 'fillMarkout' | 'fillMarkoutRecent'>;
  /** Markouts in the rolling mean (default 50). */
  readonly recentWindow?: number;
}

/** Running markout monitoring. */
export interface MarkoutMonitoring {
  /** Matures markouts due before `nowMs` on the last mid (call before a scrape: a quiet book sends no updates). */
  advance(nowMs: number): void;
  /** The tracker of a symbol (undefined before its first book or fill). */
  tracker(symbol: string): MarkoutTracker | undefined;
  stop(): void;
}

const midOf = (b: BookUpdated): number => {
  const bid = b.bids[0];
  const ask = b.asks[0];
  return bid && ask ? (bid.priceTicks + ask.priceTicks) / 2 : NaN;
};

/**
 * Follows books (mid at each book's receive time) and the engine's fills (at the engine's fill
 * time, with the last mid as the reference: books and fills come on separate streams, so the
 * reference is the book we held when the fill was booked, a few ms after the match); fills
 * recovered from REST after a disconnect are skipped: the mid at their time is unknown.
 */
export function startMarkoutMonitoring(deps: MarkoutMonitoringDeps): MarkoutMonitoring {
  const trackers = new Map<string, MarkoutTracker>();
  const get = (symbol: string): MarkoutTracker => {
    let t = trackers.get(symbol);
    if (!t) {
      const tr = new MarkoutTracker({
        horizonsMs: LIVE_MARKOUT_HORIZONS.map((h) => h.ms),
        recentWindow: deps.recentWindow ?? 50,
        onMarkout: (m) => {
          const label = LIVE_MARKOUT_HORIZONS[m.horizonIdx]!.label;
          deps.metrics.fillMarkout(symbol, label, m.bps);
          deps.metrics.fillMarkoutRecent(symbol, label, tr.recentMeanBps(m.horizonIdx));
        },
      });
      trackers.set(symbol, tr);
      t = tr;
    }
    return t;
  };
  const subs: Subscription[] = [
    deps.books$.subscribe((b) => get(b.symbol).updateMid(b.tsRecv, midOf(b))),
    deps.events$.subscribe((e) => {
      if (e.type === 'fill' && !e.recovered) get(e.symbol).fill(e.tsMs, e.side, e.priceTicks, e.qty * e.priceTicks);
    }),
  ];
  return {
    advance(nowMs) {
      for (const t of trackers.values()) t.advance(nowMs);
    },
    tracker: (symbol) => trackers.get(symbol),
    stop() {
      subs.forEach((s) => s.unsubscribe());
    },
  };
}
