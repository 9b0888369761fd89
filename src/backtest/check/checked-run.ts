import type { OrderEvent } from '../../domain/events.ts';
import type { ColumnarRecording } from '../../record/columnar.ts';
import { executeRunSpec, type RunSpec } from '../run-spec.ts';
import type { BacktestRun } from '../runner.ts';
import { checkInvariants, type InvariantReport, type Violation } from './invariants.ts';

/** Most violations printed one per line; the rest are counted (all of them are in check.json). */
const PRINTED = 100;

/** Runs a spec with the order stream observed, then checks the run against the venue's invariants. */
export async function executeCheckedRun(spec: RunSpec, data: ColumnarRecording, baseDir?: string): Promise<{ readonly run: BacktestRun; readonly check: InvariantReport }> {
  const events: OrderEvent[] = [];
  const run = await executeRunSpec(spec, data, baseDir, (ev) => events.push(ev));
  return { run, check: checkInvariants(data, events, run.fills, spec.settings.feedLatencyOffsetMs) };
}

/** One violation as a line: rule, symbol, exchange time, order, what. */
export function violationLine(v: Violation): string {
  const at = Number.isFinite(v.tsMs) ? new Date(v.tsMs).toISOString() : 'whole run';
  return `${v.rule} ${v.symbol} ${at}${v.orderId ? ` ${v.orderId}` : ''}: ${v.detail}`;
}

/** The check's summary line and its violations, one a line (the first 100). */
export function checkLines(c: InvariantReport): string[] {
  const byRule = new Map<string, number>();
  for (const v of c.violations) byRule.set(v.rule, (byRule.get(v.rule) ?? 0) + 1);
  const counts = [...byRule].map(([r, n]) => `${r} ${n}`).join(', ');
  return [
    `check: ${c.violations.length} violations${counts ? ` (${counts})` : ''} over ${c.fills} fills, ${c.orders} orders, ${c.levels} price levels`,
    ...c.violations.slice(0, PRINTED).map((v) => `  ${violationLine(v)}`),
    ...(c.violations.length > PRINTED ? [`  … and ${c.violations.length - PRINTED} more (check.json)`] : []),
  ];
}

/** check.json: every violation with its fields. */
export function checkJson(c: InvariantReport): string {
  return `${JSON.stringify({ fills: c.fills, orders: c.orders, levels: c.levels, violations: c.violations.length, list: c.violations.map((v) => ({ ...v, tsMs: Number.isFinite(v.tsMs) ? v.tsMs : null })) }, null, 2)}\n`;
}
