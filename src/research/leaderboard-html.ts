import { overfittingLine } from './selection-overfitting.ts';
import { heatMap, type HeatMap } from './heatmap.ts';
import type { Leaderboard } from './leaderboard.ts';
import { lowerIsBetter, objectiveHelp, type Objective } from './objective.ts';

/** Escapes text for HTML content and attribute values. */
export const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A figure for a table cell: fixed decimals, an em dash when there is none. */
export const fmt = (v: number | null | undefined, digits = 4): string => (v === null || v === undefined || !Number.isFinite(v) ? '—' : v.toFixed(digits));

/** A parameter value as text. */
export const valueText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The opening of a self-contained research page (inline CSS, no scripts, no external URLs). */
export function pageStart(title: string): string {
  return [
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>`,
    '<style>body{font-family:sans-serif;margin:24px;max-width:1200px;color:#222}table{border-collapse:collapse;margin:8px 0 16px}' +
      'th,td{border:1px solid #ddd;padding:3px 8px;font-size:13px;text-align:right}th{background:#f6f6f6;font-weight:normal}td{font-family:monospace;white-space:nowrap}' +
      'table.heat td{min-width:64px;text-align:center}table.heat th{text-align:center}p.note{font-size:12px;color:#555}h2{margin-top:28px}</style></head><body>',
    `<h1>${esc(title)}</h1>`,
  ].join('\n');
}

/** Linear mix of two RGB colours, t in [0, 1]. */
function mix(a: readonly [number, number, number], b: readonly [number, number, number], t: number): string {
  const c = a.map((v, k) => Math.round(v + (b[k]! - v) * Math.max(0, Math.min(1, t))));
  return `rgb(${c[0]}, ${c[1]}, ${c[2]})`;
}
const WHITE = [255, 255, 255] as const;
const GOOD = [45, 164, 78] as const; // #2da44e
const BAD = [207, 34, 46] as const; // #cf222e

/**
 * A cell's colour: green for good, red for bad. Signed objectives whose values straddle zero use a
 * diverging scale around 0 (losses red, gains green); otherwise white (worst) to green (best).
 */
export function heatColor(v: number, min: number, max: number, o: Objective): string {
  const signed = o !== 'max_drawdown' && o !== 'fills' && o !== 'uptime';
  if (signed && min < 0 && max > 0) return v >= 0 ? mix(WHITE, GOOD, (0.15 + 0.85 * v / max)) : mix(WHITE, BAD, 0.15 + 0.85 * v / min);
  const span = max - min;
  const t = span > 0 ? (v - min) / span : 1;
  return mix(WHITE, GOOD, 0.1 + 0.8 * (lowerIsBetter(o) ? 1 - t : t));
}

/** The heat map as a table, with a sentence saying what each cell holds (`stageNote`: what a halving rung's map shows). */
export function heatMapHtml(h: HeatMap, o: Objective, stageNote?: string): string {
  const values = h.cells.flat().flatMap((c) => (c ? [c.value] : []));
  const min = Math.min(...values);
  const max = Math.max(...values);
  const parts: string[] = [];
  const yName = h.y?.path ?? '';
  parts.push(`<table class="heat" aria-label="heat map of ${esc(o)}"><tr><th>${esc(yName)} ↓ / ${esc(h.x.path)} →</th>${h.x.labels.map((l) => `<th>${esc(l)}</th>`).join('')}</tr>`);
  h.cells.forEach((row, r) => {
    parts.push(`<tr><th>${esc(h.y?.labels[r] ?? '')}</th>`);
    for (const c of row) {
      if (!c) {
        parts.push('<td class="empty" style="background:#f0f0f0">—</td>');
        continue;
      }
      const tip = `rank ${c.entry.rank}: ${c.entry.point.map(([k, v]) => `${k}=${valueText(v)}`).join(', ')}${c.count > 1 ? ` (best of ${c.count})` : ''}`;
      parts.push(`<td style="background:${heatColor(c.value, min, max, o)}" title="${esc(tip)}">${esc(fmt(c.value, 3))}<br><small>#${c.entry.rank}</small></td>`);
    }
    parts.push('</tr>');
  });
  parts.push('</table>');
  const diverging = o !== 'max_drawdown' && o !== 'fills' && o !== 'uptime' && min < 0 && max > 0;
  const scale = diverging ? 'red: below 0, green: above 0, deeper the further from 0' : `white: worst (${fmt(lowerIsBetter(o) ? max : min, 3)}) to green: best (${fmt(lowerIsBetter(o) ? min : max, 3)})`;
  const notes: string[] = [`Each cell shows ${o} for its pair of values and (small) that point's rank; grey: no point ran there. Colour: ${scale}.`];
  if (h.others.length > 0) notes.push(`Other axes (${h.others.join(', ')}): each cell holds the best ${o} over them; hover a cell for the point.`);
  if (h.x.binned || h.y?.binned) notes.push('Numeric axes with many sampled values are grouped into ranges.');
  if (stageNote !== undefined) notes.push(stageNote);
  parts.push(`<p class="note">${esc(notes.join(' '))}</p>`);
  return parts.join('\n');
}

/** The mean Sharpe, with how many windows had one when some did not (too short, or a flat PnL). */
export const sharpeCell = (e: Leaderboard['entries'][number], digits = 2): string =>
  `${fmt(e.metrics.sharpe, digits)}${e.sharpeWindows < e.metricWindows ? ` (${e.sharpeWindows}/${e.metricWindows})` : ''}`;

/** The ranked table: rank, parameters, objective, aggregated figures, the objective per window. */
export function rankedTableHtml(lb: Leaderboard, limit = 500): string {
  const head = ['#', ...lb.axes.map((a) => a.split('.').at(-1)!), ...(lb.staged ? ['rung'] : []), lb.objective, 'net (USD)', 'net+rewards', 'worst DD', 'mean Sharpe', 'fills', 'mk60 bps', 'windows', ...lb.windows.map((w) => `${lb.objective}@${w}`)];
  const rows = lb.entries.slice(0, limit).map((e) => {
    const m = e.metrics;
    const cells = [String(e.rank), ...e.point.map(([, v]) => valueText(v)), ...(lb.staged ? [String(e.rung ?? '—')] : [])];
    if (e.windows === e.failed) cells.push(`error: ${e.error ?? ''}`);
    else cells.push(fmt(e.objective), fmt(m.net), fmt(m.netWithRewards), fmt(m.maxDrawdown), sharpeCell(e), String(m.fills), fmt(m.markout60sBps, 3), e.failed > 0 ? `${e.windows - e.failed}/${e.windows} (${e.error ?? ''})` : String(e.windows), ...e.perWindow.map((v) => fmt(v)));
    return `<tr>${cells.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`;
  });
  const more = lb.entries.length > limit ? `<p class="note">${lb.entries.length - limit} more rows in the CSV and JSON files.</p>` : '';
  return `<table class="ranked"><tr>${head.map((h) => `<th title="${esc(h)}">${esc(h)}</th>`).join('')}</tr>\n${rows.join('\n')}</table>${more}`;
}

/** Options of the leaderboard page. */
export interface LeaderboardPageOptions {
  readonly title?: string;
  /** The heat map's two parameters (y null: one row); null for no heat map. */
  readonly heatmap: readonly [string, string | null] | null;
  /** Extra lines under the title (command, data, search mode). */
  readonly notes?: readonly string[];
  /** Extra HTML sections appended after the table (halving rungs). */
  readonly sections?: readonly string[];
}

/**
 * Successive halving's heat maps: one per rung, the last (the decisive one, on the longest window)
 * first. Scores of different rungs come from windows of different lengths and never share a map or
 * a colour scale; each map holds only the points that ran on its rung, with the columns of every
 * candidate so the maps line up (grey: eliminated earlier).
 */
function stageHeatMaps(lb: Leaderboard, [x, y]: readonly [string, string | null]): string[] {
  const all = [...lb.entries].sort((a, b) => a.pointIndex - b.pointIndex).map((e) => e.point);
  const parts = [
    `<h2>Heat maps: ${esc(lb.objective)} by ${esc(x)}${y ? ` and ${esc(y)}` : ''}, one per rung</h2>`,
    `<p class="note">${esc(`Successive halving scores each rung on a window of its own length, so rungs are never mixed: each map holds the points that ran on that rung, scored on its window, coloured on its own scale, with ranks within the rung. The last rung (the longest window) comes first; the first rung is the only one where every candidate ran.`)}</p>`,
  ];
  for (const s of [...lb.stages!].reverse()) {
    const n = s.leaderboard.entries.filter((e) => e.windows > 0).length;
    parts.push(`<h3>${esc(s.label)}: ${n} point(s)</h3>`);
    parts.push(heatMapHtml(heatMap(s.leaderboard, x, y, all), lb.objective, `Rung ${s.index}: ${lb.objective} on this rung's window only; grey cells were eliminated on an earlier rung (or failed); #n is the rank within the rung.`));
  }
  return parts;
}

/** leaderboard.html: a self-contained page with the objective, the heat map and the ranked table. */
export function leaderboardHtml(lb: Leaderboard, opts: LeaderboardPageOptions): string {
  const parts = [pageStart(opts.title ?? 'mmbot leaderboard')];
  const lines = [`Ranked by ${lb.objective}: ${objectiveHelp(lb.objective, lb.drawdownFloorUsd)}.`, `${lb.entries.length} parameter points over ${lb.windows.length} data window(s): ${lb.windows.join(', ')}.`, `${overfittingLine(lb)}.`, ...(opts.notes ?? [])];
  parts.push(...lines.map((l) => `<p>${esc(l)}</p>`));
  if (opts.heatmap && lb.stages) parts.push(...stageHeatMaps(lb, opts.heatmap));
  else if (opts.heatmap) {
    const [x, y] = opts.heatmap;
    parts.push(`<h2>Heat map: ${esc(lb.objective)} by ${esc(x)}${y ? ` and ${esc(y)}` : ''}</h2>`);
    parts.push(heatMapHtml(heatMap(lb, x, y), lb.objective));
  }
  parts.push('<h2>Ranking</h2>', rankedTableHtml(lb));
  parts.push(...(opts.sections ?? []));
  parts.push('</body></html>\n');
  return parts.join('\n');
}
