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
