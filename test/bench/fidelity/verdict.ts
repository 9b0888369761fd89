/** The fidelity bench's verdicts (pure): which L2 models meet the targets on which days and quoters. */

/** One replay's totals. */
export interface Figures {
  readonly fills: number;
  readonly volume: number;
  readonly notionalUsd: number;
  readonly netUsd: number;
}

/** An L2 replay of one quoter on one day, with the exact replay it is judged against. */
export interface FidelityRow {
  readonly day: string;
  readonly quoter: string;
  readonly model: string;
  readonly figures: Figures;
  readonly exact: Figures;
}

/** The issue's targets: fill volume within 5 % of the exact replay, net within 0.2 bps of its traded notional. */
export const VOLUME_TOLERANCE = 0.05;
export const NET_TOLERANCE_BPS = 0.2;

/** Fill volume's relative error against the exact replay. */
export const volumeError = (r: FidelityRow): number => (r.exact.volume > 0 ? r.figures.volume / r.exact.volume - 1 : 0);
/** Net's error in bps of the exact replay's traded notional. */
export const netErrorBps = (r: FidelityRow): number => (r.exact.notionalUsd > 0 ? ((r.figures.netUsd - r.exact.netUsd) / r.exact.notionalUsd) * 1e4 : 0);
/** True when both errors are within the targets. */
export const meetsTargets = (r: FidelityRow): boolean => Math.abs(volumeError(r)) <= VOLUME_TOLERANCE && Math.abs(netErrorBps(r)) <= NET_TOLERANCE_BPS;

/**
 * One line per model, best first (most day × quoter cases within both targets, then the smaller
 * worst volume error): in how many cases it meets both targets, which it misses, and its worst errors.
 */
export function fidelityVerdicts(rows: readonly FidelityRow[]): string[] {
  const byModel = new Map<string, FidelityRow[]>();
  for (const r of rows) byModel.set(r.model, [...(byModel.get(r.model) ?? []), r]);
  const scored = [...byModel].map(([model, rs]) => {
    const misses = rs.filter((r) => !meetsTargets(r));
    const worstV = Math.max(...rs.map((r) => Math.abs(volumeError(r))));
    const worstN = Math.max(...rs.map((r) => Math.abs(netErrorBps(r))));
    return { model, n: rs.length, ok: rs.length - misses.length, misses, worstV, worstN };
  });
  scored.sort((a, b) => b.ok - a.ok || a.worstV - b.worstV);
  return scored.map((s) => {
    const missed = s.misses.map((r) => `${r.day} ${r.quoter} (${signed(100 * volumeError(r), 1)} %, ${signed(netErrorBps(r), 2)} bps)`).join('; ');
    return `- ${s.model}: within both targets in ${s.ok} of ${s.n} day × quoter cases; worst |Δ volume| ${(100 * s.worstV).toFixed(1)} %, worst |Δ net| ${s.worstN.toFixed(2)} bps${missed ? `; misses ${missed}` : ''}.`;
  });
}

const signed = (x: number, digits: number): string => `${x >= 0 ? '+' : ''}${x.toFixed(digits)}`;
