import { Decimal } from '../../core/decimal.ts';
import { settlementsOnDate, slotIntervalMinutes, previousSettlement } from '../../domain/funding-schedule.ts';
import type { Instrument } from '../../domain/instrument.ts';
import type { WireEstimatedFunding, WireFundingSlot, WireFundingSlotsReport } from '../../wire/index.ts';
import { capPctToBps, formatBps, slotFunding } from './funding-math.ts';
import { FundingService } from './funding-service.ts';

const rfc3339 = (ms: number): string => new Date(ms).toISOString();
const dec = (d: Decimal): string => d.toFixed(12);

/** A live estimate in domain numbers (rate as a fraction), or why there is none. */
type Estimate =
  | { status: 'ready'; rate: Decimal; amount: Decimal; benchmark: Decimal; mark: Decimal; rateBps: Decimal; premiumBps: Decimal; capped: boolean }
  | { status: 'settlement_pending' | 'unavailable'; reason: string };

/**
 * The estimate of the next funding for `ins` at `nowMs` (docs/venue-rules.md §4.3): settlement_pending right
 * after a settlement, unavailable when the underlying is stale or the mark window is too short,
 * else ready. daily_close uses the mark TWAP since the last settlement; intraday the current slot.
 */
export function estimateFunding(svc: FundingService, ins: Instrument, nowMs: number): Estimate {
  const cfg = svc.cfg;
  const last = svc.lastSettledMs.get(ins.symbol);
  if (last !== undefined && nowMs - last < cfg.settlement_pending_ms) return { status: 'settlement_pending', reason: 'funding settlement is pending for this symbol' };
  const s = svc.series.get(ins.symbol)!;
  const u = s.underlying.last();
  if (!u || nowMs - u.tsMs > cfg.stale_underlying_ms) return { status: 'unavailable', reason: 'underlying price data missing or too stale to estimate funding rate' };
  const schedule = ins.fundingSchedule;
  if (!schedule) return { status: 'unavailable', reason: 'instrument has no funding schedule' };
  const date = FundingService.dateOf(ins, nowMs);
  const n = Math.max(1, settlementsOnDate(schedule, date).length);
  const intraday = ins.fundingVariant === 'intraday_twap' || n > 1;
  const prev = previousSettlement(schedule, nowMs)?.atMs ?? -Infinity;
  const windowMs = intraday ? (slotIntervalMinutes(schedule, date) ?? 30) * 60_000 : cfg.mark_window_ms;
  const from = Math.max(prev, nowMs - windowMs);
  const first = s.marks.first();
  if (!first || nowMs - Math.max(from, first.tsMs) < cfg.min_estimate_window_ms) return { status: 'unavailable', reason: 'not enough mark price data to estimate funding rate' };
  const mark = s.marks.twap(from, nowMs);
  const bench = intraday ? s.underlying.twap(from, nowMs) : u.price;
  if (mark === undefined || bench === undefined || !(bench > 0)) return { status: 'unavailable', reason: 'not enough mark price data to estimate funding rate' };
  const digits = ins.grid.decimals + 2;
  const markD = new Decimal(mark).toDecimalPlaces(digits);
  const benchD = new Decimal(bench).toDecimalPlaces(digits);
  return { status: 'ready', ...slotFunding(ins, intraday, markD, benchD, n, cfg.divide_intraday_by_count), benchmark: benchD, mark: markD };
}

/** The wire `ef` object (REST, WS reply, ticker). */
export function wireEstimate(svc: FundingService, ins: Instrument, nowMs: number): WireEstimatedFunding {
  const e = estimateFunding(svc, ins, nowMs);
  const base = { symbol: ins.symbol, status: e.status, timestamp: rfc3339(nowMs) };
  if (e.status !== 'ready') return { ...base, funding_rate: null, funding_amount: null, benchmark_price: null, settlement_price: null, reason: e.reason };
  return { ...base, funding_rate: dec(e.rate), funding_amount: dec(e.amount), benchmark_price: dec(e.benchmark), settlement_price: dec(e.mark) };
}

/**
 * The funding-slots report for a local date (docs/venue-protocol.md §6.3): realized and skipped slots from
 * the store, pending for elapsed-but-unrecorded ones, projected from the live estimate otherwise.
 */
export function fundingSlotsReport(svc: FundingService, ins: Instrument, date: string, nowMs: number): WireFundingSlotsReport {
  const schedule = ins.fundingSchedule!;
  const list = settlementsOnDate(schedule, date);
  const done = new Map(svc.store.slotsOf(ins.symbol, date).map((o) => [o.index, o]));
  const est = estimateFunding(svc, ins, nowMs);
  const intraday = ins.fundingVariant === 'intraday_twap' || list.length > 1;
  let realized = new Decimal(0);
  let projected = new Decimal(0);
  const slots: WireFundingSlot[] = list.map((inst) => {
    const o = done.get(inst.index);
    const base = { index: inst.index, funding_time: rfc3339(inst.atMs) };
    if (o && o.status === 'realized') {
      realized = realized.plus(o.rateBps!);
      return { ...base, status: 'realized', mark_twap: dec(o.markTwap!), underlying_twap: dec(o.underlyingTwap!), premium_bps: formatBps(o.premiumBps!), funding_rate_bps: formatBps(o.rateBps!), capped: o.capped };
    }
    const nulls = { mark_twap: null, underlying_twap: null, premium_bps: null, funding_rate_bps: null, capped: false };
    if (o) return { ...base, status: 'skipped', ...nulls, reason: o.reason };
    if (inst.atMs <= nowMs) return { ...base, status: 'pending', ...nulls };
    if (est.status !== 'ready') return { ...base, status: 'projected', ...nulls };
    projected = projected.plus(est.rateBps);
    return {
      ...base,
      status: 'projected',
      mark_twap: dec(est.mark),
      underlying_twap: dec(est.benchmark),
      premium_bps: formatBps(est.premiumBps),
      funding_rate_bps: formatBps(est.rateBps),
      capped: est.capped,
    };
  });
  const cap = capPctToBps(ins.fundingCapUpperPct);
  return {
    symbol: ins.symbol,
    date,
    timezone: schedule.timezone,
    variant: intraday ? 'intraday_twap' : 'daily_close',
    interval_count: list.length,
    slot_interval_minutes: slotIntervalMinutes(schedule, date),
    cap_bps: cap === null ? null : formatBps(cap),
    slots,
    realized_sum_bps: realized.toDecimalPlaces(6).toFixed(),
    projected_eod_bps: realized.plus(projected).toDecimalPlaces(6).toFixed(),
  };
}
