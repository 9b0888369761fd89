/**
 * What a backtest report must never leave out: when and why the kill switch stopped the bot (and
 * how much of the window it was paused), what was rejected and why, which live limits the replay
 * applied, and where the data came from (synthetic or real, which vendor, which fee rates).
 */
import type { KillSwitchEpisode } from '../engine/types.ts';
import type { RecordingHeader } from '../record/format.ts';
import type { RiskConfig } from '../risk/config.ts';

/** One kill-switch trip as report.json spells it. */
export interface KillSwitchTripReport {
  readonly at_ms: number;
  readonly reason: string;
  readonly detail: string;
  /** What the trip did: pause (quotes pulled), stop (the daemon would exit) or manual. */
  readonly action: string;
  /** When it cleared; null when it was still tripped at the end of the window. */
  readonly cleared_at_ms: number | null;
  readonly cleared_by: string | null;
}

/** The kill switch over the run: every trip and the share of the window spent tripped. */
export interface KillSwitchReport {
  readonly trips: readonly KillSwitchTripReport[];
  /** Seconds of the window spent tripped (no quotes). */
  readonly paused_s: number;
  /** paused_s over the window's length, 0..1. */
  readonly paused_share: number;
}

/** The kill switch's episodes clipped to the window [startMs, endMs]. */
export function killSwitchReport(episodes: readonly KillSwitchEpisode[], startMs: number, endMs: number): KillSwitchReport {
  let pausedMs = 0;
  for (const e of episodes) pausedMs += Math.max(0, Math.min(e.clearedAtMs ?? endMs, endMs) - Math.max(e.trippedAtMs, startMs));
  const windowMs = Math.max(1, endMs - startMs);
  return {
    trips: episodes.map((e) => ({ at_ms: e.trippedAtMs, reason: e.reason, detail: e.detail, action: e.action, cleared_at_ms: e.clearedAtMs, cleared_by: e.clearedBy })),
    paused_s: Math.round(pausedMs) / 1000,
    paused_share: Math.round((pausedMs / windowMs) * 1e6) / 1e6,
  };
}

/** Where one recording's data came from. */
export interface DataProvenance {
  readonly source: string;
  /** `synthetic`: the local venue's simulated market; `real`: a venue's or vendor's data; `unknown`. */
  readonly kind: 'synthetic' | 'real' | 'unknown';
  /** Who produced it: lobster, tardis, databento, the local venue, a live venue's URL. */
  readonly origin: string;
  readonly symbols: readonly string[];
  /** Book detail: 2 (levels) or 3 (order by order). */
  readonly book_level: number;
}

const VENDORS = ['lobster', 'tardis', 'databento'];

/**
 * Classifies a recording by its header's `source`: imports name their vendor (`lobster:<file>`),
 * the local venue names itself (`local-venue ...`), a daemon's recording names the venue's URL
 * (loopback is a local venue, hence synthetic).
 */
export function dataProvenance(h: RecordingHeader): DataProvenance {
  const src = h.source;
  const vendor = VENDORS.find((v) => src.startsWith(`${v}:`));
  let kind: DataProvenance['kind'] = 'unknown';
  let origin = src;
  if (vendor !== undefined) {
    kind = 'real';
    origin = vendor;
  } else if (src.startsWith('local-venue')) {
    kind = 'synthetic';
    origin = 'local venue (simulated market)';
  } else if (/^(https?|wss?):\/\//.test(src)) {
    const loopback = /^[a-z]+:\/\/(127\.|localhost|\[::1\])/.test(src);
    kind = loopback ? 'synthetic' : 'real';
    origin = loopback ? `local venue at ${src}` : `venue at ${src}`;
  }
  return { source: src, kind, origin, symbols: h.symbols, book_level: h.book_level ?? 2 };
}

/** The live limits a replay enforced, as report.json spells them (0 = that trigger is off). */
export interface LimitsReport {
  readonly max_position: number;
  readonly max_order_qty: number;
  readonly max_order_notional_usd: number;
  readonly max_open_orders: number;
  readonly per_symbol: Readonly<Record<string, unknown>>;
  readonly kill_switch: {
    readonly max_drawdown_usd: number;
    readonly max_daily_loss_usd: number;
    readonly reject_storm: string;
    readonly max_orders_per_minute: number;
    readonly max_orders_per_day: number;
    readonly stale_market_data_ms: number;
  };
}

/** The risk config's limits in report form. */
export function limitsReport(r: RiskConfig): LimitsReport {
  const k = r.killSwitch;
  return {
    max_position: r.defaults.maxPosition,
    max_order_qty: r.defaults.maxOrderQty,
    max_order_notional_usd: r.defaults.maxOrderNotionalUsd,
    max_open_orders: r.defaults.maxOpenOrders,
    per_symbol: r.perSymbol,
    kill_switch: {
      max_drawdown_usd: k.maxDrawdownUsd,
      max_daily_loss_usd: k.maxDailyLossUsd,
      reject_storm: k.rejectStormCount > 0 ? `${k.rejectStormCount} in ${k.rejectStormWindowMs} ms` : 'off',
      max_orders_per_minute: k.maxOrdersPerMinute,
      max_orders_per_day: k.maxOrdersPerDay,
      stale_market_data_ms: k.staleMarketDataMs,
    },
  };
}

/** The parts of a report the lines below read. */
export interface StopFacts {
  readonly window: { readonly start_ms: number };
  readonly data: readonly DataProvenance[];
  readonly limits: LimitsReport;
  readonly fees: Readonly<Record<string, { source: string }>>;
  readonly engine: { readonly kill_switch: KillSwitchReport; readonly rejects_by_reason: Readonly<Record<string, number>> };
}

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);
/** A limit for people: the value (with its unit), or `off` when 0 turns it off. */
export const off = (v: number, unit = ''): string => (v > 0 ? `${v}${unit}` : 'off');

/**
 * The printed summary's first lines: the data's provenance, the limits applied and, loudly, every
 * kill-switch trip with when, why and the share of the window it cost, then the rejects by reason.
 */
export function stopLines(r: StopFacts): string[] {
  const lines: string[] = [];
  for (const d of r.data) {
    const fee = d.symbols.map((s) => `${s}: ${r.fees[s]?.source ?? 'n/a'}`).join(', ');
    lines.push(`data: ${d.kind} (${d.origin}; L${d.book_level}; ${d.symbols.join(', ')}; fees from ${fee})`);
  }
  const l = r.limits;
  const k = l.kill_switch;
  lines.push(
    `limits applied (as live): max position ${l.max_position}, order qty ${l.max_order_qty}, order notional ${l.max_order_notional_usd} USD; kill switch: drawdown ${off(k.max_drawdown_usd, ' USD')}, daily loss ${off(k.max_daily_loss_usd, ' USD')}, reject storm ${k.reject_storm}, orders/min ${off(k.max_orders_per_minute)}`,
  );
  const ks = r.engine.kill_switch;
  for (const t of ks.trips) {
    const until = t.cleared_at_ms === null ? 'to the end of the window' : `cleared at ${clock(t.cleared_at_ms)} (${t.cleared_by ?? ''})`;
    lines.push(`KILL SWITCH TRIPPED at ${clock(t.at_ms)} UTC (+${((t.at_ms - r.window.start_ms) / 1000).toFixed(1)} s): ${t.reason}: ${t.detail}; action ${t.action}; ${until}`);
  }
  if (ks.trips.length > 0) lines.push(`  the bot was stopped for ${ks.paused_s.toFixed(1)} s, ${(ks.paused_share * 100).toFixed(1)}% of the window: the figures below cover only the time it quoted`);
  const rejects = Object.entries(r.engine.rejects_by_reason).sort((a, b) => b[1] - a[1]);
  if (rejects.length > 0) lines.push(`rejects by reason: ${rejects.map(([why, n]) => `${why} ×${n}`).join('; ')}`);
  return lines;
}
