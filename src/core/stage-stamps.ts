/**
 * Per-frame stage stamps along the live hot path (market-data frame → order frame), for the
 * per-stage latency breakdown of `npm run bench -- e2e-process`. Off by default: each stamp is then
 * one branch on a module-level boolean. The composition root switches it on (`mmbot run` with
 * `MMBOT_STAGES=<file>`) and writes `stageStampsTaken()` at exit.
 *
 * Stamps are CLOCK_MONOTONIC nanoseconds (`process.hrtime.bigint()`), the same clock in every
 * process of the machine, so a harness in another process can line them up with its own instants.
 */

/** The stamped instants of one cycle, in hot-path order. */
export const STAGE_POINTS = ['frame', 'decoded', 'engine', 'quoted', 'gated', 'request', 'encoded', 'written'] as const;

/** Index of a stamped instant in `STAGE_POINTS`. */
export const Stage = { frame: 0, decoded: 1, engine: 2, quoted: 3, gated: 4, request: 5, encoded: 6, written: 7 } as const;

const POINTS = STAGE_POINTS.length;
const MAX_CYCLES = 200_000;
let on = false;
let current = new Float64Array(0);
let taken = new Float64Array(0);
let cycles = 0;

/** Switches stamping on (allocates the sample store once). */
export function enableStageStamps(): void {
  on = true;
  current = new Float64Array(POINTS);
  taken = new Float64Array(POINTS * MAX_CYCLES);
  cycles = 0;
}

/** Whether stamping is on. */
export const stageStampsOn = (): boolean => on;

/** Starts a cycle: a market-data frame was read (clears the other stamps). */
export function stampFrame(): void {
  if (!on) return;
  current.fill(0);
  current[0] = Number(process.hrtime.bigint());
}

/** Stamps `stage` of the current cycle (no-op when off or no frame started it). */
export function stamp(stage: number): void {
  if (!on || current[0] === 0) return;
  current[stage] = Number(process.hrtime.bigint());
}

/**
 * Stamps `written` and keeps the cycle when every instant was stamped in order (the first order
 * frame a market-data frame caused); the cycle then ends, so later sends of the same frame are not kept.
 */
export function stampWritten(): void {
  if (!on || current[0] === 0) return;
  current[Stage.written] = Number(process.hrtime.bigint());
  for (let i = 1; i < POINTS; i++) if (current[i]! < current[i - 1]! || current[i] === 0) return;
  if (cycles < MAX_CYCLES) taken.set(current, cycles++ * POINTS);
  current[0] = 0;
}

/** The kept cycles, each `STAGE_POINTS.length` monotonic ns stamps. */
export function stageStampsTaken(): number[][] {
  const out: number[][] = [];
  for (let c = 0; c < cycles; c++) out.push(Array.from(taken.subarray(c * POINTS, (c + 1) * POINTS)));
  return out;
}
