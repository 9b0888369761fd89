import type { Subscription, Observable } from 'rxjs';
import type { EngineEvent, EngineSnapshot } from '../../engine/index.ts';
import type { InstrumentCatalog } from '../../domain/instrument.ts';

/** One point of a symbol's chart: position (contracts) and total PnL (USD) at a time. */
export interface HistoryPoint {
  readonly tsMs: number;
  readonly position: number;
  readonly pnlUsd: number;
}

/** One of our fills as the console shows it. */
export interface ConsoleFill {
  readonly tsMs: number;
  readonly symbol: string;
  readonly side: 'buy' | 'sell';
  readonly price: string;
  readonly qty: number;
  readonly liquidity: 'maker' | 'taker';
  readonly feeUsd: string;
  readonly position: number;
}

/** Something the operator should see: kill switch, strategy errors, risk/venue rejects, state changes, actions. */
export interface ConsoleAlert {
  readonly tsMs: number;
  readonly level: 'info' | 'warn' | 'error';
  readonly text: string;
}

const MAX_FILLS = 100;
const MAX_ALERTS = 100;
/** Points per symbol series at most: one per `historyMs / MAX_SERIES_POINTS` bucket (3 s for an hour). */
export const MAX_SERIES_POINTS = 1_200;

/**
 * What the console remembers beyond the engine snapshot: per symbol a position/PnL series over the
 * last `historyMs` (a point per `sample` call and per fill, the latest per time bucket, so a busy
 * bot's series stays at most MAX_SERIES_POINTS long), the last fills and alerts.
 */
export class ConsoleHistory {
  readonly #series = new Map<string, HistoryPoint[]>();
  readonly fills: ConsoleFill[] = [];
  readonly alerts: ConsoleAlert[] = [];
  #sub: Subscription | null = null;
  /** Bumped on every change the page should see at once (fills, alerts). */
  version = 0;

  constructor(
    readonly historyMs: number,
    private readonly catalog: InstrumentCatalog,
  ) {}

  /** Follows the engine's events (fills, alerts). */
  watch(events$: Observable<EngineEvent>, onChange: () => void): void {
    this.#sub = events$.subscribe((e) => {
      if (this.#onEvent(e)) {
        this.version++;
        onChange();
      }
    });
  }

  /** Adds a point per symbol from a snapshot (and drops points older than the window). */
  sample(snap: EngineSnapshot): void {
    for (const s of snap.symbols) this.#push(s.symbol, { tsMs: snap.nowMs, position: s.position.qty, pnlUsd: s.pnl.total.toNumber() });
  }

  /** The series of every symbol. */
  series(): Record<string, readonly HistoryPoint[]> {
    return Object.fromEntries(this.#series);
  }

  /** Records an operator action or another alert. */
  alert(level: ConsoleAlert['level'], text: string, tsMs: number): void {
    this.alerts.push({ tsMs, level, text });
    if (this.alerts.length > MAX_ALERTS) this.alerts.shift();
    this.version++;
  }

  stop(): void {
    this.#sub?.unsubscribe();
  }

  #push(symbol: string, p: HistoryPoint): void {
    let xs = this.#series.get(symbol);
    if (!xs) this.#series.set(symbol, (xs = []));
    const bucketMs = Math.max(1, Math.floor(this.historyMs / MAX_SERIES_POINTS));
    const last = xs.at(-1);
    // The latest point of a bucket replaces the previous one: a fill per millisecond costs one point per bucket.
    if (last && Math.floor(last.tsMs / bucketMs) === Math.floor(p.tsMs / bucketMs) && p.tsMs >= last.tsMs) xs[xs.length - 1] = p;
    else xs.push(p);
    const cutoff = p.tsMs - this.historyMs;
    let drop = 0;
    while (drop < xs.length && xs[drop]!.tsMs < cutoff) drop++;
    if (drop > 0) xs.splice(0, drop);
  }

  #onEvent(e: EngineEvent): boolean {
    switch (e.type) {
      case 'fill': {
        const grid = this.catalog.get(e.symbol)?.grid;
        this.fills.push({
          tsMs: e.tsMs,
          symbol: e.symbol,
          side: e.side,
          price: grid ? grid.toPrice(e.priceTicks) : String(e.priceTicks),
          qty: e.qty,
          liquidity: e.liquidity,
          feeUsd: e.fee.toFixed(4),
          position: e.position,
        });
        if (this.fills.length > MAX_FILLS) this.fills.shift();
        return true;
      }
      case 'kill-switch-tripped':
        this.alert('error', `kill switch tripped: ${e.reason} ${e.detail}`, e.tsMs);
        return true;
      case 'kill-switch-cleared':
        this.alert('info', `kill switch cleared (${e.reason})`, e.tsMs);
        return true;
      case 'strategy-error':
        this.alert('error', `strategy ${e.strategyId} threw: ${e.message} (isolated, quotes pulled)`, e.tsMs);
        return true;
      case 'trading-state-changed':
        this.alert(e.to === 'ACTIVE' ? 'info' : 'warn', `${e.symbol ?? 'engine'}: ${e.from} -> ${e.to}${e.reason ? ` (${e.reason})` : ''}`, e.tsMs);
        return true;
      case 'reject':
        if (e.benign) return false;
        this.alert('warn', `${e.source} reject of ${e.kind} on ${e.symbol ?? '-'}: ${e.reason}${e.text ? ` (${e.text})` : ''}`, e.tsMs);
        return true;
      default:
        return false;
    }
  }
}
