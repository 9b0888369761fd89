import { lineChart } from '../backtest/svg-chart.ts';
import type { GridPoint } from '../backtest/sweep.ts';
import { formatDurationMs } from './duration.ts';
import { esc, fmt, pageStart, valueText } from './leaderboard-html.ts';
import { objectiveHelp, type Objective } from './objective.ts';
import type { FoldResult, WalkForwardSummary } from './walk-forward.ts';

/** What a walk-forward report describes besides its results. */
export interface WalkForwardMeta {
  readonly objective: Objective;
  readonly dataStartMs: number;
  readonly trainMs: number;
  readonly testMs: number;
  readonly stepMs: number;
  readonly anchored: boolean;
  readonly points: number;
  /** The command line, shown on the page. */
  readonly command?: string;
  /** How each train window was searched, when not every point ran on all of it (successive halving). */
  readonly trainSearch?: string;
  /** Data after the last test window that no fold scores (ms): shorter than --test, and --partial-fold was not given. */
  readonly unscoredTailMs?: number;
  /** pnl_over_drawdown's drawdown floor, USD (absent: the default). */
  readonly drawdownFloorUsd?: number;
  /** Whether --partial-fold would score that tail (false: the next fold's train window would run past the data). */
  readonly partialFoldFits?: boolean;
}

const pointText = (p: GridPoint | undefined): string => (p ? p.map(([k, v]) => `${k.split('.').at(-1)}=${valueText(v)}`).join(', ') : '—');
const offset = (ms: number, start: number): string => formatDurationMs(Math.max(1, ms - start)).replace(/^1ms$/, '0s');

/** One row per fold: windows, chosen point, IS vs OOS side by side, OOS rank, best OOS point. */
function foldRows(results: readonly FoldResult[], meta: WalkForwardMeta): string[][] {
  return results.map((r) => {
    const f = r.fold;
    const best = r.test.entries[0];
    return [
      String(f.index + 1),
      `${offset(f.trainStartMs, meta.dataStartMs)}–${offset(f.testStartMs, meta.dataStartMs)}`,
      `${offset(f.testStartMs, meta.dataStartMs)}–${offset(f.testEndMs, meta.dataStartMs)}${f.partial ? ' (partial)' : ''}`,
      r.chosen ? pointText(r.chosen.point) : 'none (every train run failed)',
      fmt(r.chosen?.objective, 3),
      fmt(r.chosenTest?.objective, 3),
      fmt(r.chosen?.metrics.net, 2),
      fmt(r.chosenTest?.metrics.net, 2),
      r.chosenTest ? `${r.chosenTest.rank}/${r.test.entries.length}` : '—',
      fmt(best?.objective, 3),
      pointText(best?.point),
      fmt(r.rankCorrelation, 2),
    ];
  });
}

const HEAD = ['fold', 'train', 'test', 'chosen in-sample', 'IS score', 'OOS score', 'IS net', 'OOS net', 'OOS rank', 'best OOS score', 'best OOS point', 'rank corr'];

/** Says over how many folds the objective's means are, when some test windows had no figure. */
const undefinedNote = (s: WalkForwardSummary, o: Objective): string =>
  s.objectiveFolds < s.scored ? ` (over the ${s.objectiveFolds} of ${s.scored} scored folds whose test window has a ${o}; ${o === 'sharpe' ? 'a Sharpe needs 30 minutes of varying PnL' : 'the others have none'})` : '';

/** Summary lines shared by the terminal and the page. */
function summaryLines(results: readonly FoldResult[], s: WalkForwardSummary, o: Objective, meta: WalkForwardMeta): [string, string][] {
  const overlap = meta.stepMs < meta.testMs ? ' (test windows overlap: step < test, so overlapping minutes count more than once)' : '';
  const partial = results.find((r) => r.fold.partial);
  const tail = meta.unscoredTailMs ?? 0;
  return [
    ['folds (scored)', `${s.folds} (${s.scored})${partial ? `; fold ${partial.fold.index + 1} is partial: its test window is the last ${formatDurationMs(partial.fold.testEndMs - partial.fold.testStartMs)} of data, not ${formatDurationMs(meta.testMs)}` : ''}`],
    ...(tail > 0 ? [['data after the last test window, not scored', `${formatDurationMs(tail)} (shorter than --test ${formatDurationMs(meta.testMs)}; ${meta.partialFoldFits ? '--partial-fold scores it as a shorter final fold' : 'the next fold\'s train window would end with the data or after it, leaving no test window (a shorter --step reaches it)'})`] as [string, string]] : []),
    // Ranked by net, the objective's lines are the net lines: shown once.
    ...(o === 'net' ? [] : [[`mean ${o}: in-sample / out-of-sample`, `${fmt(s.meanInSample, 3)} / ${fmt(s.meanOutOfSample, 3)}${undefinedNote(s, o)}`] as [string, string]]),
    ['mean net PnL (USD): in-sample / out-of-sample', `${fmt(s.meanInSampleNet, 2)} / ${fmt(s.meanOutOfSampleNet, 2)}`],
    o === 'net'
      ? ["out-of-sample net PnL (USD), chosen vs every point's mean", `${fmt(s.meanOutOfSampleNet, 2)} vs ${fmt(s.meanOutOfSampleNetAllPoints, 2)}`]
      : [`out-of-sample, chosen vs every point's mean: ${o} / net`, `${fmt(s.meanOutOfSample, 3)} vs ${fmt(s.meanOutOfSampleAllPoints, 3)} / ${fmt(s.meanOutOfSampleNet, 2)} vs ${fmt(s.meanOutOfSampleNetAllPoints, 2)}`],
    ['out-of-sample net PnL over all test windows (USD)', `${fmt(s.totalOutOfSampleNet, 2)}${overlap}`],
    ['walk-forward efficiency (mean OOS / mean IS score)', s.scored > 0 && !Number.isFinite(s.efficiency) ? `— (undefined: the mean in-sample ${o} is not positive)` : fmt(s.efficiency, 3)],
    ['walk-forward efficiency (OOS / IS PnL per minute)', s.scored > 0 && !Number.isFinite(s.pnlRateEfficiency) ? '— (undefined: the in-sample PnL is not positive)' : fmt(s.pnlRateEfficiency, 3)],
    [`chosen point in the OOS top ${s.topK}`, `${fmt(s.topKShare * 100, 0)} % of scored folds (best OOS in ${s.stayedBest})`],
    ['mean rank correlation, train vs test (Spearman)', fmt(s.meanRankCorrelation, 3)],
  ];
}

/** The report for the terminal: the fold table, then the summary. */
export function walkForwardTable(results: readonly FoldResult[], s: WalkForwardSummary, meta: WalkForwardMeta): string {
  const body = foldRows(results, meta);
  const widths = HEAD.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (c: readonly string[]): string => c.map((x, i) => (i === 3 || i === 10 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  const sum = summaryLines(results, s, meta.objective, meta);
  const w = Math.max(...sum.map(([k]) => k.length));
  return [`objective: ${meta.objective} (${objectiveHelp(meta.objective, meta.drawdownFloorUsd)})`, ...(meta.trainSearch ? [`train search: ${meta.trainSearch}`] : []), line(HEAD), ...body.map(line), '', ...sum.map(([k, v]) => `${k.padEnd(w)}  ${v}`)].join('\n');
}

/** The fold table as CSV (full parameter values, one column per axis for chosen and best OOS). */
export function walkForwardCsv(results: readonly FoldResult[], meta: WalkForwardMeta): string {
  const axes = results[0]?.train.axes ?? [];
  const cell = (v: unknown): string => {
    const s = typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const num = (v: number | undefined, d = 6): string => (v !== undefined && Number.isFinite(v) ? v.toFixed(d) : '');
  const head = ['fold', 'train_start_ms', 'train_end_ms', 'test_start_ms', 'test_end_ms', ...axes.map((a) => `chosen.${a}`), `is_${meta.objective}`, `oos_${meta.objective}`, 'is_net_usd', 'oos_net_usd', 'oos_rank', 'points', `best_oos_${meta.objective}`, ...axes.map((a) => `best_oos.${a}`), 'rank_correlation'];
  const lines = [head.map(cell).join(',')];
  for (const r of results) {
    const f = r.fold;
    const best = r.test.entries[0];
    const val = (p: GridPoint | undefined, a: string): unknown => p?.find(([k]) => k === a)?.[1];
    lines.push(
      [f.index + 1, f.trainStartMs, f.testStartMs, f.testStartMs, f.testEndMs, ...axes.map((a) => cell(val(r.chosen?.point, a))), num(r.chosen?.objective), num(r.chosenTest?.objective), num(r.chosen?.metrics.net), num(r.chosenTest?.metrics.net), r.chosenTest?.rank ?? '', r.test.entries.length, num(best?.objective), ...axes.map((a) => cell(val(best?.point, a))), num(r.rankCorrelation ?? undefined, 4)].join(','),
    );
  }
  return `${lines.join('\n')}\n`;
}

const finite = (v: number | undefined | null): number | null => (v !== undefined && v !== null && Number.isFinite(v) ? v : null);

/** The whole report as JSON: settings, folds (windows, chosen, IS/OOS figures, every point's test score) and summary. */
export function walkForwardJson(results: readonly FoldResult[], s: WalkForwardSummary, meta: WalkForwardMeta): string {
  const doc = {
    objective: meta.objective,
    objective_definition: objectiveHelp(meta.objective, meta.drawdownFloorUsd),
    train_ms: meta.trainMs,
    test_ms: meta.testMs,
    step_ms: meta.stepMs,
    anchored: meta.anchored,
    points: meta.points,
    train_search: meta.trainSearch ?? 'every point on the whole train window',
    unscored_tail_ms: meta.unscoredTailMs ?? 0,
    partial_fold_fits: meta.partialFoldFits ?? false,
    folds: results.map((r) => ({
      fold: r.fold.index + 1,
      partial: r.fold.partial === true,
      train: { start_ms: r.fold.trainStartMs, end_ms: r.fold.testStartMs, start: new Date(r.fold.trainStartMs).toISOString(), end: new Date(r.fold.testStartMs).toISOString() },
      test: { start_ms: r.fold.testStartMs, end_ms: r.fold.testEndMs, start: new Date(r.fold.testStartMs).toISOString(), end: new Date(r.fold.testEndMs).toISOString() },
      chosen: r.chosen ? Object.fromEntries(r.chosen.point) : null,
      in_sample: { objective: finite(r.chosen?.objective), net_usd: finite(r.chosen?.metrics.net), max_drawdown_usd: finite(r.chosen?.metrics.maxDrawdown), fills: r.chosen?.metrics.fills ?? null },
      out_of_sample: { objective: finite(r.chosenTest?.objective), net_usd: finite(r.chosenTest?.metrics.net), max_drawdown_usd: finite(r.chosenTest?.metrics.maxDrawdown), fills: r.chosenTest?.metrics.fills ?? null, rank: r.chosenTest?.rank ?? null },
      best_out_of_sample: r.test.entries[0] ? { params: Object.fromEntries(r.test.entries[0].point), objective: finite(r.test.entries[0].objective) } : null,
      rank_correlation: finite(r.rankCorrelation),
      ...(r.rungs ? { train_rungs: r.rungs.map((g) => ({ rung: g.plan.index + 1, start_ms: r.fold.trainStartMs, end_ms: r.fold.trainStartMs + g.plan.lengthMs, candidates: g.leaderboard.entries.length, survivors: g.survivors.map((p) => Object.fromEntries(p)) })) } : {}),
      test_scores: r.test.entries.map((e) => ({ rank: e.rank, params: Object.fromEntries(e.point), objective: finite(e.objective), train_rank: r.train.entries.find((t) => t.pointIndex === e.pointIndex)?.rank ?? null, error: e.error })),
    })),
    summary: Object.fromEntries(Object.entries(s).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), typeof v === 'number' ? finite(v) : v])),
  };
  return `${JSON.stringify(doc, null, 2)}\n`;
}

/** Paired bars per fold: in-sample (blue) and out-of-sample (orange) score, around a zero line. */
function barsSvg(results: readonly FoldResult[], o: Objective): string {
  const W = 960;
  const H = 240;
  const pad = { l: 70, r: 12, t: 28, b: 28 };
  const vals = results.flatMap((r) => [r.chosen?.objective ?? NaN, r.chosenTest?.objective ?? NaN]).filter(Number.isFinite);
  const max = Math.max(0, ...vals);
  const min = Math.min(0, ...vals);
  const span = max - min || 1;
  const sy = (v: number): number => pad.t + ((max - v) / span) * (H - pad.t - pad.b);
  const slot = (W - pad.l - pad.r) / Math.max(1, results.length);
  const bw = Math.min(40, slot / 3);
  const parts = [`<svg viewBox="0 0 ${W} ${H}" width="100%" role="img" aria-label="In-sample vs out-of-sample ${esc(o)} per fold"><rect width="${W}" height="${H}" fill="#fff"/>`];
  parts.push(`<text x="${pad.l}" y="16" font-size="13" font-family="sans-serif" font-weight="bold">${esc(o)} of the chosen point per fold</text>`);
  parts.push(`<line x1="${pad.l}" x2="${W - pad.r}" y1="${sy(0).toFixed(1)}" y2="${sy(0).toFixed(1)}" stroke="#888"/>`);
  for (const v of [max, min]) parts.push(`<text x="${pad.l - 4}" y="${(sy(v) + 4).toFixed(1)}" font-size="10" text-anchor="end" font-family="monospace">${esc(fmt(v, 2))}</text>`);
  results.forEach((r, k) => {
    const cx = pad.l + slot * (k + 0.5);
    const bar = (v: number | undefined, x: number, color: string, label: string): void => {
      if (v === undefined || !Number.isFinite(v)) return;
      const y0 = sy(Math.max(0, v));
      parts.push(`<rect class="${label}" x="${x.toFixed(1)}" y="${y0.toFixed(1)}" width="${bw.toFixed(1)}" height="${Math.max(1, Math.abs(sy(v) - sy(0))).toFixed(1)}" fill="${color}"><title>fold ${k + 1} ${label}: ${fmt(v, 3)}</title></rect>`);
    };
    bar(r.chosen?.objective, cx - bw, '#1f6feb', 'in-sample');
    bar(r.chosenTest?.objective, cx, '#e16f24', 'out-of-sample');
    parts.push(`<text x="${cx.toFixed(1)}" y="${H - 8}" font-size="10" text-anchor="middle" font-family="monospace">f${k + 1}</text>`);
  });
  parts.push(`<rect x="${W - 230}" y="7" width="9" height="9" fill="#1f6feb"/><text x="${W - 218}" y="15" font-size="10" font-family="sans-serif">in-sample</text>`);
  parts.push(`<rect x="${W - 150}" y="7" width="9" height="9" fill="#e16f24"/><text x="${W - 138}" y="15" font-size="10" font-family="sans-serif">out-of-sample</text></svg>`);
  return parts.join('');
}

/**
 * Cumulative out-of-sample net PnL over the folds: the walk-forward's choice, the mean point (a
 * random pick) and the best point of each fold in hindsight (an upper bound no method reaches).
 */
function equityChart(results: readonly FoldResult[]): string {
  const x = [results[0]?.fold.testStartMs ?? 0, ...results.map((r) => r.fold.testEndMs)];
  const cumulative = (net: (r: FoldResult) => number): number[] => {
    let sum = 0;
    return [0, ...results.map((r) => (sum += Number.isFinite(net(r)) ? net(r) : 0))];
  };
  const ok = (r: FoldResult) => r.test.entries.filter((e) => e.windows > 0 && e.failed === 0);
  const series = [
    { label: 'best per fold (hindsight)', color: '#2da44e', y: cumulative((r) => Math.max(...ok(r).map((e) => e.metrics.net))) },
    { label: 'mean point', color: '#888', y: cumulative((r) => ok(r).reduce((t, e) => t + e.metrics.net, 0) / Math.max(1, ok(r).length)) },
    { label: 'walk-forward', color: '#e16f24', y: cumulative((r) => r.chosenTest?.metrics.net ?? 0) },
  ];
  return lineChart('Cumulative out-of-sample net PnL (USD)', x, series);
}

/** walk-forward.html: a self-contained page with the settings, the IS vs OOS chart, the fold table and the summary. */
export function walkForwardHtml(results: readonly FoldResult[], s: WalkForwardSummary, meta: WalkForwardMeta): string {
  const parts = [pageStart('mmbot walk-forward report')];
  parts.push(`<p>Objective ${esc(meta.objective)}: ${esc(objectiveHelp(meta.objective, meta.drawdownFloorUsd))}. ${meta.points} parameter points; train ${esc(formatDurationMs(meta.trainMs))}${meta.anchored ? ' (anchored: from the data start)' : ''}, test ${esc(formatDurationMs(meta.testMs))}, step ${esc(formatDurationMs(meta.stepMs))}. Windows are offsets from the data start (${esc(new Date(meta.dataStartMs).toISOString())}).</p>`);
  if (meta.trainSearch) parts.push(`<p>Train search: ${esc(meta.trainSearch)}; the chosen point's IS score is on the last rung.</p>`);
  if (meta.command) parts.push(`<p class="note">${esc(meta.command)}</p>`);
  parts.push('<h2>Summary</h2>', `<table>${summaryLines(results, s, meta.objective, meta).map(([k, v]) => `<tr><th style="text-align:left">${esc(k)}</th><td>${esc(v)}</td></tr>`).join('')}</table>`);
  parts.push(barsSvg(results, meta.objective));
  if (results.length > 0) parts.push(equityChart(results));
  parts.push('<h2>Folds: in-sample vs out-of-sample</h2>');
  parts.push(`<table class="folds"><tr>${HEAD.map((h) => `<th>${esc(h)}</th>`).join('')}</tr>${foldRows(results, meta).map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</table>`);
  parts.push('<p class="note">IS score: the chosen point\'s objective on its train window (the best of all points there). OOS score: the same point on the next, unseen test window; OOS rank: its rank there among all points. A large IS − OOS gap, a low efficiency or a rank correlation near 0 are signs of overfitting.</p>');
  parts.push('</body></html>\n');
  return parts.join('\n');
}
