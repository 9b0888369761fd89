/** Shared helpers for bench files: metric shape, timing loops and percentiles. */

/** One measured figure. `target` is shown in the table, never asserted. */
export interface Metric {
  readonly value: number;
  readonly unit: string;
  readonly target?: string;
}

/** A named benchmark producing one or more metrics. */
export interface Bench {
  readonly name: string;
  run(): Promise<Record<string, Metric>>;
}

/**
 * Mean microseconds per call of `fn` over `iterations`, after a warm-up, best of `rounds` rounds
 * (the minimum is the least noisy estimate on a shared machine).
 */
export function microsPerCall(fn: () => unknown, iterations: number, rounds = 5): number {
  for (let i = 0; i < Math.min(iterations, 50_000); i++) fn();
  let best = Infinity;
  for (let r = 0; r < rounds; r++) {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) fn();
    const us = Number(process.hrtime.bigint() - t0) / 1000 / iterations;
    best = Math.min(best, us);
  }
  return best;
}

/** The p-th percentile (0–100) of `samples` (nearest rank). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const idx = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[idx]!;
}

/** Current time in microseconds (monotonic). */
export const nowUs = (): number => Number(process.hrtime.bigint()) / 1000;

/**
 * `text` with what lies between `<!-- NAME:BEGIN -->` and `<!-- NAME:END -->` replaced by `body`
 * (the markers kept), or null when they are missing or out of order: how the benches write their
 * tables into the READMEs. Pure; the callers read, write and decide what a missing marker means.
 */
export function withMarkedSection(text: string, marker: string, body: string): string | null {
  const begin = `<!-- ${marker}:BEGIN -->`;
  const i = text.indexOf(begin);
  const j = text.indexOf(`<!-- ${marker}:END -->`);
  return i < 0 || j < i ? null : text.slice(0, i + begin.length) + body + text.slice(j);
}
