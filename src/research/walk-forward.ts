import { MmError } from '../core/errors.ts';
import type { GridPoint } from '../backtest/sweep.ts';
import { formatDurationMs } from './duration.ts';
import type { DataSpan, DataWindow } from './windows.ts';
import { halvingLeaderboard, halvingPlan, survivorCount, survivors, type RungPlan, type RungResult } from './halving.ts';
import { buildLeaderboard, pointKey, type Leaderboard, type LeaderboardEntry, type Observation } from './leaderboard.ts';
import { DRAWDOWN_FLOOR_USD, lowerIsBetter, type Objective } from './objective.ts';

/** More folds than this is a mistyped --step (each fold runs every point twice). */
const MAX_FOLDS = 10_000;

/** One walk-forward fold: parameters are chosen on `train`, then scored on the unseen `test` right after it. */
export interface Fold {
  readonly index: number;
  readonly train: DataWindow;
  readonly test: DataWindow;
  /** Window bounds as epoch ms (the windows' null ends resolved against the data span). */
  readonly trainStartMs: number;
  readonly testStartMs: number;
  readonly testEndMs: number;
  /** The last fold, whose test window is the data's rest, shorter than --test (`partialLast`). */
  readonly partial?: boolean;
}

/** How the folds are laid out. */
export interface FoldSpec {
  readonly trainMs: number;
  readonly testMs: number;
  /** How far each fold moves forward (default: testMs, so test windows tile the data). */
  readonly stepMs: number;
  /** Anchored (expanding) training: every train window starts with the data. */
  readonly anchored: boolean;
  /** Score the data left after the last whole test window as a shorter, flagged final fold (at least 1 s of it). */
  readonly partialLast?: boolean;
}

/** A partial last fold shorter than this is not worth a replay (and would score noise). */
const MIN_PARTIAL_TEST_MS = 1000;

/**
 * Lays out folds over the data: fold k trains on [start + k·step, +train) (anchored: from the data's
 * start) and tests on the next `test` ms; folds whose test window would run past the data are
 * dropped, except with `partialLast` the first of them, whose test window is then the rest of the
 * data (≥ 1 s; flagged `partial`). A test window that ends with the data is open-ended so its last
 * event is replayed.
 * @throws MmError USAGE when not even one fold fits, naming the durations and the data's length.
 */
export function planFolds(span: DataSpan, spec: FoldSpec): Fold[] {
  const folds: Fold[] = [];
  const spanMs = span.endMs - span.startMs;
  for (let k = 0; ; k++) {
    const trainEnd = span.startMs + k * spec.stepMs + spec.trainMs;
    let testEnd = trainEnd + spec.testMs;
    const partial = testEnd > span.endMs;
    if (partial && !(spec.partialLast === true && span.endMs - trainEnd >= MIN_PARTIAL_TEST_MS)) break;
    if (partial) testEnd = span.endMs;
    if (k >= MAX_FOLDS) throw new MmError('USAGE', `walk-forward: --step ${formatDurationMs(spec.stepMs)} gives more than ${MAX_FOLDS} folds over ${formatDurationMs(spanMs)} of data: use a longer step`);
    const trainStart = spec.anchored ? span.startMs : trainEnd - spec.trainMs;
    const id = `f${k + 1}`;
    folds.push({
      index: k,
      train: { id: `${id}-train`, startMs: trainStart === span.startMs ? null : trainStart, endMs: trainEnd },
      test: { id: `${id}-test`, startMs: trainEnd, endMs: testEnd === span.endMs ? null : testEnd },
      trainStartMs: trainStart,
      testStartMs: trainEnd,
      testEndMs: testEnd,
      ...(partial ? { partial: true } : {}),
    });
    if (partial) break;
  }
  if (folds.length === 0)
    throw new MmError('USAGE', `walk-forward: --train ${formatDurationMs(spec.trainMs)} + --test ${formatDurationMs(spec.testMs)} is longer than the data (${formatDurationMs(spanMs)})`);
  return folds;
}

/** Data after the last test window that no fold scores out of sample (ms; 0 when the folds reach the end). */
export function unscoredTailMs(span: DataSpan, folds: readonly Fold[]): number {
  return Math.max(0, span.endMs - Math.max(span.startMs, ...folds.map((f) => f.testEndMs)));
}

/** One unit of work: a point on a window. */
export interface PointWindow {
  readonly point: GridPoint;
  readonly window: DataWindow;
}

/** Runs a batch of (point, window) pairs and returns their observations. */
export type RunPairs = (pairs: readonly PointWindow[], phase: string) => Promise<readonly Observation[]>;

/** A fold's outcome. */
export interface FoldResult {
  readonly fold: Fold;
  /** Every point on the train window, ranked. */
  readonly train: Leaderboard;
  /** Every point on the test window, ranked. */
  readonly test: Leaderboard;
  /** The point chosen in-sample (null when every train run failed). */
  readonly chosen: LeaderboardEntry | null;
  /** The chosen point on the test window (its OOS rank is `rank`). */
  readonly chosenTest: LeaderboardEntry | null;
  /** Spearman rank correlation of the points' train and test objectives (null under 3 points). */
  readonly rankCorrelation: number | null;
  /** When the train window was searched by successive halving: its rungs (null: every point ran on all of it). */
  readonly rungs: readonly RungResult[] | null;
}

/** Successive halving as the in-sample search: rungs cut from each fold's train window. */
export interface TrainHalving {
  readonly eta: number;
  readonly minWindowMs: number | null;
  readonly rungsMs: readonly (number | null)[] | null;
  /** Names the grid file in errors. */
  readonly where: string;
}

/** pnl_over_drawdown's divisor floor (USD) for the whole walk-forward. */
type Floor = number;

/** The rungs of each fold's train window. */
export function trainPlans(folds: readonly Fold[], nPoints: number, h: TrainHalving): RungPlan[][] {
  return folds.map((f) =>
    halvingPlan({ startMs: f.trainStartMs, endMs: f.testStartMs }, nPoints, h.eta, h.minWindowMs, h.rungsMs, h.where, { idPrefix: `${f.train.id}-`, startMs: f.train.startMs, endMs: f.train.endMs, label: 'the train window' }),
  );
}

/**
 * Successive halving on every fold's train window at once: rung r of every fold is one batch
 * (`train-rung<r>`), each fold keeping its own best 1/eta for its next rung.
 */
async function halvingTrain(points: readonly GridPoint[], folds: readonly Fold[], objective: Objective, h: TrainHalving, run: RunPairs, floor: Floor): Promise<{ train: Leaderboard; rungs: RungResult[] }[]> {
  const plans = trainPlans(folds, points.length, h);
  const current = folds.map(() => [...points]);
  const rungs: RungResult[][] = folds.map(() => []);
  const depth = Math.max(...plans.map((p) => p.length));
  for (let r = 0; r < depth; r++) {
    const active = folds.map((_, k) => k).filter((k) => r < plans[k]!.length && current[k]!.length > 0);
    if (active.length === 0) break;
    const obs = await run(active.flatMap((k) => current[k]!.map((point) => ({ point, window: plans[k]![r]!.window }))), `train-rung${r + 1}`);
    for (const k of active) {
      const plan = plans[k]![r]!;
      const leaderboard = buildLeaderboard(current[k]!, obs.filter((o) => o.windowId === plan.window.id), objective, floor);
      const next = r === plans[k]!.length - 1 ? [] : survivors(leaderboard, survivorCount(current[k]!.length, h.eta));
      rungs[k]!.push({ plan, leaderboard, survivors: next });
      current[k] = next;
    }
  }
  return folds.map((_, k) => ({ train: halvingLeaderboard(rungs[k]!, points, objective), rungs: rungs[k]! }));
}

/**
 * Walk-forward: runs every point on every train window (one batch; or, with `halving`, successive
 * halving inside each train window, one batch per rung), chooses each fold's best by the objective,
 * then runs every point on every test window (one batch) so the chosen point's out-of-sample score,
 * its rank among all points, and the best out-of-sample point are known.
 */
export async function runWalkForward(points: readonly GridPoint[], folds: readonly Fold[], objective: Objective, run: RunPairs, halving: TrainHalving | null = null, floor: Floor = DRAWDOWN_FLOOR_USD): Promise<FoldResult[]> {
  let trained: { train: Leaderboard; rungs: RungResult[] | null }[];
  if (halving === null) {
    const trainObs = await run(folds.flatMap((f) => points.map((point) => ({ point, window: f.train }))), 'train');
    trained = folds.map((fold) => ({ train: buildLeaderboard(points, trainObs.filter((o) => o.windowId === fold.train.id), objective, floor), rungs: null }));
  } else trained = await halvingTrain(points, folds, objective, halving, run, floor);
  const testObs = await run(folds.flatMap((f) => points.map((point) => ({ point, window: f.test }))), 'test');
  return folds.map((fold, k) => {
    const { train, rungs } = trained[k]!;
    const test = buildLeaderboard(points, testObs.filter((o) => o.windowId === fold.test.id), objective, floor);
    const top = train.entries[0];
    const chosen = top && top.failed === 0 && Number.isFinite(top.objective) ? top : null;
    const chosenTest = chosen ? (test.entries.find((e) => pointKey(e.point) === pointKey(chosen.point)) ?? null) : null;
    // A halving ranking mixes rungs of different lengths: correlate its order, not its values.
    return { fold, train, test, chosen, chosenTest, rankCorrelation: spearman(train, test, rungs !== null), rungs };
  });
}

/**
 * Spearman correlation of two rankings of the same points (complete, finite entries only), from
 * their objective values (ties share a mean rank), or from `a`'s ranks when `aByRank`.
 */
export function spearman(a: Leaderboard, b: Leaderboard, aByRank = false): number | null {
  const ok = (e: LeaderboardEntry): boolean => e.failed === 0 && e.windows > 0 && Number.isFinite(e.objective);
  const rb = new Map(b.entries.filter(ok).map((e) => [pointKey(e.point), e.objective] as const));
  const sign = lowerIsBetter(a.objective) ? -1 : 1; // ranks run best first: turn them into values that grow with quality
  const pairs = a.entries.filter((e) => ok(e) && rb.has(pointKey(e.point))).map((e) => [aByRank ? -e.rank * sign : e.objective, rb.get(pointKey(e.point))!] as const);
  if (pairs.length < 3) return null;
  const ranks = (xs: readonly number[]): number[] => {
    const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(xs.length);
    for (let i = 0; i < order.length; ) {
      let j = i;
      while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
      for (let k = i; k <= j; k++) r[order[k]![1]] = (i + j) / 2 + 1; // ties share their mean rank
      i = j + 1;
    }
    return r;
  };
  const x = ranks(pairs.map((p) => p[0]));
  const y = ranks(pairs.map((p) => p[1]));
  const mean = (v: number[]): number => v.reduce((s, t) => s + t, 0) / v.length;
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < x.length; i++) ((sxy += (x[i]! - mx) * (y[i]! - my)), (sxx += (x[i]! - mx) ** 2), (syy += (y[i]! - my) ** 2));
  return sxx === 0 || syy === 0 ? null : sxy / Math.sqrt(sxx * syy);
}

/** The walk-forward summary: in-sample vs out-of-sample over the folds that chose a point. */
export interface WalkForwardSummary {
  readonly folds: number;
  /** Folds where a point was chosen and scored out of sample. */
  readonly scored: number;
  /**
   * Scored folds whose out-of-sample objective is defined (a test window too short for a Sharpe, or
   * without a matured fill for markout_60s, has none): the objective's means and efficiency are over
   * these, never averaging an undefined figure in as 0.
   */
  readonly objectiveFolds: number;
  readonly meanInSample: number;
  readonly meanOutOfSample: number;
  readonly meanInSampleNet: number;
  readonly meanOutOfSampleNet: number;
  /** Net PnL summed over the test windows: the walk-forward equity's end. */
  readonly totalOutOfSampleNet: number;
  /** Mean OOS objective / mean IS objective (`efficiencyRatio`: NaN unless IS > 0; inverted for lower-is-better objectives). */
  readonly efficiency: number;
  /** OOS PnL per minute / IS PnL per minute (train and test windows differ in length; NaN unless IS > 0). */
  readonly pnlRateEfficiency: number;
  /** Folds where the chosen point ranked within the top `topK` out of sample, as a share of scored folds. */
  readonly topK: number;
  readonly topKShare: number;
  /** Folds where the chosen point was also the best out of sample. */
  readonly stayedBest: number;
  /** Mean Spearman correlation of train vs test rankings (NaN when no fold had one). */
  readonly meanRankCorrelation: number;
  /**
   * The baseline: the mean over scored folds of every complete point's OOS objective / net (what
   * picking a point at random would score). Choosing in-sample adds value only above it.
   */
  readonly meanOutOfSampleAllPoints: number;
  readonly meanOutOfSampleNetAllPoints: number;
}

/** A leaderboard's entries that ran without failing and have a figure. */
const complete = (lb: Leaderboard): LeaderboardEntry[] => lb.entries.filter((e) => e.windows > 0 && e.failed === 0 && Number.isFinite(e.objective));

/**
 * Out-of-sample over in-sample performance, 1 = kept all of it: OOS / IS for a higher-is-better
 * objective, IS / OOS for a lower-is-better one (drawdown). NaN when the in-sample figure is not
 * positive: a loss kept out of sample is not 100% efficiency, and −1 / −2 = 0.5 would read as a
 * decay when OOS did better.
 */
export function efficiencyRatio(inSample: number, outOfSample: number, objective: Objective): number {
  if (!(inSample > 0)) return NaN;
  if (lowerIsBetter(objective)) return outOfSample > 0 ? inSample / outOfSample : NaN;
  return outOfSample / inSample;
}

/** Summarises fold results (means over the folds that chose and scored a point). */
export function summarise(results: readonly FoldResult[], topK: number): WalkForwardSummary {
  const scored = results.filter((r) => r.chosen !== null && r.chosenTest !== null && r.chosenTest.failed === 0 && r.chosenTest.windows > 0);
  // Undefined figures (NaN) are left out of a mean, never counted as 0.
  const mean = (v: readonly number[]): number => {
    const ok = v.filter(Number.isFinite);
    return ok.length === 0 ? NaN : ok.reduce((s, x) => s + x, 0) / ok.length;
  };
  // IS and OOS objective over the same folds (those with both defined), so their ratio compares like with like.
  const paired = scored.filter((r) => Number.isFinite(r.chosen!.objective) && Number.isFinite(r.chosenTest!.objective));
  const is = mean(paired.map((r) => r.chosen!.objective));
  const oos = mean(paired.map((r) => r.chosenTest!.objective));
  const isNet = mean(scored.map((r) => r.chosen!.metrics.net));
  const oosNet = mean(scored.map((r) => r.chosenTest!.metrics.net));
  const minutes = (ms: number): number => ms / 60_000;
  const isRate = mean(scored.map((r) => r.chosen!.metrics.net / minutes(r.fold.testStartMs - r.fold.trainStartMs)));
  const oosRate = mean(scored.map((r) => r.chosenTest!.metrics.net / minutes(r.fold.testEndMs - r.fold.testStartMs)));
  const corr = results.flatMap((r) => (r.rankCorrelation === null ? [] : [r.rankCorrelation]));
  return {
    folds: results.length,
    scored: scored.length,
    objectiveFolds: paired.length,
    meanInSample: is,
    meanOutOfSample: oos,
    meanInSampleNet: isNet,
    meanOutOfSampleNet: oosNet,
    totalOutOfSampleNet: scored.reduce((s, r) => s + r.chosenTest!.metrics.net, 0),
    efficiency: efficiencyRatio(is, oos, results[0]?.train.objective ?? 'net'),
    pnlRateEfficiency: efficiencyRatio(isRate, oosRate, 'net'),
    topK,
    topKShare: scored.length === 0 ? NaN : scored.filter((r) => r.chosenTest!.rank <= topK).length / scored.length,
    stayedBest: scored.filter((r) => r.chosenTest!.rank === 1).length,
    meanRankCorrelation: mean(corr),
    meanOutOfSampleAllPoints: mean(scored.map((r) => mean(complete(r.test).map((e) => e.objective)))),
    meanOutOfSampleNetAllPoints: mean(scored.map((r) => mean(complete(r.test).map((e) => e.metrics.net)))),
  };
}
