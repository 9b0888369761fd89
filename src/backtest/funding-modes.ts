import type { Observer } from 'rxjs';
import type { FundingSettlement } from '../domain/funding.ts';
import { settlementsBetween } from '../domain/funding-schedule.ts';
import type { ColumnarRecording } from '../record/columnar.ts';
import { KIND } from '../record/format.ts';
import type { ActionQueue } from './action-queue.ts';
import type { ReplayExchange } from './replay-exchange.ts';
import type { BacktestSettings } from './settings.ts';

/** How one symbol's funding is settled in a run. */
export type FundingMode = 'recorded' | 'schedule' | 'off';

/** Per symbol: auto → recorded when the recording has settlements for it, else schedule (else off). */
export function resolveFundingModes(col: ColumnarRecording, mode: BacktestSettings['funding']): FundingMode[] {
  if (mode !== 'auto') return col.instruments.map(() => mode);
  const has = new Set<number>();
  for (let i = 0; i < col.length; i++) if (col.kind[i] === KIND.funding) has.add(col.sym[i]!);
  return col.instruments.map((inst, s) => (has.has(s) ? 'recorded' : inst.fundingSchedule ? 'schedule' : 'off'));
}

/**
 * Schedules each recorded settlement of a `recorded`-mode symbol in rows [i0, i1) at its own venue
 * instant (`tsEvent`, not before `fromMs`): the recorder learns of a settlement by polling, so its
 * row arrives after the instant, but positions pay as they were at the instant. The bot still gets
 * the settlement at the row's receive time (feed delivery).
 */
export function scheduleRecordedFunding(col: ColumnarRecording, modes: readonly FundingMode[], i0: number, i1: number, fromMs: number, actions: ActionQueue, exchange: ReplayExchange): void {
  for (let i = i0; i < i1; i++) {
    if (col.kind[i] !== KIND.funding) continue;
    const s = col.sym[i]!;
    const ev = col.objects[col.a[i]!]!;
    if (ev.type !== 'funding' || modes[s] !== 'recorded') continue;
    actions.push(Math.max(fromMs, ev.settlement.tsEvent), () => void exchange.applyFunding(s, ev.settlement));
  }
}

/**
 * Schedules settlements at each `schedule`-mode instrument's funding instants in [fromMs, toMs], with
 * the last ready funding estimate the recording showed (none yet → nothing is charged).
 */
export function scheduleFunding(col: ColumnarRecording, modes: readonly FundingMode[], fromMs: number, toMs: number, actions: ActionQueue, exchange: ReplayExchange, funding$: Observer<FundingSettlement>): void {
  col.instruments.forEach((inst, s) => {
    if (modes[s] !== 'schedule' || !inst.fundingSchedule) return;
    for (const at of settlementsBetween(inst.fundingSchedule, fromMs, toMs)) {
      actions.push(at.atMs, () => {
        const est = exchange.fundingEstimates[s];
        if (!est || est.amount === null) return;
        const settlement: FundingSettlement = {
          symbol: inst.symbol,
          rate: est.rate ?? est.amount.div(est.benchmarkPrice ?? 1),
          amount: est.amount,
          benchmarkPrice: est.benchmarkPrice ?? est.amount,
          settlementPrice: est.settlementPrice ?? est.amount,
          tsEvent: at.atMs,
        };
        exchange.applyFunding(s, settlement);
        funding$.next(settlement);
      });
    }
  });
}
